// The display settings of the room: checked and merged one change at a time (the
// fields given; the others kept). The HTTP layer checks shapes first; this is the
// room's own check, so every way in (HTTP, tests, later surfaces) keeps the same rules.
import { canonicalColour } from './tags.js';
import { DISPLAY_LAYOUTS, type DisplaySettings } from './types.js';

export const TIME_SIZE_MIN = 50;
export const TIME_SIZE_MAX = 150;

/** The switches for the screen's elements that every room file since version 3 holds. */
export const ELEMENT_SWITCHES = ['showTitle', 'showSpeaker', 'showProgress', 'showTimeOfDay', 'showNext', 'showTag', 'showMessage'] as const satisfies readonly (keyof DisplaySettings)[];

export const DISPLAY_FIELD_NAMES = [
  'layout',
  'background',
  'normalColour',
  'warningColour',
  'overrunColour',
  'timeSize',
  ...ELEMENT_SWITCHES,
  'showLogo',
  'showQuestion',
  'showAskLink',
  'showOverUnder',
  'showShowEnd',
  'showAux',
] as const satisfies readonly (keyof DisplaySettings)[];

const COLOUR_FIELDS = ['background', 'normalColour', 'warningColour', 'overrunColour'] as const;

/** A logo version: 16 hex digits of the content's hash, then the type's extension. */
export const LOGO_VERSION_PATTERN = /^[0-9a-f]{16}\.(png|jpg|svg|webp)$/;

export type DisplayMerged = { readonly ok: true; readonly display: DisplaySettings } | { readonly ok: false; readonly message: string };

export function mergeDisplay(current: DisplaySettings, change: Partial<DisplaySettings>): DisplayMerged {
  if (DISPLAY_FIELD_NAMES.every((name) => change[name] === undefined)) {
    return { ok: false, message: `display: give at least one of ${DISPLAY_FIELD_NAMES.join(', ')}` };
  }
  const colours: Partial<Record<(typeof COLOUR_FIELDS)[number], string>> = {};
  for (const name of COLOUR_FIELDS) {
    const given = change[name];
    if (given === undefined) continue;
    const shade = canonicalColour(given);
    if (shade === null) return { ok: false, message: `${name}: must be #rrggbb (six hex digits), e.g. #00b140; got ${JSON.stringify(given)}` };
    colours[name] = shade;
  }
  if (change.layout !== undefined && !DISPLAY_LAYOUTS.includes(change.layout)) {
    return { ok: false, message: `layout: must be one of ${DISPLAY_LAYOUTS.join(', ')}` };
  }
  const size = change.timeSize;
  if (size !== undefined && !(Number.isInteger(size) && size >= TIME_SIZE_MIN && size <= TIME_SIZE_MAX)) {
    return { ok: false, message: `timeSize: must be a whole number of percent from ${TIME_SIZE_MIN} to ${TIME_SIZE_MAX}` };
  }
  // Only the fields given: an undefined one must not overwrite what the room has.
  const given = Object.fromEntries(DISPLAY_FIELD_NAMES.filter((name) => change[name] !== undefined).map((name) => [name, change[name]])) as Partial<DisplaySettings>;
  return { ok: true, display: { ...current, ...given, ...colours } };
}
