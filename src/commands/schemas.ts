// Response bodies of the API as zod schemas: the OpenAPI document's components
// are generated from these, and the tests check real responses against them.
import * as z from '../schema/zod.js';
import { APPEARANCES, AUX_APPEARANCES, CLOCK_FORMATS, DISPLAY_LAYOUTS, MESSAGE_COLORS, QUESTION_STATES, SCREEN_POWERS, TALLY_SOURCES, ZERO_BEHAVIORS } from '../domain/types.js';
import { ELEMENT_SWITCHES } from '../domain/display-settings.js';
import { booleanFields } from '../schema/boolean-fields.js';

const int = () => z.number().check(z.int());
/** The schema with its description for the OpenAPI document (zod/mini's form of `.describe()`). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.describe(description));

export const TimerSchema = z.object({
  id: z.string(),
  label: z.string(),
  speaker: z.string(),
  duration: described(int(), 'Planned length, ms'),
  warnAt: described(int(), 'Orange-alert threshold, ms'),
  dangerAt: described(int(), 'Addition to v1: red threshold, ms; 0 is none'),
  appearance: z.enum(APPEARANCES),
  tagId: z.nullable(z.string()),
  scheduledAt: described(z.nullable(int()), 'Scheduled start, ms since epoch'),
  endsAt: described(z.nullable(int()), 'Addition to v1: counts to this wall-clock instant, ms since epoch; null counts the duration'),
});

export const TagSchema = z.object({
  id: z.string(),
  name: z.string(),
  colour: described(z.string(), '#rrggbb, lower case'),
});

export const MessageSchema = z.object({
  text: z.string(),
  flash: z.boolean(),
  color: z.enum(MESSAGE_COLORS),
  bold: z.boolean(),
});

const v0SettingsShape = {
  zeroBehavior: z.enum(ZERO_BEHAVIORS),
  autoAdvance: z.boolean(),
  timeZone: described(z.string(), 'Addition to v1: IANA time zone of the room; every time of day on the screens is shown in it'),
  clockFormat: described(z.enum(CLOCK_FORMATS), 'Addition to v1: times of day in 24-hour or 12-hour (AM/PM) form'),
  chimeAtZero: described(z.boolean(), 'Addition to v1: the displays chime when the digits reach zero'),
  chimeAtWarning: described(z.boolean(), 'Addition to v1: the displays chime at the warning threshold'),
  chimeVolume: described(int(), 'Addition to v1: chime volume, 0 to 100'),
};

export const SettingsSchema = z.object({
  ...v0SettingsShape,
  plannedStart: described(
    z.nullable(int()),
    'Addition to v1: when the show is planned to begin, ms since epoch, or null; the first timer\'s planned start in `schedule`',
  ),
});

/** The settings as v0 answers them: as they were before the schedule (issue 29), since v0 never changes. */
export const V0SettingsSchema = z.object(v0SettingsShape);

const v0DisplayShape = {
  layout: described(z.enum(DISPLAY_LAYOUTS), 'full, minimal (the time alone) or lowerThird (a band along the bottom)'),
  background: described(z.string(), '#rrggbb'),
  normalColour: described(z.string(), '#rrggbb: the time before warnAt'),
  warningColour: described(z.string(), '#rrggbb: the time from warnAt on'),
  overrunColour: described(z.string(), '#rrggbb: the time from dangerAt on and in overrun'),
  timeSize: described(int(), 'Percent of the layout\'s own size of the time, 50 to 150'),
  ...booleanFields(ELEMENT_SWITCHES),
  showLogo: z.boolean(),
  showQuestion: described(z.boolean(), 'Addition to v1: the screens show the audience question the moderator put on them'),
  showAskLink: described(z.boolean(), 'Addition to v1: the screens show the audience link (/ask/{audience_key}) as a QR code and an address'),
  logo: described(z.nullable(z.string()), 'The uploaded logo\'s version, or null: the screens show /logo/{version} (POST /display/logo sets it)'),
};

