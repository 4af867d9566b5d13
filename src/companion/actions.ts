// The module's actions: every v1 command and operation, and the question steps
// that need no question id (a button cannot know one). Each callback reads its
// options (text fields with Companion variables filled in), builds a
// ModuleAction and hands it to the runner; a typing mistake is logged with what
// to write instead, and nothing is sent. The dropdowns naming a timer or a tag
// offer the room's lists (ChoiceLists): the instance rebuilds the definitions
// when the running order or the tags change.
import type {
  CompanionActionContext,
  CompanionActionDefinition,
  CompanionActionDefinitions,
  CompanionActionEvent,
  CompanionOptionValues,
  SomeCompanionActionInputField,
} from '@companion-module/base';
import {
  APPEARANCES,
  AUX_APPEARANCES,
  MESSAGE_COLORS,
  ZERO_BEHAVIORS,
  type Appearance,
  type AuxAppearance,
  type MessageColor,
  type Tag,
  type ZeroBehavior,
} from '../domain/types.js';
import { SCREEN_REQUESTS, type ScreenRequest } from '../domain/screen.js';
import { FLASH_COUNT_DEFAULT, FLASH_COUNT_MAX, FLASH_COUNT_MIN } from '../domain/limits.js';
import {
  adjustMs,
  NO_LISTS,
  parseFlashCount,
  parseOptionalDanger,
  parseOptionalDuration,
  parseOptionalInstant,
  parsePosition,
  parseSignedMs,
  parseTimerRef,
  tagOption,
  tagValue,
  timerRefOptions,
  type ChoiceLists,
  type Parsed,
} from './options.js';
import {
  AUX_COMMANDS,
  TRANSPORT_COMMANDS,
  type AuxChange,
  type AuxCommand,
  type MessageInput,
  type ModuleAction,
  type SwitchMode,
  type TimerChange,
  type TimerRef,
  type TransportCommand,
} from './requests.js';

/** Where actions go; the connection is one. */
export interface ActionRunner {
  run(action: ModuleAction): Promise<void>;
  /** An action that could not be built: logged, nothing sent. */
  reject(message: string): void;
}

type Build = (options: CompanionOptionValues, parse: (text: string) => Promise<string>) => Promise<Parsed<ModuleAction>>;

const text = (options: CompanionOptionValues, id: string): string => {
  const value = options[id];
  return value === undefined ? '' : String(value);
};
const flag = (options: CompanionOptionValues, id: string): boolean => options[id] === true;
const ok = (value: ModuleAction): Parsed<ModuleAction> => ({ ok: true, value });

