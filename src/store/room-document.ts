// The room as it is kept on disk (room.json): versioned JSON. The monotonic
// clock means nothing after a restart, so a running timer is kept as its
// wall-clock end instant, with the wall-clock time of the save beside it to
// tell whether the clock can be trusted when the box comes back.
import * as z from '../schema/zod.js';
import { describeZodError } from '../commands/zod-error.js';
import {
  charCount,
  CHIME_VOLUME_MAX,
  DURATION_MAX_MS,
  DURATION_MIN_MS,
  LABEL_MAX_CHARS,
  MESSAGE_MAX_CHARS,
  SPEAKER_MAX_CHARS,
  MAX_QUESTIONS,
  MAX_TAGS,
  QUESTION_ID_MAX_CHARS,
  QUESTION_NAME_MAX_CHARS,
  QUESTION_TEXT_MAX_CHARS,
  TAG_ID_MAX_CHARS,
  TAG_NAME_MAX_CHARS,
  TIMER_ID_MAX_CHARS,
  WARN_AT_MAX_MS,
  WARN_AT_MIN_MS,
} from '../domain/limits.js';
import { AUX_DEFAULT, CHIME_DEFAULTS, DISPLAY_DEFAULTS } from '../domain/room.js';
import { ELEMENT_SWITCHES, LOGO_VERSION_PATTERN, TIME_SIZE_MAX, TIME_SIZE_MIN } from '../domain/display-settings.js';
import { booleanFields } from '../schema/boolean-fields.js';
import { boxTimeZone } from '../app/box-time-zone.js';
import { APPEARANCES, AUX_APPEARANCES, CLOCK_FORMATS, DISPLAY_LAYOUTS, MESSAGE_COLORS, QUESTION_STATES, ZERO_BEHAVIORS, type Room, type Transport } from '../domain/types.js';

/**
 * Raise when the shape changes; an older service refuses a newer file rather than overwrite it.
 * 2: the room keeps `passedSchedules` (scheduled starts already dealt with) and timers
 * have `endsAt` and `dangerAt`; settings have `timeZone`, `clockFormat` and the chime's. A version 1 file is still read: it had no scheduled starts in effect,
 * so none has passed, and no timer counted to a time of day.
 * 3: the room keeps its `tags` (id, name, colour) and its `display` settings. Versions 1 and 2
 * are still read: they had no tags, so the room has none and every timer's `tagId` is cleared
 * (none could be set), and the display looks as it always did (the defaults).
 * 4: the room keeps its audience `questions`. Versions 1 to 3 are still read: they had none.
 * 5: settings have `plannedStart`; the room keeps its `actuals` (what happened during the show)
 * and the second timer `aux` (its transport kept as the main one's). Versions 1 to 4 are still
 * read: no planned start, nothing recorded, and the aux timer of a new room.
 * Later in version 5, `started` (the active timer has run since it was made active): a file
 * without it, older or by an older box, gets it from the kept transport (restore.ts).
 */
export const SCHEMA_VERSION = 5;

/**
 * The schemas of the room file, made for each read and dropped after it: a box
 * reads the file once, at start, and a few hundred KB of zod schemas held for the
 * life of the process is private memory an idle box need not keep (BENCHMARKS.md).
 */