export const DisplaySchema = z.object({
  ...v0DisplayShape,
  showOverUnder: described(z.boolean(), 'Addition to v1: the screens show how far ahead or behind the show is (`schedule.offset`), in their own small area'),
  showShowEnd: described(z.boolean(), 'Addition to v1: the screens show when the show is projected to end (`schedule.projectedEnd`) as a time of day'),
  showAux: described(z.boolean(), 'Addition to v1: the screens show the second timer (`aux`) in its own small area'),
});

/** The display settings as v0 answers them: without the switches of issue 29. */
export const V0DisplaySchema = z.object(v0DisplayShape);

export const QuestionSchema = z.object({
  id: z.string(),
  text: described(z.string(), 'As the audience typed it, control characters stripped and trimmed: 1 to 280 characters; show it as text, never as markup'),
  name: described(z.string(), 'The name the person gave, up to 60 characters; empty when none'),
  receivedAt: described(int(), 'When the box received it, ms since epoch'),
  state: described(z.enum(QUESTION_STATES), 'new, approved, shown (on the screens; at most one), answered or hidden'),
  nameShown: described(z.boolean(), 'While shown: whether the screens show the name with it'),
});

export const ShownQuestionSchema = z.object({
  id: z.string(),
  text: z.string(),
  name: described(z.nullable(z.string()), 'Null unless the moderator chose to show the name (and one was given)'),
});

export const ActualSchema = z.object({
  timerId: described(z.string(), 'The timer (its id in the running order)'),
  startedAt: described(int(), 'When it first ran since the last show reset, ms since epoch'),
  endedAt: described(z.nullable(int()), 'When it was last left for another timer or stopped at zero, ms since epoch; null while it is on, or paused part-way'),
});

/** The snapshot's `tally`: one optional boolean per source of TALLY_SOURCES. */
export const TallySchema = z.object({
  on: described(z.boolean(), 'Any source says on air: a change of it sets onAir (a manual onair or toggle_onair holds until the next change)'),
  sources: described(
    z.object(Object.fromEntries(TALLY_SOURCES.map((source) => [source, z.optional(z.boolean())])) as Record<(typeof TALLY_SOURCES)[number], z.ZodMiniOptional<z.ZodMiniBoolean>>),
    'Each source\'s last report (tsl: TSL UMD 3.1/5.0; obs: OBS); a source not heard from since the box started is absent',
  ),
});

/** The snapshot's `screen`: what the screen last answered over HDMI-CEC. */
export const ScreenSchema = z.object({
  power: described(
    z.enum(SCREEN_POWERS),
    'What the screen answered when last asked (every 30 s, and after each /screen command): on, standby, to-on or to-standby (CEC\'s "in transition"); ' +
      'unknown: it has not answered (yet, or it did not acknowledge); unavailable: the box cannot reach the bus (no cec-ctl, no CEC device, no HDMI link)',
  ),
  problem: described(z.nullable(z.string()), 'Why the screen is unknown or unavailable, in words a person can act on; null when it answered'),
});

export const AuxSnapshotSchema = z.object({
  label: z.string(),
  duration: described(int(), 'Its length, ms: where a reset stands it (a count-up shows 0:00 there)'),
  appearance: described(z.enum(AUX_APPEARANCES), 'countdown (the time left, on into overrun) or countup (duration - remaining: the time since its start)'),
  running: z.boolean(),
  endAt: described(z.nullable(int()), 'When it reaches zero while running, ms since epoch; null while paused'),
  remainingAtPause: described(z.nullable(int()), 'Remaining ms while paused; null while running'),
  remaining: described(int(), 'Remaining ms at serverNow; negative is overrun'),
});

const instant = (description: string) => described(z.nullable(int()), description);

