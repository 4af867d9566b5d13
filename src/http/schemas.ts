// Response bodies of the API as zod schemas: the OpenAPI document's components
// are generated from these, and the tests check real responses against them.
import { z } from 'zod';
import { APPEARANCES, CLOCK_FORMATS, DISPLAY_LAYOUTS, MESSAGE_COLORS, QUESTION_STATES, ZERO_BEHAVIORS } from '../domain/types.js';
import { ELEMENT_SWITCHES } from '../domain/display-settings.js';
import { booleanFields } from '../schema/boolean-fields.js';

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
  ...booleanFields(ELEMENT_SWITCHES),
  showLogo: z.boolean(),
  showQuestion: z.boolean().describe('Addition to v1: the screens show the audience question the moderator put on them'),
  showAskLink: z.boolean().describe('Addition to v1: the screens show the audience link (/ask/{audience_key}) as a QR code and an address'),
  logo: z.string().nullable().describe('The uploaded logo\'s version, or null: the screens show /logo/{version} (POST /display/logo sets it)'),
});

export const QuestionSchema = z.object({
  id: z.string(),
  text: z.string().describe('As the audience typed it, control characters stripped and trimmed: 1 to 280 characters; show it as text, never as markup'),
  name: z.string().describe('The name the person gave, up to 60 characters; empty when none'),
  receivedAt: int().describe('When the box received it, ms since epoch'),
  state: z.enum(QUESTION_STATES).describe('new, approved, shown (on the screens; at most one), answered or hidden'),
  nameShown: z.boolean().describe('While shown: whether the screens show the name with it'),
});

export const ShownQuestionSchema = z.object({
  id: z.string(),
  text: z.string(),
  name: z.string().nullable().describe('Null unless the moderator chose to show the name (and one was given)'),
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
  shownQuestion: ShownQuestionSchema.nullable().describe('Addition to v1: the audience question on the screens, or null; the viewer link and the kiosk get this and no other question'),
  questions: z
    .array(QuestionSchema)
    .describe('Addition to v1: every audience question, oldest first (at most 500); only for the API key, never on the viewer link or the kiosk'),
});

export const StateEnvelopeSchema = z.object({ ok: z.literal(true), state: StateSchema });

export const TimersListSchema = z.object({
  ok: z.literal(true),
  activeTimerId: z.string(),
  timers: z.array(TimerSchema),
});

export const TimerCreatedSchema = z.object({ ok: z.literal(true), timer: TimerSchema });

export const QuestionsListSchema = z.object({ ok: z.literal(true), questions: z.array(QuestionSchema) });

export const QuestionReceivedSchema = z.object({
  ok: z.literal(true),
  id: z.string().describe('The question\'s id, as the moderator sees it'),
  receivedAt: int().describe('When the box received it, ms since epoch'),
});

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
  Question: QuestionSchema,
  ShownQuestion: ShownQuestionSchema,
  QuestionsList: QuestionsListSchema,
  QuestionReceived: QuestionReceivedSchema,
  Error: ErrorSchema,
} as const;

export type ComponentName = keyof typeof components;