function documentSchemas() {
  const wholeMs = z.number().check(z.int());
  const wholeMsIn = (min: number, max: number) => wholeMs.check(z.gte(min), z.lte(max));
  /** At most `max` characters as the engine counts them (code points), so what it accepted always reads back. */
  const chars = (max: number) => z.string().check(z.refine((text) => charCount(text) <= max, { message: `at most ${max} characters` }));
  /** 1 to `max` characters that the engine counts. */
  const someChars = (max: number) => z.pipe(chars(max), z.string().check(z.minLength(1)));
  const idOf = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

  const TimerSchemaV1 = z.object({
    id: idOf(TIMER_ID_MAX_CHARS),
    label: chars(LABEL_MAX_CHARS),
    speaker: chars(SPEAKER_MAX_CHARS),
    duration: wholeMsIn(DURATION_MIN_MS, DURATION_MAX_MS),
    warnAt: wholeMsIn(WARN_AT_MIN_MS, WARN_AT_MAX_MS),
    appearance: z.enum(APPEARANCES),
    tagId: z.nullable(z.string()),
    scheduledAt: z.nullable(wholeMs),
  });

  const TimerSchema = z.extend(TimerSchemaV1, { endsAt: z.nullable(wholeMs), dangerAt: wholeMsIn(WARN_AT_MIN_MS, WARN_AT_MAX_MS) });

  const StoredTransportSchema = z.discriminatedUnion('running', [
    z.object({ running: z.literal(true), endWallMs: wholeMs }),
    z.object({ running: z.literal(false), remainingMs: wholeMs }),
  ]);

  const roomFieldsV1 = {
    seq: wholeMs.check(z.gte(1)),
    timers: z.array(TimerSchemaV1).check(z.minLength(1)),
    activeTimerId: z.string(),
    transport: StoredTransportSchema,
    message: z.nullable(z.object({ text: someChars(MESSAGE_MAX_CHARS), flash: z.boolean(), color: z.enum(MESSAGE_COLORS), bold: z.boolean() })),
    blackout: z.boolean(),
    onAir: z.boolean(),
    settings: z.object({ zeroBehavior: z.enum(ZERO_BEHAVIORS), autoAdvance: z.boolean() }),
  };

  function checkRoom(room: { timers: readonly { id: string }[]; activeTimerId: string }, ctx: z.core.$RefinementCtx): void {
    const ids = room.timers.map((t) => t.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['timers'], message: 'two timers share an id' });
    if (!ids.includes(room.activeTimerId)) ctx.addIssue({ code: 'custom', path: ['activeTimerId'], message: 'not in the running order' });
  }

  // The older versions' schemas are made only for a file of that version.
  const StoredRoomSchemaV1 = () => z.object(roomFieldsV1).check(z.superRefine(checkRoom));

  const roomFieldsV2 = {
    ...roomFieldsV1,
    timers: z.array(TimerSchema).check(z.minLength(1)),
    settings: z.object({
      zeroBehavior: z.enum(ZERO_BEHAVIORS),
      autoAdvance: z.boolean(),
      timeZone: idOf(64),
      clockFormat: z.enum(CLOCK_FORMATS),
      chimeAtZero: z.boolean(),
      chimeAtWarning: z.boolean(),
      chimeVolume: wholeMsIn(0, CHIME_VOLUME_MAX),
    }),
    passedSchedules: z.array(z.object({ timerId: z.string(), scheduledAt: wholeMs })),
  };

  const StoredRoomSchemaV2 = () => z.object(roomFieldsV2).check(z.superRefine(checkRoom));

  /** `#rrggbb` in lower case, as the room keeps colours. */
  const colour = z.string().check(z.regex(/^#[0-9a-f]{6}$/));

  const TagSchema = z.object({
    id: idOf(TAG_ID_MAX_CHARS),
    name: someChars(TAG_NAME_MAX_CHARS),
    colour,
  });

  /** Every timer's tag is one of the room's: a file where one is not was not written by this service. */
  function checkTags(room: { timers: readonly { tagId: string | null }[]; tags: readonly { id: string }[] }, ctx: z.core.$RefinementCtx): void {
    const ids = room.tags.map((t) => t.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['tags'], message: 'two tags share an id' });
    if (room.timers.some((t) => t.tagId !== null && !ids.includes(t.tagId))) ctx.addIssue({ code: 'custom', path: ['timers'], message: 'a timer carries a tag the room does not have' });
  }

  const DisplaySchema = z.object({
    layout: z.enum(DISPLAY_LAYOUTS),
    background: colour,
    normalColour: colour,
    warningColour: colour,
    overrunColour: colour,
    timeSize: wholeMsIn(TIME_SIZE_MIN, TIME_SIZE_MAX),
    ...booleanFields(ELEMENT_SWITCHES),
    // Absent from a file written before logos: no logo, shown once one is uploaded.
    showLogo: z._default(z.boolean(), true),
    // Absent from a file written before audience questions: the defaults.
    showQuestion: z._default(z.boolean(), true),
    showAskLink: z._default(z.boolean(), false),
    // Absent from a file written before the schedule and the aux timer (issue 29): off.
    showOverUnder: z._default(z.boolean(), false),
    showShowEnd: z._default(z.boolean(), false),
    showAux: z._default(z.boolean(), false),
    logo: z._default(z.nullable(z.string().check(z.regex(LOGO_VERSION_PATTERN))), null),
  });

  const roomFieldsV3 = { ...roomFieldsV2, tags: z.array(TagSchema).check(z.maxLength(MAX_TAGS)), display: DisplaySchema };

  const StoredRoomSchemaV3 = () => z.object(roomFieldsV3).check(z.superRefine(checkRoom), z.superRefine(checkTags));

  const QuestionSchema = z.object({
    id: idOf(QUESTION_ID_MAX_CHARS),
    text: someChars(QUESTION_TEXT_MAX_CHARS),
    name: chars(QUESTION_NAME_MAX_CHARS),
    receivedAt: wholeMs,
    state: z.enum(QUESTION_STATES),
    nameShown: z.boolean(),
  });

  /** At most one question on the screens, and ids unique: a file where not was not written by this service. */
  function checkQuestions(room: { questions: readonly { id: string; state: string }[] }, ctx: z.core.$RefinementCtx): void {
    const ids = room.questions.map((q) => q.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['questions'], message: 'two questions share an id' });
    if (room.questions.filter((q) => q.state === 'shown').length > 1) ctx.addIssue({ code: 'custom', path: ['questions'], message: 'more than one question is shown' });
  }

  const roomFieldsV4 = { ...roomFieldsV3, questions: z.array(QuestionSchema).check(z.maxLength(MAX_QUESTIONS)) };

  const StoredRoomSchemaV4 = () => z.object(roomFieldsV4).check(z.superRefine(checkRoom), z.superRefine(checkTags), z.superRefine(checkQuestions));

  const ActualSchema = z.object({ timerId: z.string(), startedAt: wholeMs, endedAt: z.nullable(wholeMs) });

  const AuxSchema = z.object({
    label: chars(LABEL_MAX_CHARS),
    duration: wholeMsIn(DURATION_MIN_MS, DURATION_MAX_MS),
    appearance: z.enum(AUX_APPEARANCES),
    transport: StoredTransportSchema,
  });

  /** Actual times only of timers in the running order, once each: a file where not was not written by this service. */
  function checkActuals(room: { timers: readonly { id: string }[]; actuals: readonly { timerId: string }[] }, ctx: z.core.$RefinementCtx): void {
    const ids = new Set(room.timers.map((t) => t.id));
    const timerIds = room.actuals.map((a) => a.timerId);
    if (new Set(timerIds).size !== timerIds.length) ctx.addIssue({ code: 'custom', path: ['actuals'], message: 'two entries for one timer' });
    if (timerIds.some((id) => !ids.has(id))) ctx.addIssue({ code: 'custom', path: ['actuals'], message: 'a timer that is not in the running order' });
  }

  const StoredRoomSchema = z
    .object({
      ...roomFieldsV4,
      settings: z.extend(roomFieldsV4.settings, { plannedStart: z.nullable(wholeMs) }),
      actuals: z.array(ActualSchema),
      aux: AuxSchema,
      // Added within version 5 (issue 31): a file without it is read by the rule of restore.ts.
      started: z.optional(z.boolean()),
    })
    .check(z.superRefine(checkRoom), z.superRefine(checkTags), z.superRefine(checkQuestions), z.superRefine(checkActuals));

  const documentFields = {
    savedAtWallMs: wholeMs,
    /**
     * Every seq the service may publish before its next save lands is at most this,
     * so a restart after a crash resumes from here and seq never goes back.
     */
    seqReservedTo: wholeMs.check(z.gte(1)),
  };

  const RoomDocumentSchema = z.object({ schemaVersion: z.literal(SCHEMA_VERSION), ...documentFields, room: StoredRoomSchema });

  /** What a file from before the schedule and the aux timer lacks: no planned start, nothing recorded, a new room's aux timer. */
  const beforeSchedule = { actuals: [], aux: { ...AUX_DEFAULT, transport: { running: false as const, remainingMs: AUX_DEFAULT.duration } } };

  /** Version 4, read and brought up to the current shape. */
  const RoomDocumentSchemaV4 = () =>
    z.pipe(
      z.object({ schemaVersion: z.literal(4), ...documentFields, room: StoredRoomSchemaV4() }),
      z.transform((v4): z.infer<typeof RoomDocumentSchema> => ({
        ...v4,
        schemaVersion: SCHEMA_VERSION,
        room: { ...v4.room, settings: { ...v4.room.settings, plannedStart: null }, ...beforeSchedule },
      })),
    );

  /** Version 3, read and brought up to the current shape: no questions yet. */
  const RoomDocumentSchemaV3 = () =>
    z.pipe(
      z.object({ schemaVersion: z.literal(3), ...documentFields, room: StoredRoomSchemaV3() }),
      z.transform((v3): z.infer<typeof RoomDocumentSchema> => ({
        ...v3,
        schemaVersion: SCHEMA_VERSION,
        room: { ...v3.room, settings: { ...v3.room.settings, plannedStart: null }, questions: [], ...beforeSchedule },
      })),
    );

  /** Version 2, read and brought up to the current shape: no tags yet, so no timer carries one. */
  const RoomDocumentSchemaV2 = () =>
    z.pipe(
      z.object({ schemaVersion: z.literal(2), ...documentFields, room: StoredRoomSchemaV2() }),
      z.transform((v2): z.infer<typeof RoomDocumentSchema> => ({
        ...v2,
        schemaVersion: SCHEMA_VERSION,
        room: {
          ...v2.room,
          settings: { ...v2.room.settings, plannedStart: null },
          timers: v2.room.timers.map((t) => ({ ...t, tagId: null })),
          tags: [],
          display: { ...DISPLAY_DEFAULTS },
          questions: [],
          ...beforeSchedule,
        },
      })),
    );

  /** Version 1, read and brought up to the current shape. */
  const RoomDocumentSchemaV1 = () =>
    z.pipe(
      z.object({ schemaVersion: z.literal(1), ...documentFields, room: StoredRoomSchemaV1() }),
      z.transform((v1): z.infer<typeof RoomDocumentSchema> => ({ ...v1, schemaVersion: SCHEMA_VERSION, room: {
          ...v1.room,
          timers: v1.room.timers.map((t) => ({ ...t, endsAt: null, dangerAt: 0, tagId: null })),
          // The room had no zone of its own: the box's, as a new room gets.
          settings: { ...v1.room.settings, timeZone: boxTimeZone(), clockFormat: '24h' as const, ...CHIME_DEFAULTS, plannedStart: null },
          passedSchedules: [],
          tags: [],
          display: { ...DISPLAY_DEFAULTS },
          questions: [],
          ...beforeSchedule,
        },
      })),
    );

  return { RoomDocumentSchema, RoomDocumentSchemaV1, RoomDocumentSchemaV2, RoomDocumentSchemaV3, RoomDocumentSchemaV4 };
}