export const ScheduledTimerSchema = z.object({
  id: described(z.string(), 'The timer (its id in the running order)'),
  plannedStart: instant(
    'Its own scheduledAt (a hard start), else the planned end of the timer before; the first timer\'s is the show\'s planned start. ms since epoch; null while unknown (no plannedStart and nothing has run)',
  ),
  plannedEnd: instant('endsAt where set, else plannedStart + duration; ms since epoch, or null while unknown'),
  actualStart: instant('When it first ran (as in `actuals`), ms since epoch; null if it has not run'),
  actualEnd: instant('When it was left or stopped at zero (as in `actuals`), ms since epoch; null if it has not ended'),
  projectedStart: instant(
    'For the active timer and the ones after it: when it starts as things stand (never before now, the end of the one before, or its own scheduledAt); null for the ones before the active one',
  ),
  projectedEnd: instant('For the active timer and the ones after it: when it ends as things stand; null for the ones before the active one'),
});

export const ScheduleSchema = z.object({
  plannedStart: instant('The show\'s planned start: settings.plannedStart, or without one the first actual start; null while neither is known'),
  plannedEnd: instant('The last timer\'s planned end, ms since epoch; null while unknown'),
  projectedEnd: described(int(), 'The last timer\'s projected end: when the show ends as things stand, ms since epoch'),
  offset: described(
    z.nullable(int()),
    'The active timer\'s projected end minus its planned end, ms: positive is behind (late), negative ahead (early); null while its planned end is unknown',
  ),
  totalDuration: described(int(), 'The sum of every timer\'s duration, ms: the running time of the order'),
  nextPlannedStart: instant('The planned start of the timer after the active one, ms since epoch; null when there is none or it is unknown'),
  timers: described(z.array(ScheduledTimerSchema), 'One entry per timer, in running order'),
});

/** The fields of the snapshot v0 answers, which never change (v0 is frozen). */
const v0StateShape = {
  seq: described(int(), 'Starts at 1, rises by exactly 1 on every change of the room, never goes back'),
  serverNow: described(int(), 'Server clock when the snapshot was made, ms since epoch'),
  running: z.boolean(),
  endAt: described(z.nullable(int()), 'End instant while running, ms since epoch; null while paused'),
  remainingAtPause: described(z.nullable(int()), 'Remaining ms while paused; null while running'),
  remaining: described(int(), 'Remaining ms; negative means overrun'),
  zeroBehavior: z.enum(ZERO_BEHAVIORS),
  autoAdvance: z.boolean(),
  blackout: z.boolean(),
  onAir: z.boolean(),
  activeTimerId: z.string(),
  activeLabel: z.string(),
  activeSpeaker: z.string(),
  warnAt: int(),
  dangerAt: described(int(), 'Addition to v1: the active timer\'s red threshold, ms; 0 is none'),
  duration: int(),
  message: z.nullable(MessageSchema),
  timers: z.array(TimerSchema),
  tags: described(z.array(TagSchema), 'Addition to v1: the room\'s tags, which timers carry by `tagId`'),
  settings: SettingsSchema,
  display: described(DisplaySchema, 'Addition to v1: how the screens look; set with /display'),
  flash: described(
    z.nullable(
      z.object({
        startAt: described(int(), 'Server instant of the first inversion, ms since epoch'),
        count: described(int(), 'Number of inversions'),
        periodMs: described(int(), 'One inversion and its pause; inverted for the first half'),
        endAt: described(int(), 'Server instant at which the flash is over, ms since epoch'),
      }),
    ),
    'Addition to v1: a screen flash that has not ended yet (every screen inverts at these server instants); null otherwise',
  ),
  chimeTestAt: described(
    z.nullable(int()),
    'Addition to v1: a test chime (the `chime` command): the server instant every display plays it, shown for a second; null otherwise',
  ),
  shownQuestion: described(z.nullable(ShownQuestionSchema), 'Addition to v1: the audience question on the screens, or null; the viewer link and the kiosk get this and no other question'),
  questions: described(
    z.array(QuestionSchema),
    'Addition to v1: every audience question, oldest first (at most 500); only for the API key, never on the viewer link or the kiosk',
  ),
};

