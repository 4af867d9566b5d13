// Every input field of the API, defined once with its two spellings: the query
// form (strings, for plain GETs from button panels) and the JSON form (for POST
// bodies). The same schemas validate requests and produce the OpenAPI document.
import { z } from 'zod';
import {
  ADJUST_MAX_MS,
  DURATION_MAX_MS,
  DURATION_MIN_MS,
  LABEL_MAX_CHARS,
  MESSAGE_MAX_CHARS,
  SPEAKER_MAX_CHARS,
  WARN_AT_MAX_MS,
  WARN_AT_MIN_MS,
} from '../domain/limits.js';
import { APPEARANCES, MESSAGE_COLORS, ZERO_BEHAVIORS } from '../domain/types.js';

export interface FieldDef<T> {
  readonly query: z.ZodType<T, string>;
  readonly json: z.ZodType<T>;
  readonly description: string;
  readonly example: string;
}

function describeInput(input: unknown): string {
  return `got ${JSON.stringify(input)}`;
}

/** zod's message for a bad value, or "is required" when a required field is missing. */
function problem(expected: string): (iss: { input?: unknown }) => string {
  return (iss) => (iss.input === undefined ? `is required: ${expected}` : `${expected}; ${describeInput(iss.input)}`);
}

/** A whole number written in decimal; `signed` allows a leading + or -. */
function integerField(opts: {
  min: number;
  max: number;
  signed: boolean;
  hint: string;
  description: string;
  example: string;
}): FieldDef<number> {
  // A literal `+` in a query string arrives as a space (form encoding), so the
  // `?ms=+60000` a person types reads " 60000": a leading space stands for the plus.
  const pattern = opts.signed ? /^[+\- ]?\d{1,15}$/ : /^\d{1,15}$/;
  const range = z
    .number({ error: problem(`must be a whole number: ${opts.hint}`) })
    .int({ error: (iss) => `must be a whole number, not a fraction: ${opts.hint}; ${describeInput(iss.input)}` })
    .min(opts.min, { error: (iss) => `${String(iss.input)} is too small: ${opts.hint}` })
    .max(opts.max, { error: (iss) => `${String(iss.input)} is too large: ${opts.hint}` });
  const query = z
    .string({ error: problem(`must be a whole number: ${opts.hint}`) })
    .regex(pattern, { error: (iss) => `must be a whole number written in decimal: ${opts.hint}; ${describeInput(iss.input)}` })
    .transform((text) => Number(text))
    .pipe(range);
  return { query, json: range, description: opts.description, example: opts.example };
}

function textField(opts: { max: number; trim: boolean; description: string; example: string }): FieldDef<string> {
  const base = (schema: z.ZodString) =>
    schema
      .refine((text) => !opts.trim || text.trim().length > 0, { error: 'is empty; give some text' })
      .refine((text) => (opts.trim ? text.trim() : text).length <= opts.max, {
        error: `is too long: at most ${opts.max} characters`,
      });
  const schema = base(z.string({ error: problem('must be text') }));
  return { query: schema, json: schema, description: opts.description, example: opts.example };
}

function enumField<const T extends readonly [string, ...string[]]>(values: T, description: string): FieldDef<T[number]> {
  const schema = z.enum(values, {
    error: problem(`must be one of ${values.join(', ')}`),
  });
  return { query: schema, json: schema, description, example: values[0] };
}

/** `0`/`1` in a query, a boolean in JSON (decisions.md, "Inputs and bounds"). */
function flagField(description: string): FieldDef<boolean> {
  const query = z
    .enum(['0', '1'], { error: problem('must be 0 or 1') })
    .transform((flag) => flag === '1');
  const json = z.boolean({ error: problem('must be true or false') });
  return { query, json, description, example: '1' };
}

/** `on`: `0` is off, any other value (even empty) is on (remote-control-api.md §3). */
const onField: FieldDef<boolean> = {
  query: z.string().transform((text) => text !== '0'),
  json: z
    .string({ error: problem('must be a string: "0" for off, anything else for on') })
    .transform((text) => text !== '0'),
  description: '`0` switches off; any other value switches on. Missing means on.',
  example: '1',
};

export const fields = {
  ms: integerField({
    min: -ADJUST_MAX_MS,
    max: ADJUST_MAX_MS,
    signed: true,
    hint: `milliseconds to add (positive) or remove (negative), at most ${ADJUST_MAX_MS} (1 hour) either way, e.g. 30000 or -30000`,
    description: `Milliseconds to add (positive) or remove (negative); a whole number, at most ${ADJUST_MAX_MS} in either direction.`,
    example: '60000',
  }),
  text: textField({
    max: MESSAGE_MAX_CHARS,
    trim: true,
    description: `Message text, not empty, at most ${MESSAGE_MAX_CHARS} characters after trimming.`,
    example: 'Wrap up please',
  }),
  flash: flagField('Blinking message: `1` in a query, `true` in JSON.'),
  color: enumField(MESSAGE_COLORS, 'Message colour; default white.'),
  bold: flagField('Bold message: `1` in a query, `true` in JSON.'),
  on: onField,
  label: textField({ max: LABEL_MAX_CHARS, trim: false, description: `Title of the timer, at most ${LABEL_MAX_CHARS} characters.`, example: 'Keynote' }),
  speaker: textField({ max: SPEAKER_MAX_CHARS, trim: false, description: `Name of the speaker, at most ${SPEAKER_MAX_CHARS} characters.`, example: 'Ada Lovelace' }),
  duration: integerField({
    min: DURATION_MIN_MS,
    max: DURATION_MAX_MS,
    signed: false,
    hint: `planned length in milliseconds from ${DURATION_MIN_MS} (1 second) to ${DURATION_MAX_MS} (24 hours), e.g. 600000 for 10 minutes`,
    description: `Planned length in milliseconds, ${DURATION_MIN_MS} to ${DURATION_MAX_MS}.`,
    example: '600000',
  }),
  warnAt: integerField({
    min: WARN_AT_MIN_MS,
    max: WARN_AT_MAX_MS,
    signed: false,
    hint: `orange-alert threshold in milliseconds from ${WARN_AT_MIN_MS} to ${WARN_AT_MAX_MS}, e.g. 60000`,
    description: `Orange-alert threshold in milliseconds, ${WARN_AT_MIN_MS} to ${WARN_AT_MAX_MS}.`,
    example: '60000',
  }),
  appearance: enumField(APPEARANCES, 'What the display shows: remaining time, elapsed time, or the time of day.'),
  zeroBehavior: enumField(ZERO_BEHAVIORS, 'What happens at zero: keep counting into overrun, stop at 0, or hide the time.'),
  autoAdvance: flagField('Start the next timer automatically at zero: `0`/`1` in a query, boolean in JSON.'),
  to: integerField({
    min: 0,
    max: 9999,
    signed: false,
    hint: 'the new 0-based position in the running order, e.g. 0 for the top',
    description: 'New 0-based position in the running order.',
    example: '0',
  }),
} as const;

export type FieldName = keyof typeof fields;
export type FieldValue<N extends FieldName> = z.output<(typeof fields)[N]['json']>;
