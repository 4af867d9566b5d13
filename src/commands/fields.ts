// Every input field of the API, defined once with its two spellings: the query
// form (strings, for plain GETs from button panels, also used for form-encoded
// bodies) and the JSON form (for POST bodies). The same schemas validate requests
// and produce the OpenAPI document, so the document states what the service does.
import * as z from '../schema/zod.js';
import {
  ADJUST_MAX_MS,
  DURATION_MAX_MS,
  DURATION_MIN_MS,
  LABEL_MAX_CHARS,
  FLASH_COUNT_DEFAULT,
  FLASH_COUNT_MAX,
  FLASH_COUNT_MIN,
  CHIME_VOLUME_MAX,
  MESSAGE_MAX_CHARS,
  SCHEDULED_AT_MAX_MS,
  SCHEDULED_AT_MIN_MS,
  SPEAKER_MAX_CHARS,
  TAG_COLOUR_DEFAULT,
  TAG_ID_MAX_CHARS,
  TAG_NAME_MAX_CHARS,
  QUESTION_ID_MAX_CHARS,
  WARN_AT_MAX_MS,
  WARN_AT_MIN_MS,
} from '../domain/limits.js';
import { textProblem } from '../domain/text-rules.js';
import { TIME_SIZE_MAX, TIME_SIZE_MIN } from '../domain/display-settings.js';
import { APPEARANCES, AUX_APPEARANCES, CLOCK_FORMATS, DISPLAY_LAYOUTS, MESSAGE_COLORS, ZERO_BEHAVIORS, type AuxAppearance } from '../domain/types.js';

export type JsonExample = string | number | boolean;

export interface FieldDef<T> {
  readonly query: z.ZodMiniType<T, string>;
  readonly json: z.ZodMiniType<T>;
  /**
   * What the OpenAPI document shows for a query (or form) value. Mostly the query
   * schema itself; whole numbers are shown as integers with their range, since a
   * query carries an integer as its decimal spelling and a client should know the bounds.
   */
  readonly queryDoc: z.ZodMiniType;
  readonly description: string;
  /** A good value as a query spells it. */
  readonly example: string;
  /** The same value in JSON. */
  readonly jsonExample: JsonExample;
  /** A value the field refuses, as a query spells it (none for `on`, which takes any): the document's error examples are the service's answers to it. */
  readonly badExample?: string;
}

function describeInput(input: unknown): string {
  return `got ${JSON.stringify(input)}`;
}

/** zod's message for a bad value, or "is required" when a required field is missing. */
function problem(expected: string): (iss: { input?: unknown }) => string {
  return (iss) => (iss.input === undefined ? `is required: ${expected}` : `${expected}; ${describeInput(iss.input)}`);
}

/** A JSON number that must be whole and in [min, max]; `expected` is what a value of another type is told. */
function wholeNumberIn(min: number, max: number, hint: string, expected: string) {
  return z.number({ error: problem(`${expected}: ${hint}`) }).check(
    z.int({ error: (iss) => `must be a whole number, not a fraction: ${hint}; ${describeInput(iss.input)}` }),
    z.gte(min, { error: (iss) => `${String(iss.input)} is too small: ${hint}` }),
    z.lte(max, { error: (iss) => `${String(iss.input)} is too large: ${hint}` }),
  );
}

/** A whole number written in decimal; `signed` allows a leading + or -. */
function integerFieldNow(opts: {
  min: number;
  max: number;
  signed: boolean;
  hint: string;
  description: string;
  example: number;
  badExample: string;
}): FieldDef<number> {
  // A literal `+` in a query string arrives as a space (form encoding), so the
  // `?ms=+60000` a person types reads " 60000": a leading space stands for the plus.
  const pattern = opts.signed ? /^[+\- ]?\d{1,15}$/ : /^\d{1,15}$/;
  const range = wholeNumberIn(opts.min, opts.max, opts.hint, 'must be a whole number');
  const digits = z
    .string({ error: problem(`must be a whole number: ${opts.hint}`) })
    .check(z.regex(pattern, { error: (iss) => `must be a whole number written in decimal: ${opts.hint}; ${describeInput(iss.input)}` }));
  const query = z.pipe(z.pipe(digits, z.transform((text: string) => Number(text))), range);
  return {
    query,
    json: range,
    queryDoc: range,
    description: opts.description,
    example: String(opts.example),
    jsonExample: opts.example,
    badExample: opts.badExample,
  };
}