export const StateSchema = z.object({
  ...v0StateShape,
  started: described(
    z.boolean(),
    'Addition to v1: the active timer has run since it was made active (select, next, previous) or set back to its duration (reset, /show_reset); ' +
      'paused, the screens say PAUSED when true and READY when false, whatever the time left',
  ),
  actuals: described(
    z.array(ActualSchema),
    'Addition to v1: what actually happened, one entry per timer that has run since the last show reset (/show_reset), in the order they first ran',
  ),
  aux: described(AuxSnapshotSchema, 'Addition to v1: the second timer, beside the running order, with its own transport (/aux, /aux_start, ...)'),
  tally: described(
    z.nullable(TallySchema),
    'Addition to v1: tally in (config `tally`): what the tally sources last said and whether any says on air; null while none has reported since the box started (not kept across a restart)',
  ),
  screen: described(
    z.nullable(ScreenSchema),
    'Addition to v1: the screen over HDMI-CEC (config `screen`, /screen/on, /screen/standby, /screen/active): what it last answered; null when the box controls no screen',
  ),
  schedule: described(
    ScheduleSchema,
    'Addition to v1: the schedule at serverNow, derived from the running order, settings.plannedStart, the actual times and where the active timer stands: ' +
      'planned, actual and projected times of every timer, the projected end of the show and the offset (positive is behind). ' +
      'In GET /state and every answer; the events stream leaves it out (its snapshots carry every field it is made from): ' +
      'a client derives it with the same rules at its estimate of the server\'s time, so it follows the clock between events.',
  ),
});

export const StateEnvelopeSchema = z.object({ ok: z.literal(true), state: StateSchema });

/** The snapshot v0 answers: as it was before issue 29, without the schedule, the actual times and the aux timer. */
export const V0StateSchema = z.object({
  ...v0StateShape,
  settings: V0SettingsSchema,
  display: described(V0DisplaySchema, 'How the screens look; set with v1 /display'),
});

export const V0StateEnvelopeSchema = z.object({ ok: z.literal(true), state: V0StateSchema });

export const TimersListSchema = z.object({
  ok: z.literal(true),
  activeTimerId: z.string(),
  timers: z.array(TimerSchema),
});

export const TimerCreatedSchema = z.object({ ok: z.literal(true), timer: TimerSchema });

export const QuestionsListSchema = z.object({ ok: z.literal(true), questions: z.array(QuestionSchema) });

export const QuestionReceivedSchema = z.object({
  ok: z.literal(true),
  id: described(z.string(), 'The question\'s id, as the moderator sees it'),
  receivedAt: described(int(), 'When the box received it, ms since epoch'),
});

export const ErrorSchema = z.object({
  ok: z.literal(false),
  error: described(z.string(), 'What went wrong, in words a person can act on'),
});

/** Component names in the OpenAPI document. */
export const components = {
  Timer: TimerSchema,
  Tag: TagSchema,
  Message: MessageSchema,
  Settings: SettingsSchema,
  Display: DisplaySchema,
  State: StateSchema,
  StateEnvelope: StateEnvelopeSchema,
  Actual: ActualSchema,
  AuxSnapshot: AuxSnapshotSchema,
  Tally: TallySchema,
  Screen: ScreenSchema,
  Schedule: ScheduleSchema,
  ScheduledTimer: ScheduledTimerSchema,
  V0Settings: V0SettingsSchema,
  V0Display: V0DisplaySchema,
  V0State: V0StateSchema,
  V0StateEnvelope: V0StateEnvelopeSchema,
  TimersList: TimersListSchema,
  TimerCreated: TimerCreatedSchema,
  Question: QuestionSchema,
  ShownQuestion: ShownQuestionSchema,
  QuestionsList: QuestionsListSchema,
  QuestionReceived: QuestionReceivedSchema,
  Error: ErrorSchema,
} as const;

export type ComponentName = keyof typeof components;
