// Option fields shared by actions and feedbacks, and the parsers that turn what
// an operator typed (after Companion's variables are filled in) into values.
// Durations are written as in the console's running order (duration-text.ts).
import type { CompanionInputFieldDropdown, CompanionInputFieldTextInput } from '@companion-module/base';
import { DURATION_HINT, parseDurationText } from '../domain/duration-text.js';
import type { TimerRef } from './requests.js';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(error: string): Parsed<T> => ({ ok: false, error });

export const TIMER_REF_OPTIONS: [CompanionInputFieldDropdown, CompanionInputFieldTextInput] = [
  {
    type: 'dropdown',
    id: 'by',
    label: 'Timer by',
    default: 'position',
    choices: [
      { id: 'position', label: 'Position in the running order (1 = first)' },
      { id: 'id', label: 'Timer id' },
    ],
  },
  { type: 'textinput', id: 'timer', label: 'Position or id', default: '1', useVariables: true },
];

/** A 1-based place in the running order. */
export function parsePosition(text: string): Parsed<number> {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed) || Number(trimmed) < 1) return bad(`position "${trimmed}" is not a whole number from 1 on`);
  return ok(Number(trimmed));
}

/** A timer named by a 1-based position, or by id; `by` is the dropdown's value. */
export function parseTimerRef(by: string, text: string): Parsed<TimerRef> {
  const trimmed = text.trim();
  if (by === 'id') return trimmed === '' ? bad('no timer id given') : ok({ by: 'id', id: trimmed });
  const position = parsePosition(trimmed);
  return position.ok ? ok({ by: 'position', position: position.value }) : position;
}

/** Signed whole milliseconds, as the API takes them: `60000`, `-30000`, `+5000`. */
export function parseSignedMs(text: string): Parsed<number> {
  const trimmed = text.trim();
  if (!/^[+-]?\d{1,9}$/.test(trimmed)) return bad(`"${trimmed}" is not a whole number of milliseconds (e.g. 60000 or -30000)`);
  return ok(Number(trimmed));
}

/** Minutes and seconds with a sign, as a button says it: "+1:00", "-0:10". */
export function adjustMs(sign: string, minutes: number, seconds: number): Parsed<number> {
  if (!Number.isFinite(minutes) || !Number.isFinite(seconds) || minutes < 0 || seconds < 0) return bad('minutes and seconds must be 0 or more');
  const ms = Math.round((minutes * 60 + seconds) * 1000);
  if (ms === 0) return bad('adjust by 0: set minutes or seconds');
  return ok(sign === '-' ? -ms : ms);
}

/** A duration field of a timer: empty means "not given". */
export function parseOptionalDuration(text: string, field: string): Parsed<number | undefined> {
  if (text.trim() === '') return ok(undefined);
  const ms = parseDurationText(text);
  return ms === null ? bad(`${field} "${text.trim()}" is not a duration: ${DURATION_HINT}`) : ok(ms);
}