/**
 * A wall-clock instant in ms since the epoch, or none: empty in a query (a button
 * panel cannot send null), null in JSON. The document shows the query form as
 * "an integer in range, or the empty string".
 */
function instantFieldNow(opts: { description: string; example: number; badExample: string }): FieldDef<number | null> {
  const hint =
    `milliseconds since the epoch (1970-01-01T00:00:00Z) from ${SCHEDULED_AT_MIN_MS} to ${SCHEDULED_AT_MAX_MS}, e.g. ${opts.example}; ` +
    'empty in a query, or null in JSON, for none';
  const range = wholeNumberIn(SCHEDULED_AT_MIN_MS, SCHEDULED_AT_MAX_MS, hint, 'must be a whole number or null');
  const digits = z
    .string({ error: problem(`must be a whole number or empty: ${hint}`) })
    .check(z.regex(/^(\d{1,15})?$/, { error: (iss) => `must be a whole number written in decimal, or empty: ${hint}; ${describeInput(iss.input)}` }));
  const query = z.pipe(z.pipe(digits, z.transform((text: string) => (text === '' ? null : Number(text)))), z.nullable(range));
  return {
    query,
    json: z.nullable(range),
    queryDoc: z.union([range, z.literal('')]),
    description: opts.description,
    example: String(opts.example),
    jsonExample: opts.example,
    badExample: opts.badExample,
  };
}

/** The characters of IANA zone names (`America/Argentina/Buenos_Aires`, `Etc/GMT+5`). */
const ZONE_NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;

/**
 * An IANA time-zone name. Its shape is checked here; whether the box's time-zone
 * database knows it is the room's check (domain/time-zone.ts), which answers 400
 * naming the zone: no document can list a database that differs from box to box.
 */
function timeZoneFieldNow(): FieldDef<string> {
  const schema = z
    .string({ error: problem('must be an IANA time zone name such as Europe/Berlin') })
    .check(
      z.regex(ZONE_NAME, { error: (iss) => `must be an IANA time zone name such as Europe/Berlin (letters, digits, _ + - /, at most 64); ${describeInput(iss.input)}` }),
      z.meta({ pattern: ZONE_NAME.source, maxLength: 64 }),
    );
  return {
    query: schema,
    json: schema,
    queryDoc: schema,
    description:
      'Addition to v1: the room\'s IANA time zone (e.g. Europe/Berlin, America/New_York, UTC; case does not matter); every time of day on the screens is shown in it. ' +
      'Default: the box\'s own zone. A name the box\'s time-zone database does not know is 400 naming it.',
    example: 'Europe/Berlin',
    jsonExample: 'Europe/Berlin',
    badExample: 'Mars/Olympus Mons',
  };
}

// Control characters as the room refuses them (domain/text-rules.ts): C0 and C1
// except tab, line feed and carriage return. Written out as ranges rather than
// \p{Cc}, which fewer regex dialects know (only the message text's "something
// shows" needs a property class: \p{Cf}, format characters).
const CONTROLS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';

/**
 * The room's text rules (domain/text-rules.ts) as one regular expression, for the
 * document: a client that checks a value against it is refused by the service
 * exactly when the rules refuse it (test/http/text-patterns.test.ts checks every
 * BMP character). ECMA-262 with the `u` flag, as JSON Schema counts characters:
 * code points, so an emoji is one.
 * - `trimmed: false` (label, speaker): no control character; the length goes in `maxLength`.
 * - `trimmed: true` (message text): after trimming, 1 to `max` characters, no control
 *   character, and at least one that shows (not whitespace, not a format character such as U+200B).
 */