type DocumentSchema = ReturnType<typeof documentSchemas>['RoomDocumentSchema'];

export type RoomDocument = z.infer<DocumentSchema>;
export type StoredRoom = RoomDocument['room'];

export interface ClockReading {
  readonly monoMs: number;
  readonly wallMs: number;
}

/** The document for `room`, converting a running end instant from monotonic to wall clock at `now`. */
export function toDocument(room: Room, now: ClockReading, seqReservedTo: number): RoomDocument {
  // A flash is over within seconds and its instant is monotonic: it is not kept. Nor is
  // the tally: its sources repeat their state, so the first report after a start sets it;
  // nor the screen's power: the screen adapter asks again after a start.
  const { flash: _flash, chimeTestMonoMs: _chimeTest, tally: _tally, screen: _screen, ...kept } = room;
  return {
    schemaVersion: SCHEMA_VERSION,
    savedAtWallMs: Math.round(now.wallMs),
    seqReservedTo: Math.max(seqReservedTo, room.seq),
    room: {
      ...kept,
      timers: [...room.timers],
      passedSchedules: [...room.passedSchedules],
      tags: [...room.tags],
      questions: [...room.questions],
      actuals: [...room.actuals],
      transport: storedTransport(room.transport, now),
      aux: { ...room.aux, transport: storedTransport(room.aux.transport, now) },
    },
  };
}

