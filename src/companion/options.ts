// Option fields shared by actions and feedbacks, and the parsers that turn what
// an operator typed (after Companion's variables are filled in) into values.
// Durations and times of day are written as in the console's running order
// (duration-text.ts, time-of-day-text.ts). The dropdowns that name a timer or a
// tag are made from the room's lists, so they are rebuilt when those change.
import type { CompanionInputFieldDropdown, CompanionInputFieldTextInput, DropdownChoice } from '@companion-module/base';
import { parseInstantText } from '../client/time-of-day-text.js';
import { DURATION_HINT, parseDurationText } from '../domain/duration-text.js';
import { FLASH_COUNT_DEFAULT, FLASH_COUNT_MAX, FLASH_COUNT_MIN } from '../domain/limits.js';
import type { Tag, Timer } from '../domain/types.js';
import type { InstantInput, TimerRef } from './requests.js';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(error: string): Parsed<T> => ({ ok: false, error });

/** What the dropdowns offer: the running order and the room's tags, as the last snapshot has them (empty before one). */
export interface ChoiceLists {
  readonly timers: readonly Timer[];
  readonly tags: readonly Tag[];
}

export const NO_LISTS: ChoiceLists = { timers: [], tags: [] };

/** The running order as the dropdown shows it: "3. Keynote", the value the timer's id (which a rename or a move keeps). */
export function timerChoices(timers: readonly Timer[]): DropdownChoice[] {
  return timers.map((t, i) => ({ id: t.id, label: `${i + 1}. ${t.label === '' ? '(no label)' : t.label}` }));
}

/**
 * Which timer: chosen in the running order's dropdown (`by` = `list`), or typed
 * as a position or an id (variables allowed, for scripts). `by` and `timer` are
 * what buttons saved before the dropdown existed hold, so they read as before.
 */
export function timerRefOptions(timers: readonly Timer[]): [CompanionInputFieldDropdown, CompanionInputFieldDropdown, CompanionInputFieldTextInput] {
  return [
    {
      type: 'dropdown',
      id: 'by',
      label: 'Timer by',
      default: 'list',
      choices: [
        { id: 'list', label: 'Chosen in the running order' },
        { id: 'position', label: 'Position in the running order (1 = first)' },
        { id: 'id', label: 'Timer id' },
      ],
    },
    {
      type: 'dropdown',
      id: 'timerId',
      label: 'Timer',
      tooltip: 'The running order as the box has it now; a rename or a move keeps the choice, a deleted timer is refused with a message in the log',
      default: timers[0]?.id ?? '',
      choices: timerChoices(timers),
      isVisibleExpression: `$(options:by) == 'list'`,
    },
    { type: 'textinput', id: 'timer', label: 'Position or id', default: '1', useVariables: true, isVisibleExpression: `$(options:by) != 'list'` },
  ];
}

/** A 1-based place in the running order. */
export function parsePosition(text: string): Parsed<number> {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed) || Number(trimmed) < 1) return bad(`position "${trimmed}" is not a whole number from 1 on`);
  return ok(Number(trimmed));
}

/** A timer named by a 1-based position, or by id, or chosen in the list (`chosen`, the dropdown's id); `by` is the first dropdown's value. */
export function parseTimerRef(by: string, text: string, chosen = ''): Parsed<TimerRef> {
  if (by === 'list') return chosen === '' ? bad('no timer chosen in the list: choose one in the action\'s options') : ok({ by: 'listed', id: chosen });
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

/** Words that clear a field on update, where empty means "unchanged". */
const CLEAR_WORDS = ['none', 'clear'];
const isClear = (text: string): boolean => CLEAR_WORDS.includes(text.trim().toLowerCase());

/**
 * A red threshold (dangerAt) as a duration; `none` (or `clear`) and `0` mean
 * none, which is how the API clears it. Empty: not given.
 */
export function parseOptionalDanger(text: string): Parsed<number | undefined> {
  if (isClear(text)) return ok(0);
  return parseOptionalDuration(text, 'red from');
}

/**
 * A scheduled start or an end as typed: empty is "not given" (unchanged on
 * update, none on create), `none`/`clear` clears it (null), 10 or more digits
 * are milliseconds since the epoch (as the API and scripts write it), anything
 * else a time of day the console's running order reads ("19:30", "7:30 pm",
 * "2026-11-24 09:00"); its day and zone are worked out at the press, in the room's zone.
 */
export function parseOptionalInstant(text: string, field: string): Parsed<InstantInput | null | undefined> {
  const trimmed = text.trim();
  if (trimmed === '') return ok(undefined);
  if (isClear(trimmed)) return ok(null);
  if (/^\d{10,15}$/.test(trimmed)) return ok({ ms: Number(trimmed) });
  // Checked for form here (any zone and day do), so a typing mistake is told at once, not only when connected.
  const readable = parseInstantText(trimmed, 0, 'UTC');
  if (readable === undefined || readable === null) {
    return bad(`${field} "${trimmed}" is not a time of day: write 19:30, 7:30 pm or 2026-11-24 09:00 (the room's time zone), milliseconds since the epoch, or none to clear`);
  }
  return ok({ timeOfDay: trimmed });
}

/** How many times the screens flash, checked as the API checks `count` and told in its words. */
export function parseFlashCount(value: unknown): Parsed<number> {
  const count = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : NaN;
  const hint = `how many times the screens flash, ${FLASH_COUNT_MIN} to ${FLASH_COUNT_MAX} (default ${FLASH_COUNT_DEFAULT})`;
  if (!Number.isInteger(count)) return bad(`count must be a whole number: ${hint}; got ${JSON.stringify(value ?? '')}`);
  if (count < FLASH_COUNT_MIN) return bad(`${count} is too small: ${hint}`);
  if (count > FLASH_COUNT_MAX) return bad(`${count} is too large: ${hint}`);
  return ok(count);
}

/** Sentinels of the tag dropdown: a colon is never in a tag id (letters, digits, - and _), so neither can be a tag. */
export const TAG_UNCHANGED = ':unchanged';
export const TAG_NONE = ':none';

/** The tag dropdown: the room's tags by name, and "no tag" (on update also "unchanged", the default). */
export function tagOption(tags: readonly Tag[], forUpdate: boolean): CompanionInputFieldDropdown {
  return {
    type: 'dropdown',
    id: 'tagId',
    label: 'Tag',
    tooltip: "The room's tags as the box has them now; a tag deleted since is refused with a message in the log",
    default: forUpdate ? TAG_UNCHANGED : TAG_NONE,
    choices: [
      ...(forUpdate ? [{ id: TAG_UNCHANGED, label: 'Unchanged' }] : []),
      { id: TAG_NONE, label: forUpdate ? 'No tag (clear it)' : 'No tag' },
      ...tags.map((t) => ({ id: t.id, label: t.name })),
    ],
  };
}

/**
 * The tag dropdown's value: undefined leaves it out (unchanged, or the box's
 * default of none on create), null clears it, else the tag's id.
 */
export function tagValue(value: string): string | null | undefined {
  if (value === '' || value === TAG_UNCHANGED) return undefined;
  return value === TAG_NONE ? null : value;
}