export function textPattern(opts: { max: number; trimmed: boolean }): RegExp {
  if (!opts.trimmed) return new RegExp(`^[^${CONTROLS}]*$`, 'u');
  const edge = `[^\\s${CONTROLS}]`;
  return new RegExp(`^(?=[\\s\\S]*[^\\s\\p{Cf}])\\s*${edge}(?:[^${CONTROLS}]{0,${opts.max - 2}}${edge})?\\s*$`, 'u');
}

/**
 * Text as the room accepts it (domain/text-rules.ts, the one place of those rules):
 * lengths in characters as a person counts them, no control characters, and for a
 * message something that shows. Checked here too, so that a bad value is a 400 naming
 * its field before anything else, and the document carries the same rules as a pattern.
 */
function textFieldNow(opts: {
  name: string;
  max: number;
  trim: boolean;
  description: string;
  example: string;
  badExample: string;
}): FieldDef<string> {
  const pattern = textPattern({ max: opts.max, trimmed: opts.trim });
  const prefix = `${opts.name}: `;
  const schema = z.string({ error: problem('must be text') }).check(
    z.superRefine((text: string, ctx) => {
      const checked = opts.trim ? text.trim() : text;
      // The console and button panels show this one as it always was.
      if (opts.trim && checked.length === 0) return ctx.addIssue({ code: 'custom', message: 'is empty; give some text', input: text });
      const found = textProblem(opts.name, checked, { maxChars: opts.max, mustShow: opts.trim });
      // The field name comes from the issue's path, as for every other field.
      if (found !== null) return ctx.addIssue({ code: 'custom', message: found.startsWith(prefix) ? found.slice(prefix.length) : found, input: text });
      // Never reached while the pattern and the rules agree (the tests hold them together);
      // should they drift, the service still accepts nothing the document refuses.
      if (!pattern.test(text)) ctx.addIssue({ code: 'custom', message: `does not fit the pattern given in the OpenAPI document`, input: text });
    }),
    z.meta({ pattern: pattern.source, ...(opts.trim ? { minLength: 1 } : { maxLength: opts.max }) }),
  );
  return {
    query: schema,
    json: schema,
    queryDoc: schema,
    description: opts.description,
    example: opts.example,
    jsonExample: opts.example,
    badExample: opts.badExample,
  };
}

/** Tag ids as the box makes them (and as a button panel can type them): letters, digits, `-` and `_`. */
const TAG_ID = new RegExp(`^[A-Za-z0-9_-]{0,${TAG_ID_MAX_CHARS}}$`);

/**
 * A tag's id, or none: empty (a query, or JSON) or null (JSON) clears a timer's tag.
 * Whether the room has the tag is the room's check (400 naming `tagId`).
 */
function tagIdFieldNow(): FieldDef<string | null> {
  const hint = `the id of one of the room's tags (state.tags lists them): letters, digits, - and _, at most ${TAG_ID_MAX_CHARS}; empty for none`;
  const id = z
    .string({ error: problem(`must be ${hint}`) })
    .check(z.regex(TAG_ID, { error: (iss) => `must be ${hint}; ${describeInput(iss.input)}` }), z.meta({ pattern: TAG_ID.source, maxLength: TAG_ID_MAX_CHARS }));
  const query = z.pipe(
    id,
    z.transform((text: string) => (text === '' ? null : text)),
  );
  return {
    query,
    json: z.pipe(
      z.union([id, z.null()], { error: problem(`must be a string or null: ${hint}`) }),
      z.transform((value: string | null) => (value === '' ? null : value)),
    ),
    queryDoc: id,
    description:
      'Addition to v1: the id of one of the room\'s tags (`tags` in the state); on a timer, empty (or null in JSON) clears its tag. ' +
      'An id the room does not have is 400 naming `tagId`.',
    example: 'k3x9',
    jsonExample: 'k3x9',
    badExample: 'no tag!',
  };
}

/** Question ids as the box makes them: letters, digits, `-` and `_`. */
const QUESTION_ID = new RegExp(`^[A-Za-z0-9_-]{1,${QUESTION_ID_MAX_CHARS}}$`);