/** A running transport kept as its wall-clock end (the monotonic clock means nothing after a restart). */
function storedTransport(transport: Transport, now: ClockReading): StoredRoom['transport'] {
  return transport.running
    ? { running: true as const, endWallMs: Math.round(now.wallMs + (transport.endMonoMs - now.monoMs)) }
    : { running: false as const, remainingMs: Math.round(transport.remainingMs) };
}

export function serializeDocument(document: RoomDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export type DocumentRead =
  | { readonly kind: 'ok'; readonly document: RoomDocument }
  | { readonly kind: 'damaged'; readonly reason: string }
  | { readonly kind: 'newer'; readonly schemaVersion: number };

export function parseDocument(text: string): DocumentRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const version = typeof json === 'object' && json !== null ? (json as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (typeof version === 'number' && Number.isInteger(version) && version > SCHEMA_VERSION) {
    return { kind: 'newer', schemaVersion: version };
  }
  const schemas = documentSchemas();
  const older =
    version === 1 ? schemas.RoomDocumentSchemaV1()
    : version === 2 ? schemas.RoomDocumentSchemaV2()
    : version === 3 ? schemas.RoomDocumentSchemaV3()
    : version === 4 ? schemas.RoomDocumentSchemaV4()
    : null;
  const parsed = (older ?? schemas.RoomDocumentSchema).safeParse(json);
  if (!parsed.success) {
    return { kind: 'damaged', reason: `not a room file of schema version ${older === null ? SCHEMA_VERSION : String(version)}: ${describeZodError(parsed.error)}` };
  }
  return { kind: 'ok', document: parsed.data };
}