function pick<T extends string>(values: readonly T[], value: string, fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

const SWITCH_MODES = ['toggle', 'on', 'off'] as const satisfies readonly SwitchMode[];
const TRANSPORT_NAMES: Record<TransportCommand, string> = {
  start: 'Start',
  pause: 'Pause',
  stop: 'Stop (same as pause)',
  toggle: 'Start/pause (toggle)',
  reset: 'Reset to the duration (paused)',
  next: 'Next timer',
  previous: 'Previous timer',
};

const AUX_NAMES: Record<AuxCommand, string> = {
  start: 'Aux timer: start',
  pause: 'Aux timer: pause',
  toggle: 'Aux timer: start/pause (toggle)',
  reset: 'Aux timer: reset to its duration (paused)',
};

const adjustOptions: SomeCompanionActionInputField[] = [
  {
    type: 'dropdown',
    id: 'sign',
    label: 'Add or take off',
    default: '+',
    choices: [
      { id: '+', label: '+ add time' },
      { id: '-', label: '- take time off' },
    ],
  },
  { type: 'number', id: 'minutes', label: 'Minutes', default: 1, min: 0, max: 60 },
  { type: 'number', id: 'seconds', label: 'Seconds', default: 0, min: 0, max: 59 },
];

const adjustMsOption: SomeCompanionActionInputField = {
  type: 'textinput',
  id: 'ms',
  label: 'Milliseconds (negative takes time off)',
  default: '60000',
  useVariables: true,
};

const auxSetOptions: SomeCompanionActionInputField[] = [
  {
    type: 'textinput',
    id: 'duration',
    label: 'Duration (empty: unchanged)',
    tooltip: '10:00, 1:30:00, 45 (minutes), 90s, 5m, 2h. A new duration resets the aux timer, paused at it',
    default: '5:00',
    useVariables: true,
  },
  {
    type: 'dropdown',
    id: 'appearance',
    label: 'Appearance',
    default: 'unchanged',
    choices: [
      { id: 'unchanged', label: 'Unchanged' },
      { id: 'countdown', label: 'Countdown' },
      { id: 'countup', label: 'Count up' },
    ],
  },
  { type: 'textinput', id: 'label', label: 'Label (empty: unchanged)', default: '', useVariables: true },
];

async function auxChange(options: CompanionOptionValues, parse: (text: string) => Promise<string>): Promise<Parsed<AuxChange>> {
  const duration = parseOptionalDuration(await parse(text(options, 'duration')), 'duration');
  if (!duration.ok) return duration;
  const label = (await parse(text(options, 'label'))).trim();
  const appearance = text(options, 'appearance');
  const change: AuxChange = {
    ...(duration.value === undefined ? {} : { duration: duration.value }),
    ...((AUX_APPEARANCES as readonly string[]).includes(appearance) ? { appearance: appearance as AuxAppearance } : {}),
    ...(label === '' ? {} : { label }),
  };
  if (Object.keys(change).length === 0) return { ok: false, error: 'nothing to change: give a duration, an appearance or a label' };
  return { ok: true, value: change };
}

const modeOption: SomeCompanionActionInputField = {
  type: 'dropdown',
  id: 'mode',
  label: 'Switch',
  default: 'toggle',
  choices: [
    { id: 'toggle', label: 'Toggle' },
    { id: 'on', label: 'On' },
    { id: 'off', label: 'Off' },
  ],
};

const messageOptions: SomeCompanionActionInputField[] = [
  { type: 'textinput', id: 'text', label: 'Text', default: 'Please wrap up', useVariables: true },
  {
    type: 'dropdown',
    id: 'color',
    label: 'Colour',
    default: 'white',
    choices: MESSAGE_COLORS.map((c) => ({ id: c, label: c[0]!.toUpperCase() + c.slice(1) })),
  },
  { type: 'checkbox', id: 'flash', label: 'Flash', default: false },
  { type: 'checkbox', id: 'bold', label: 'Bold', default: false },
];

async function messageInput(options: CompanionOptionValues, parse: (text: string) => Promise<string>): Promise<Parsed<MessageInput>> {
  const message = (await parse(text(options, 'text'))).trim();
  if (message === '') return { ok: false, error: 'message text is empty' };
  return {
    ok: true,
    value: { text: message, color: pick<MessageColor>(MESSAGE_COLORS, text(options, 'color'), 'white'), flash: flag(options, 'flash'), bold: flag(options, 'bold') },
  };
}

const INSTANT_TOOLTIP = "A time of day in the room's time zone: 19:30, 7:30 pm, or 2026-11-24 09:00 for another day (a time already past today is tomorrow's); or milliseconds since the epoch";

function timerFieldOptions(forUpdate: boolean, tags: readonly Tag[]): SomeCompanionActionInputField[] {
  const hint = forUpdate ? ' (empty: unchanged)' : '';
  const clearable = forUpdate ? ' (empty: unchanged; none: clear)' : ' (empty: none)';
  return [
    { type: 'textinput', id: 'label', label: `Label${forUpdate ? hint : ' (empty: "Timer N")'}`, default: '', useVariables: true },
    { type: 'textinput', id: 'speaker', label: `Speaker${hint}`, default: '', useVariables: true },
    {
      type: 'textinput',
      id: 'duration',
      label: `Duration${hint}`,
      tooltip: '10:00, 1:30:00, 45 (minutes), 90s, 5m, 2h',
      default: forUpdate ? '' : '10:00',
      useVariables: true,
    },
    { type: 'textinput', id: 'warnAt', label: `Warning from${hint}`, tooltip: 'Remaining time at which the display turns orange, e.g. 1:00', default: forUpdate ? '' : '1:00', useVariables: true },
    {
      type: 'textinput',
      id: 'dangerAt',
      label: `Red from${forUpdate ? ' (empty: unchanged; 0 or none: no red)' : ' (empty: no red)'}`,
      tooltip: 'Remaining time at which the display turns red before zero, e.g. 0:30 (the danger feedback follows it)',
      default: '',
      useVariables: true,
    },
    { type: 'textinput', id: 'scheduledAt', label: `Starts by itself at${clearable}`, tooltip: `${INSTANT_TOOLTIP}. The timer becomes active and starts then`, default: '', useVariables: true },
    { type: 'textinput', id: 'endsAt', label: `Counts to${clearable}`, tooltip: `${INSTANT_TOOLTIP}. The timer counts to this time instead of its duration`, default: '', useVariables: true },
    tagOption(tags, forUpdate),
    {
      type: 'dropdown',
      id: 'appearance',
      label: 'Appearance',
      default: forUpdate ? 'unchanged' : 'countdown',
      choices: [
        ...(forUpdate ? [{ id: 'unchanged', label: 'Unchanged' }] : []),
        { id: 'countdown', label: 'Countdown' },
        { id: 'countup', label: 'Count up' },
        { id: 'clock', label: 'Time of day' },
      ],
    },
  ];
}

async function timerFields(options: CompanionOptionValues, parse: (text: string) => Promise<string>, forUpdate: boolean): Promise<Parsed<TimerChange>> {
  const label = await parse(text(options, 'label'));
  const speaker = await parse(text(options, 'speaker'));
  const duration = parseOptionalDuration(await parse(text(options, 'duration')), 'duration');
  if (!duration.ok) return duration;
  const warnAt = parseOptionalDuration(await parse(text(options, 'warnAt')), 'warning time');
  if (!warnAt.ok) return warnAt;
  const dangerAt = parseOptionalDanger(await parse(text(options, 'dangerAt')));
  if (!dangerAt.ok) return dangerAt;
  const scheduledAt = parseOptionalInstant(await parse(text(options, 'scheduledAt')), 'start at');
  if (!scheduledAt.ok) return scheduledAt;
  const endsAt = parseOptionalInstant(await parse(text(options, 'endsAt')), 'end at');
  if (!endsAt.ok) return endsAt;
  const appearance = text(options, 'appearance');
  const tagId = tagValue(text(options, 'tagId'));
  // On create, "none" is the box's default anyway: left out, as an empty field is.
  const given = <T>(value: T | null | undefined): value is T | null => value !== undefined && (forUpdate || value !== null);
  const fields: TimerChange = {
    ...(label === '' ? {} : { label }),
    ...(speaker === '' ? {} : { speaker }),
    ...(duration.value === undefined ? {} : { duration: duration.value }),
    ...(warnAt.value === undefined ? {} : { warnAt: warnAt.value }),
    ...(dangerAt.value === undefined ? {} : { dangerAt: dangerAt.value }),
    ...((APPEARANCES as readonly string[]).includes(appearance) ? { appearance: appearance as Appearance } : {}),
    ...(given(scheduledAt.value) ? { scheduledAt: scheduledAt.value } : {}),
    ...(given(endsAt.value) ? { endsAt: endsAt.value } : {}),
    ...(given(tagId) ? { tagId } : {}),
  };
  return { ok: true, value: fields };
}

/** The timer an action names, from its options (see timerRefOptions). */
async function timerRef(options: CompanionOptionValues, parse: (text: string) => Promise<string>): Promise<Parsed<TimerRef>> {
  return parseTimerRef(text(options, 'by'), await parse(text(options, 'timer')), text(options, 'timerId'));
}

/** The build of an action that names a timer and nothing else. */
const onTimer =
  (type: 'timer.select' | 'timer.start' | 'timer.delete'): Build =>
  async (o, parse) => {
    const ref = await timerRef(o, parse);
    return ref.ok ? ok({ type, timer: ref.value }) : ref;
  };

function define(runner: ActionRunner, name: string, options: SomeCompanionActionInputField[], build: Build, description?: string): CompanionActionDefinition {
  return {
    name,
    ...(description === undefined ? {} : { description }),
    options,
    callback: async (event: CompanionActionEvent, context: CompanionActionContext) => {
      const built = await build(event.options, (t) => context.parseVariablesInString(t));
      if (!built.ok) {
        runner.reject(`${name}: ${built.error}; nothing was sent`);
        return;
      }
      await runner.run(built.value);
    },
  };
}

const simple =
  (action: ModuleAction): Build =>
  async () =>
    ok(action);

/** `lists`: what the timer and tag dropdowns offer; none before the first snapshot. */
export function actionDefinitions(runner: ActionRunner, lists: ChoiceLists = NO_LISTS): CompanionActionDefinitions {
  const timerOptions = timerRefOptions(lists.timers);
  const transport = Object.fromEntries(
    TRANSPORT_COMMANDS.map((command) => [command, define(runner, TRANSPORT_NAMES[command], [], simple({ type: 'transport', command }))]),
  );
  const aux = Object.fromEntries(
    AUX_COMMANDS.map((command) => [`aux_${command}`, define(runner, AUX_NAMES[command], [], simple({ type: 'aux', command }))]),
  );
  return {
    ...transport,
    ...aux,
    adjust: define(
      runner,
      'Adjust time (minutes/seconds)',
      adjustOptions,
      async (o) => {
        const ms = adjustMs(text(o, 'sign'), Number(o.minutes ?? 0), Number(o.seconds ?? 0));
        return ms.ok ? ok({ type: 'adjust', ms: ms.value }) : ms;
      },
      'At most 1 hour either way per press',
    ),
    adjust_ms: define(runner, 'Adjust time (milliseconds)', [adjustMsOption], async (o, parse) => {
      const ms = parseSignedMs(await parse(text(o, 'ms')));
      return ms.ok ? ok({ type: 'adjust', ms: ms.value }) : ms;
    }),
    aux_adjust: define(
      runner,
      'Aux timer: adjust time (minutes/seconds)',
      adjustOptions,
      async (o) => {
        const ms = adjustMs(text(o, 'sign'), Number(o.minutes ?? 0), Number(o.seconds ?? 0));
        return ms.ok ? ok({ type: 'aux.adjust', ms: ms.value }) : ms;
      },
      'At most 1 hour either way per press',
    ),
    aux_adjust_ms: define(runner, 'Aux timer: adjust time (milliseconds)', [adjustMsOption], async (o, parse) => {
      const ms = parseSignedMs(await parse(text(o, 'ms')));
      return ms.ok ? ok({ type: 'aux.adjust', ms: ms.value }) : ms;
    }),
    aux_set: define(
      runner,
      'Aux timer: set duration, appearance, label',
      auxSetOptions,
      async (o, parse) => {
        const change = await auxChange(o, parse);
        return change.ok ? ok({ type: 'aux.set', change: change.value }) : change;
      },
      'A new duration resets the aux timer, paused at it; a new label or appearance keeps its time',
    ),
    show_reset: define(
      runner,
      'Show: reset (a new run)',
      [],
      simple({ type: 'show.reset' }),
      'Clears the actual start and end times the box recorded and makes the first timer active at its duration, paused',
    ),
    message_set: define(runner, 'Message: show', messageOptions, async (o, parse) => {
      const m = await messageInput(o, parse);
      return m.ok ? ok({ type: 'message.set', message: m.value }) : m;
    }),
    message_clear: define(runner, 'Message: clear', [], simple({ type: 'message.clear' })),
    message_toggle: define(
      runner,
      'Message: toggle',
      messageOptions,
      async (o, parse) => {
        const m = await messageInput(o, parse);
        return m.ok ? ok({ type: 'message.toggle', message: m.value }) : m;
      },
      'Clears the message if this text is showing, shows it otherwise',
    ),
    screen: define(
      runner,
      'Screen (HDMI-CEC): on, standby, or make the box its source',
      [
        {
          type: 'dropdown',
          id: 'request',
          label: 'Ask the screen',
          default: 'on',
          choices: [
            { id: 'on', label: 'On (and show the box)' },
            { id: 'standby', label: 'Standby' },
            { id: 'active', label: 'Make the box its source' },
          ],
        },
      ],
      async (o) => ok({ type: 'screen', request: pick<ScreenRequest>(SCREEN_REQUESTS, text(o, 'request'), 'on') }),
      'Through the box, over HDMI-CEC (config screen.cec.device); logged as refused when the box has no screen or the screen does not acknowledge',
    ),
    blackout: define(runner, 'Blackout', [modeOption], async (o) => ok({ type: 'blackout', mode: pick(SWITCH_MODES, text(o, 'mode'), 'toggle') })),
    onair: define(runner, 'ON AIR', [modeOption], async (o) => ok({ type: 'onair', mode: pick(SWITCH_MODES, text(o, 'mode'), 'toggle') })),
    zero_behavior: define(
      runner,
      'At zero: behaviour',
      [
        {
          type: 'dropdown',
          id: 'zeroBehavior',
          label: 'At zero',
          default: 'continue',
          choices: [
            { id: 'continue', label: 'Continue into overrun' },
            { id: 'stop', label: 'Stop at 0:00' },
            { id: 'hide', label: 'Hide the time' },
          ],
        },
      ],
      async (o) => ok({ type: 'zero-behavior', zeroBehavior: pick<ZeroBehavior>(ZERO_BEHAVIORS, text(o, 'zeroBehavior'), 'continue') }),
    ),
    auto_advance: define(runner, 'Auto-advance', [modeOption], async (o) => ok({ type: 'auto-advance', mode: pick(SWITCH_MODES, text(o, 'mode'), 'toggle') })),
    timer_select: define(runner, 'Timer: select', timerOptions, onTimer('timer.select')),
    timer_start: define(
      runner,
      'Timer: start (select and start in one press)',
      timerOptions,
      onTimer('timer.start'),
      'Makes the timer active at its full duration and starts it, as one step; on the timer already active it only starts it, from where it is',
    ),
    timer_create: define(runner, 'Timer: create (at the end)', timerFieldOptions(false, lists.tags), async (o, parse) => {
      const fields = await timerFields(o, parse, false);
      return fields.ok ? ok({ type: 'timer.create', fields: fields.value }) : fields;
    }),
    timer_update: define(runner, 'Timer: update', [...timerOptions, ...timerFieldOptions(true, lists.tags)], async (o, parse) => {
      const ref = await timerRef(o, parse);
      if (!ref.ok) return ref;
      const fields = await timerFields(o, parse, true);
      return fields.ok ? ok({ type: 'timer.update', timer: ref.value, fields: fields.value }) : fields;
    }),
    timer_delete: define(runner, 'Timer: delete', timerOptions, onTimer('timer.delete')),
    timer_move: define(
      runner,
      'Timer: move',
      [...timerOptions, { type: 'textinput', id: 'to', label: 'To position (1 = first)', default: '1', useVariables: true }],
      async (o, parse) => {
        const ref = await timerRef(o, parse);
        if (!ref.ok) return ref;
        const to = parsePosition(await parse(text(o, 'to')));
        return to.ok ? ok({ type: 'timer.move', timer: ref.value, toPosition: to.value }) : to;
      },
    ),
    question_unshow: define(
      runner,
      'Question: take off the screens',
      [],
      simple({ type: 'question.unshow' }),
      'Take the audience question off the screens (it goes back to approved, kept for later)',
    ),
    questions_clear_answered: define(runner, 'Questions: delete the answered ones', [], simple({ type: 'questions.clear-answered' }), 'Delete the answered questions'),
    flash: define(
      runner,
      'Flash the screens',
      [{ type: 'number', id: 'count', label: `Times (${FLASH_COUNT_MIN} to ${FLASH_COUNT_MAX})`, default: FLASH_COUNT_DEFAULT, min: FLASH_COUNT_MIN, max: FLASH_COUNT_MAX }],
      async (o) => {
        const count = parseFlashCount(o.count ?? FLASH_COUNT_DEFAULT);
        return count.ok ? ok({ type: 'flash', count: count.value }) : count;
      },
      'Every screen inverts this many times, twice a second, to catch a speaker\'s eye; the message is not changed',
    ),
    chime_test: define(
      runner,
      'Chime test',
      [],
      simple({ type: 'chime.test' }),
      "Every display plays the chime once at the room's volume, whether or not the chimes are on: a sound check",
    ),
  };
}
