// Response bodies of the API as zod schemas: the OpenAPI document's components
// are generated from these, and the tests check real responses against them.
import { z } from 'zod';
import { APPEARANCES, CLOCK_FORMATS, DISPLAY_LAYOUTS, MESSAGE_COLORS, ZERO_BEHAVIORS } from '../domain/types.js';

const int = () => z.number().int();

export const TimerSchema = z.object({
  id: z.string(),
  label: z.string(),
  speaker: z.string(),
  duration: int().describe('Planned length, ms'),
  warnAt: int().describe('Orange-alert threshold, ms'),
  dangerAt: int().describe('Addition to v1: red threshold, ms; 0 is none'),
  appearance: z.enum(APPEARANCES),
  tagId: z.string().nullable(),
  scheduledAt: int().nullable().describe('Scheduled start, ms since epoch'),
  endsAt: int().nullable().describe('Addition to v1: counts to this wall-clock instant, ms since epoch; null counts the duration'),
});

export const TagSchema = z.object({
  id: z.string(),
  name: z.string(),
  colour: z.string().describe('#rrggbb, lower case'),
});

export const MessageSchema = z.object({
  text: z.string(),
  flash: z.boolean(),
  color: z.enum(MESSAGE_COLORS),
  bold: z.boolean(),
});

export const SettingsSchema = z.object({
  zeroBehavior: z.enum(ZERO_BEHAVIORS),
  autoAdvance: z.boolean(),
  timeZone: z.string().describe('Addition to v1: IANA time zone of the room; every time of day on the screens is shown in it'),
  clockFormat: z.enum(CLOCK_FORMATS).describe('Addition to v1: times of day in 24-hour or 12-hour (AM/PM) form'),
  chimeAtZero: z.boolean().describe('Addition to v1: the displays chime when the digits reach zero'),
  chimeAtWarning: z.boolean().describe('Addition to v1: the displays chime at the warning threshold'),
  chimeVolume: int().describe('Addition to v1: chime volume, 0 to 100'),
});

export const DisplaySchema = z.object({
  layout: z.enum(DISPLAY_LAYOUTS).describe('full, minimal (the time alone) or lowerThird (a band along the bottom)'),
  background: z.string().describe('#rrggbb'),
  normalColour: z.string().describe('#rrggbb: the time before warnAt'),
  warningColour: z.string().describe('#rrggbb: the time from warnAt on'),
  overrunColour: z.string().describe('#rrggbb: the time from dangerAt on and in overrun'),
  timeSize: int().describe('Percent of the layout\'s own size of the time, 50 to 150'),
  showTitle: z.boolean(),
  showSpeaker: z.boolean(),
  showProgress: z.boolean(),
  showTimeOfDay: z.boolean(),
  showNext: z.boolean(),
  showTag: z.boolean(),
  showMessage: z.boolean(),
  showLogo: z.boolean(),
  logo: z.string().nullable().describe('The uploaded logo\'s version, or null: the screens show /logo/{version} (POST /display/logo sets it)'),
});

export const StateSchema = z.object({
  seq: int().describe('Starts at 1, rises by exactly 1 on every change of the room, never goes back'),
  serverNow: int().describe('Server clock when the snapshot was made, ms since epoch'),
  running: z.boolean(),
  endAt: int().nullable().describe('End instant while running, ms since epoch; null while paused'),
  remainingAtPause: int().nullable().describe('Remaining ms while paused; null while running'),
  remaining: int().describe('Remaining ms; negative means overrun'),
  zeroBehavior: z.enum(ZERO_BEHAVIORS),
  autoAdvance: z.boolean(),
  blackout: z.boolean(),
  onAir: z.boolean(),
  activeTimerId: z.string(),
  activeLabel: z.string(),
  activeSpeaker: z.string(),
  warnAt: int(),
  dangerAt: int().describe('Addition to v1: the active timer\'s red threshold, ms; 0 is none'),
  duration: int(),
  message: MessageSchema.nullable(),
  timers: z.array(TimerSchema),
  tags: z.array(TagSchema).describe('Addition to v1: the room\'s tags, which timers carry by `tagId`'),
  settings: SettingsSchema,
  display: DisplaySchema.describe('Addition to v1: how the screens look; set with /display'),
  flash: z
    .object({
      startAt: int().describe('Server instant of the first inversion, ms since epoch'),
      count: int().describe('Number of inversions'),
      periodMs: int().describe('One inversion and its pause; inverted for the first half'),
      endAt: int().describe('Server instant at which the flash is over, ms since epoch'),
    })
    .nullable()
    .describe('Addition to v1: a screen flash that has not ended yet (every screen inverts at these server instants); null otherwise'),
  chimeTestAt: int()
    .nullable()
    .describe('Addition to v1: a test chime (the `chime` command): the server instant every display plays it, shown for a second; null otherwise'),
});

export const StateEnvelopeSchema = z.object({ ok: z.literal(true), state: StateSchema });

export const TimersListSchema = z.object({
  ok: z.literal(true),
  activeTimerId: z.string(),
  timers: z.array(TimerSchema),
});

export const TimerCreatedSchema = z.object({ ok: z.literal(true), timer: TimerSchema });

export const ErrorSchema = z.object({
  ok: z.literal(false),
  error: z.string().describe('What went wrong, in words a person can act on'),
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
  TimersList: TimersListSchema,
  TimerCreated: TimerCreatedSchema,
  Error: ErrorSchema,
} as const;

export type ComponentName = keyof typeof components;