/** An audience question's id; whether the room has it is the room's check (400 naming `questionId`). */
function questionIdFieldNow(): FieldDef<string> {
  const hint = `the id of one of the room's questions (GET /questions lists them): letters, digits, - and _, 1 to ${QUESTION_ID_MAX_CHARS}`;
  const schema = z
    .string({ error: problem(`must be ${hint}`) })
    .check(
      z.regex(QUESTION_ID, { error: (iss) => `must be ${hint}; ${describeInput(iss.input)}` }),
      z.meta({ pattern: QUESTION_ID.source, maxLength: QUESTION_ID_MAX_CHARS }),
    );
  return {
    query: schema,
    json: schema,
    queryDoc: schema,
    description: 'Addition to v1: the id of one of the room\'s audience questions (`questions` in the state, or GET /questions). An id the room does not have is 400 naming `questionId`.',
    example: 'q7f3a9c2e',
    jsonExample: 'q7f3a9c2e',
    badExample: 'no such id!',
  };
}

/** `#rrggbb` (the `#` may be left out, which a query can send without encoding it as %23). */
const COLOUR = /^#?[0-9a-fA-F]{6}$/;

function colourFieldNow(description: string, example: string): FieldDef<string> {
  const schema = z
    .string({ error: problem('must be a colour written #rrggbb, e.g. #ff9f0a') })
    .check(
      z.regex(COLOUR, { error: (iss) => `must be a colour written #rrggbb (six hex digits), e.g. #ff9f0a; ${describeInput(iss.input)}` }),
      z.meta({ pattern: COLOUR.source }),
    );
  return {
    query: schema,
    json: schema,
    queryDoc: schema,
    description: `${description} Written \`#rrggbb\` (in a query \`%23ff9f0a\` or \`ff9f0a\`); kept in lower case with its \`#\`.`,
    example,
    jsonExample: example,
    badExample: 'orange',
  };
}

function enumFieldNow<const T extends readonly [string, ...string[]]>(values: T, description: string, badExample: string): FieldDef<T[number]> {
  const schema = z.enum(values, {
    error: problem(`must be one of ${values.join(', ')}`),
  });
  return { query: schema, json: schema, queryDoc: schema, description, example: values[0], jsonExample: values[0], badExample };
}

/** `0`/`1` in a query, a boolean in JSON (decisions.md, "Inputs and bounds"). */
function flagFieldNow(description: string): FieldDef<boolean> {
  const query = z.pipe(
    z.enum(['0', '1'], { error: problem('must be 0 or 1') }),
    z.transform((flag: '0' | '1') => flag === '1'),
  );
  const json = z.boolean({ error: problem('must be true or false') });
  return { query, json, queryDoc: query, description, example: '1', jsonExample: true, badExample: 'yes' };
}

/**
 * A field whose definition (its zod schemas above all) is made when something first
 * reads it: a request with that field, or the OpenAPI document. zod schemas are
 * heavy, about 400 KB of heap for the whole table (BENCHMARKS.md), which a box
 * that idles, or that is only ever sent a few of the commands, need not hold.
 */
function lazyField<T>(build: () => FieldDef<T>): FieldDef<T> {
  let def: FieldDef<T> | undefined;
  const made = (): FieldDef<T> => (def ??= build());
  return {
    get query() {
      return made().query;
    },
    get json() {
      return made().json;
    },
    get queryDoc() {
      return made().queryDoc;
    },
    get description() {
      return made().description;
    },
    get example() {
      return made().example;
    },
    get jsonExample() {
      return made().jsonExample;
    },
    get badExample() {
      return made().badExample;
    },
  };
}

/** The builder, made lazy (lazyField); its signature, generics included, is the builder's own. */
function lazily<B extends (...args: never[]) => FieldDef<unknown>>(builder: B): B {
  return ((...args: Parameters<B>) => lazyField(() => builder(...args))) as unknown as B;
}

const integerField = lazily(integerFieldNow);
const instantField = lazily(instantFieldNow);
const timeZoneField = lazily(timeZoneFieldNow);
const textField = lazily(textFieldNow);
const tagIdField = lazily(tagIdFieldNow);
const questionIdField = lazily(questionIdFieldNow);
const colourField = lazily(colourFieldNow);
const enumField = lazily(enumFieldNow);
const flagField = lazily(flagFieldNow);

/** `on`: `0` is off, any other value (even empty) is on (remote-control-api.md §3). */
const onField: FieldDef<boolean> = lazyField(() => {
  const onQuery = z.pipe(
    z.string(),
    z.transform((text: string) => text !== '0'),
  );
  return {
    query: onQuery,
    json: z.pipe(
      z.string({ error: problem('must be a string: "0" for off, anything else for on') }),
      z.transform((text: string) => text !== '0'),
    ),
    queryDoc: onQuery,
    description: '`0` switches off; any other value switches on. Missing means on.',
    example: '1',
    jsonExample: '1',
  };
});

export const fields = {
  ms: integerField({
    min: -ADJUST_MAX_MS,
    max: ADJUST_MAX_MS,
    signed: true,
    hint: `milliseconds to add (positive) or remove (negative), at most ${ADJUST_MAX_MS} (1 hour) either way, e.g. 30000 or -30000`,
    description:
      `Milliseconds to add (positive) or remove (negative); a whole number, at most ${ADJUST_MAX_MS} in either direction. ` +
      'In a query a leading `+` is also accepted (unencoded, it arrives as a space, which is read as `+`).',
    example: 60_000,
    badExample: 'soon',
  }),
  text: textField({
    name: 'text',
    max: MESSAGE_MAX_CHARS,
    trim: true,
    description:
      `Message text. Trimmed, then 1 to ${MESSAGE_MAX_CHARS} characters (code points: an emoji is one), no control characters ` +
      '(tab, line feed and carriage return are allowed), and at least one character that shows (not only spaces or format characters such as U+200B).',
    example: 'Wrap up please',
    badExample: ' ',
  }),
  flash: flagField('Blinking message: `1` in a query, `true` in JSON.'),
  color: enumField(MESSAGE_COLORS, 'Message colour; default white.', 'purple'),
  bold: flagField('Bold message: `1` in a query, `true` in JSON.'),
  on: onField,
  label: textField({
    name: 'label',
    max: LABEL_MAX_CHARS,
    trim: false,
    description: `Title of the timer: at most ${LABEL_MAX_CHARS} characters (code points: an emoji is one), no control characters (tab, line feed and carriage return are allowed).`,
    example: 'Keynote',
    badExample: 'Keynote\u0007',
  }),
  speaker: textField({
    name: 'speaker',
    max: SPEAKER_MAX_CHARS,
    trim: false,
    description: `Name of the speaker: at most ${SPEAKER_MAX_CHARS} characters (code points: an emoji is one), no control characters (tab, line feed and carriage return are allowed).`,
    example: 'Ada Lovelace',
    badExample: 'Ada\u0000',
  }),
  duration: integerField({
    min: DURATION_MIN_MS,
    max: DURATION_MAX_MS,
    signed: false,
    hint: `planned length in milliseconds from ${DURATION_MIN_MS} (1 second) to ${DURATION_MAX_MS} (24 hours), e.g. 600000 for 10 minutes`,
    description: `Planned length in milliseconds, ${DURATION_MIN_MS} to ${DURATION_MAX_MS}.`,
    example: 600_000,
    badExample: '999',
  }),
  warnAt: integerField({
    min: WARN_AT_MIN_MS,
    max: WARN_AT_MAX_MS,
    signed: false,
    hint: `orange-alert threshold in milliseconds from ${WARN_AT_MIN_MS} to ${WARN_AT_MAX_MS}, e.g. 60000`,
    description: `Orange-alert threshold in milliseconds, ${WARN_AT_MIN_MS} to ${WARN_AT_MAX_MS}.`,
    example: 60_000,
    badExample: '-1',
  }),
  scheduledAt: instantField({
    description:
      'Addition to v1: the wall-clock instant (ms since the epoch) at which this timer becomes active and starts by itself, ' +
      'as a select then start at that instant would; empty in a query, or null in JSON, for none. ' +
      'It fires once; setting it again arms it again. An instant already past when it is set never fires.',
    example: 1_767_261_600_000,
    badExample: '-5',
  }),
  endsAt: instantField({
    description:
      'Addition to v1: count to this wall-clock instant (ms since the epoch) instead of running for `duration`, which stays the planned length ' +
      '(the progress bar); empty in a query, or null in JSON, to count the duration again. While it runs, remaining = endsAt - now by the box\'s wall clock; ' +
      'start always counts to it (a pause only holds what the screens show); select, next and reset show the time left to it; adjust is refused (400): change endsAt.',
    example: 1_767_265_200_000,
    badExample: '1.5',
  }),
  plannedStart: instantField({
    description:
      'Addition to v1: when the show is planned to begin, a wall-clock instant (ms since epoch); empty in a query, or null in JSON, for none. ' +
      'The first timer is planned to start then, each next one when the one before is planned to end (or at its own `scheduledAt`); ' +
      'the schedule in the state (`schedule`) is derived from it. Without one, the show is planned from its first actual start.',
    example: 1_767_258_000_000,
    badExample: 'tonight',
  }),
  dangerAt: integerField({
    min: WARN_AT_MIN_MS,
    max: WARN_AT_MAX_MS,
    signed: false,
    hint: `red threshold in milliseconds from ${WARN_AT_MIN_MS} (none) to ${WARN_AT_MAX_MS}, e.g. 30000`,
    description: `Addition to v1: red threshold in milliseconds beside warnAt, ${WARN_AT_MIN_MS} (none, the default) to ${WARN_AT_MAX_MS}.`,
    example: 30_000,
    badExample: '-1',
  }),
  appearance: enumField(APPEARANCES, 'What the display shows: remaining time, elapsed time, or the time of day.', 'bars'),
  zeroBehavior: enumField(ZERO_BEHAVIORS, 'What happens at zero: keep counting into overrun, stop at 0, or hide the time.', 'explode'),
  autoAdvance: flagField('Start the next timer automatically at zero: `0`/`1` in a query, boolean in JSON.'),
  timeZone: timeZoneField(),
  clockFormat: enumField(CLOCK_FORMATS, 'Addition to v1: times of day on every screen in 24-hour (`24h`, 19:30:00) or 12-hour (`12h`, 7:30:00 PM) form.', '25h'),
  chimeAtZero: flagField('Addition to v1: the displays chime when the digits reach zero: `0`/`1` in a query, boolean in JSON.'),
  chimeAtWarning: flagField('Addition to v1: the displays chime at the warning threshold (warnAt): `0`/`1` in a query, boolean in JSON.'),
  chimeVolume: integerField({
    min: 0,
    max: CHIME_VOLUME_MAX,
    signed: false,
    hint: `chime volume in percent from 0 to ${CHIME_VOLUME_MAX}, e.g. 70`,
    description: `Addition to v1: chime volume in percent, 0 to ${CHIME_VOLUME_MAX}.`,
    example: 70,
    badExample: '101',
  }),
  count: integerField({
    min: FLASH_COUNT_MIN,
    max: FLASH_COUNT_MAX,
    signed: false,
    hint: `how many times the screens flash, ${FLASH_COUNT_MIN} to ${FLASH_COUNT_MAX} (default ${FLASH_COUNT_DEFAULT})`,
    description: `How many times every screen flashes (inverts), ${FLASH_COUNT_MIN} to ${FLASH_COUNT_MAX}; default ${FLASH_COUNT_DEFAULT}.`,
    example: 3,
    badExample: '11',
  }),
  tagId: tagIdField(),
  name: textField({
    name: 'name',
    max: TAG_NAME_MAX_CHARS,
    trim: true,
    description: `Addition to v1: a tag's name, trimmed, 1 to ${TAG_NAME_MAX_CHARS} characters that show, no control characters.`,
    example: 'Main stage',
    badExample: ' ',
  }),
  colour: colourField(`Addition to v1: a tag's colour; default ${TAG_COLOUR_DEFAULT}.`, '#ff9f0a'),
  layout: enumField(
    DISPLAY_LAYOUTS,
    'Addition to v1: the screens\' layout: `full` (title, time, bar, message; the default), `minimal` (the time alone) or `lowerThird` (a band along the bottom, for a confidence monitor or a video overlay).',
    'sideways',
  ),
  background: colourField('Addition to v1: the screens\' background: black (#000000, the default) or a solid colour for chroma keying (#00b140).', '#00b140'),
  normalColour: colourField('Addition to v1: the colour of the time before warnAt (default #ffffff).', '#ffffff'),
  warningColour: colourField('Addition to v1: the colour of the time from warnAt on (default #ff9f0a).', '#ffcc00'),
  overrunColour: colourField('Addition to v1: the colour of the time from dangerAt on and in overrun (default #ff3b30).', '#ff2d55'),
  timeSize: integerField({
    min: TIME_SIZE_MIN,
    max: TIME_SIZE_MAX,
    signed: false,
    hint: `the time's size in percent of the layout's own, ${TIME_SIZE_MIN} to ${TIME_SIZE_MAX}, e.g. 120`,
    description: `Addition to v1: the time's size in percent of the layout's own size, ${TIME_SIZE_MIN} to ${TIME_SIZE_MAX} (default 100); it still never covers the message.`,
    example: 120,
    badExample: '300',
  }),
  showTitle: flagField('Addition to v1: the screens show the timer\'s title (default on): `0`/`1` in a query, boolean in JSON.'),
  showSpeaker: flagField('Addition to v1: the screens show the speaker (default on).'),
  showProgress: flagField('Addition to v1: the screens show the progress bar (default on).'),
  showTimeOfDay: flagField('Addition to v1: the screens show the time of day in the room\'s zone and format (default off).'),
  showNext: flagField('Addition to v1: the screens show the next timer of the running order (default off).'),
  showTag: flagField('Addition to v1: the screens show the active timer\'s tag (default on).'),
  showMessage: flagField('Addition to v1: the screens show the message (default on).'),
  showLogo: flagField('Addition to v1: the screens show the uploaded logo in the top-left corner (default on; nothing shows until POST /display/logo uploads one).'),
  questionId: questionIdField(),
  withName: flagField('Addition to v1: show the name the person gave with the question (default: without it): `0`/`1` in a query, boolean in JSON.'),
  showQuestion: flagField('Addition to v1: the screens show the audience question the moderator puts on them, in its own area (default on).'),
  showAskLink: flagField(
    'Addition to v1: the screens show the audience link (where people send questions) as a QR code with its address, for a lobby screen or a slide (default off). ' +
      'The viewer link then carries the audience link too.',
  ),
  showOverUnder: flagField('Addition to v1: the screens show how far ahead or behind the show is (the schedule\'s offset), in its own small area (default off).'),
  showShowEnd: flagField('Addition to v1: the screens show when the show is projected to end, as a time of day (default off).'),
  showAux: flagField('Addition to v1: the screens show the second timer (aux) in its own small area (default off).'),
  to: integerField({
    min: 0,
    max: 9999,
    signed: false,
    hint: 'the new 0-based position in the running order, e.g. 0 for the top',
    description: 'New 0-based position in the running order (0 is the top; at most the position of the last timer).',
    example: 0,
    badExample: 'top',
  }),
} as const;

/**
 * The aux timer's `appearance` (the /aux operation's own, operations.ts): a countdown
 * or a count-up; the time of day a timer can show is not one of its faces.
 */
export const auxAppearanceField: FieldDef<AuxAppearance> = enumField(
  AUX_APPEARANCES,
  'Addition to v1: what the aux timer shows: `countdown` (the time left, on into overrun) or `countup` (the time since its start).',
  'clock',
);

export type FieldName = keyof typeof fields;
export type FieldValue<N extends FieldName> = z.output<(typeof fields)[N]['json']>;
