// Ready-made buttons. "Show page" is a whole show on one Stream Deck page:
// start/pause, previous/next, the big remaining time with warning and overrun
// colours and a progress bar, ±10 s / ±1 min / ±5 min, blackout, ON AIR and
// message clear. The other categories hold the rest of the actions,
// "Questions" the moderator's keys for audience questions, "Schedule" where the
// show stands against its plan, "Aux timer" the second timer, "Tally" what the
// vision mixer or OBS says, "Screen" the TV over HDMI-CEC, and "Alerts" the
// screen flash and the chime test.
// Timer keys name timers by position, since a preset cannot know a room's ids
// (the timer dropdown is there once on a key). Variables in key text carry the
// connection's label, so presets are remade when it changes.
import type { CompanionButtonPresetDefinition, CompanionPresetDefinitions, CompanionPresetFeedback, CompanionOptionValues } from '@companion-module/base';
import { COLOURS, type FeedbackId } from './feedbacks.js';

const SHOW = 'Show page';

function button(
  category: string,
  name: string,
  text: string,
  /** null: a key that only shows, so a stray press changes nothing. */
  actionId: string | null,
  options: CompanionOptionValues = {},
  feedbacks: CompanionPresetFeedback[] = [],
  size: CompanionButtonPresetDefinition['style']['size'] = '18',
): CompanionButtonPresetDefinition {
  return {
    type: 'button',
    category,
    name,
    style: { text, size, color: COLOURS.white, bgcolor: COLOURS.black },
    feedbacks,
    steps: [{ down: actionId === null ? [] : [{ actionId, options }], up: [] }],
  };
}

function lit(feedbackId: FeedbackId, bgcolor: number, color: number, options: CompanionOptionValues = {}): CompanionPresetFeedback {
  return { feedbackId, options, style: { bgcolor, color } };
}

const progressBar: CompanionPresetFeedback = {
  feedbackId: 'progress',
  options: { place: 'bottom', height: 8, normal: COLOURS.green, warning: COLOURS.orange, overrun: COLOURS.red, background: COLOURS.grey },
};

function adjust(category: string, sign: '+' | '-', minutes: number, seconds: number, actionId: 'adjust' | 'aux_adjust' = 'adjust'): CompanionButtonPresetDefinition {
  const amount = minutes > 0 ? `${minutes} min` : `${seconds} s`;
  const name = actionId === 'adjust' ? `${sign}${amount}` : `Aux ${sign}${amount}`;
  const text = actionId === 'adjust' ? `${sign}${amount}` : `AUX\n${sign}${amount}`;
  return button(category, name, text, actionId, { sign, minutes, seconds }, [], actionId === 'adjust' ? '24' : '14');
}

/** Red while the show runs late, green while early, nothing on time: the same whole seconds as every screen. */
const behindAhead: CompanionPresetFeedback[] = [
  lit('schedule_offset', COLOURS.red, COLOURS.white, { state: 'behind', margin: 0 }),
  lit('schedule_offset', COLOURS.green, COLOURS.white, { state: 'ahead', margin: 0 }),
];

/** `label`: the connection's label, which prefixes its variables (`$(label:remaining)`). */
export function presetDefinitions(label: string): CompanionPresetDefinitions {
  const presets: CompanionPresetDefinitions = {
    show_toggle: button(SHOW, 'Start/pause', 'START\nPAUSE', 'toggle', {}, [
      lit('paused', COLOURS.amber, COLOURS.black),
      lit('running', COLOURS.green, COLOURS.white),
    ]),
    show_previous: button(SHOW, 'Previous timer', '⏮\nPREV', 'previous'),
    show_next: button(SHOW, 'Next timer', '⏭\nNEXT', 'next'),
    show_time: button(
      SHOW,
      'Remaining time (big)',
      `$(${label}:remaining)`,
      null,
      {},
      [
        lit('warning', COLOURS.orange, COLOURS.black),
        lit('danger', COLOURS.red, COLOURS.white),
        lit('overrun', COLOURS.red, COLOURS.white),
        lit('stopped', COLOURS.darkRed, COLOURS.white),
        progressBar,
      ],
      'auto',
    ),
    show_label: button(SHOW, 'Active timer', `$(${label}:active_position). $(${label}:active_label)\n$(${label}:active_speaker)`, null, {}, [], '14'),
    show_minus_10s: adjust(SHOW, '-', 0, 10),
    show_plus_10s: adjust(SHOW, '+', 0, 10),
    show_minus_1m: adjust(SHOW, '-', 1, 0),
    show_plus_1m: adjust(SHOW, '+', 1, 0),
    show_minus_5m: adjust(SHOW, '-', 5, 0),
    show_plus_5m: adjust(SHOW, '+', 5, 0),
    show_blackout: button(SHOW, 'Blackout', 'BLACK\nOUT', 'blackout', { mode: 'toggle' }, [lit('blackout', COLOURS.white, COLOURS.black)]),
    show_onair: button(SHOW, 'ON AIR', 'ON AIR', 'onair', { mode: 'toggle' }, [lit('onair', COLOURS.red, COLOURS.white)]),
    show_message_clear: button(SHOW, 'Message clear', 'CLEAR\nMSG', 'message_clear', {}, [lit('message', COLOURS.blue, COLOURS.white, { color: 'any' })]),
    show_connection: button(SHOW, 'Connection', `Showclock\n$(${label}:connection)`, null, {}, [lit('connected', COLOURS.green, COLOURS.white)], '14'),
  };

  const transport = 'Transport';
  presets.start = button(transport, 'Start', 'START', 'start', {}, [lit('running', COLOURS.green, COLOURS.white)]);
  presets.pause = button(transport, 'Pause', 'PAUSE', 'pause', {}, [lit('paused', COLOURS.amber, COLOURS.black)]);
  presets.reset = button(transport, 'Reset', 'RESET', 'reset');
  presets.remaining_signed = button(transport, 'Remaining (signed)', `$(${label}:remaining_signed)`, null, {}, [lit('warning', COLOURS.orange, COLOURS.black), lit('overrun', COLOURS.red, COLOURS.white)], 'auto');
  presets.display_time = button(transport, 'As the display shows it', `$(${label}:display_time)`, null, {}, [lit('warning', COLOURS.orange, COLOURS.black), lit('overrun', COLOURS.red, COLOURS.white)], 'auto');
  presets.next_up = button(transport, 'Next up', `NEXT:\n$(${label}:next_label)`, null, {}, [], '14');

  const timers = 'Timers';
  for (let position = 1; position <= 8; position += 1) {
    presets[`timer_${position}`] = button(timers, `Select timer ${position}`, `TIMER\n${position}`, 'timer_select', { by: 'position', timer: String(position) }, [
      lit('timer_active', COLOURS.blue, COLOURS.white, { by: 'position', timer: String(position) }),
    ]);
  }
  // One press from anywhere in the show: select and start together (lit while that timer is the active one).
  for (let position = 1; position <= 8; position += 1) {
    const which = { by: 'position', timer: String(position) };
    presets[`timer_start_${position}`] = button(timers, `Start timer ${position}`, `START\n${position}`, 'timer_start', which, [lit('timer_active', COLOURS.blue, COLOURS.white, which)]);
  }

  const messages = 'Messages';
  presets.message_wrap_up = button(messages, 'Wrap up (toggle)', 'WRAP\nUP', 'message_toggle', { text: 'Please wrap up', color: 'red', flash: true, bold: true }, [
    lit('message', COLOURS.red, COLOURS.white, { color: 'red' }),
  ]);
  presets.message_five = button(messages, '5 minutes (toggle)', '5 MIN\nLEFT', 'message_toggle', { text: '5 minutes left', color: 'white', flash: false, bold: true }, [
    lit('message', COLOURS.blue, COLOURS.white, { color: 'white' }),
  ]);
  presets.message_clear = button(messages, 'Clear message', 'CLEAR\nMSG', 'message_clear', {}, [lit('message', COLOURS.blue, COLOURS.white, { color: 'any' })]);
  presets.message_text = button(messages, 'Message on screen', `$(${label}:message_text)`, null, {}, [lit('message', COLOURS.blue, COLOURS.white, { color: 'any' })], '14');

  const settings = 'Settings';
  presets.auto_advance = button(settings, 'Auto-advance', `AUTO\n$(${label}:auto_advance)`, 'auto_advance', { mode: 'toggle' }, [], '14');
  presets.zero_continue = button(settings, 'At zero: continue', 'ZERO\nGO ON', 'zero_behavior', { zeroBehavior: 'continue' }, [], '14');
  presets.zero_stop = button(settings, 'At zero: stop', 'ZERO\nSTOP', 'zero_behavior', { zeroBehavior: 'stop' }, [], '14');
  presets.zero_hide = button(settings, 'At zero: hide', 'ZERO\nHIDE', 'zero_behavior', { zeroBehavior: 'hide' }, [], '14');

  // No key picks a question to show (that takes its id, which a panel cannot know): choosing stays in the console.
  const questions = 'Questions';
  presets.questions_waiting = button(questions, 'Questions waiting', `NEW Q\n$(${label}:questions_new)`, null, {}, [lit('questions_waiting', COLOURS.yellow, COLOURS.black)]);
  presets.question_unshow = button(questions, 'Take question off screen', 'Q OFF\nSCREEN', 'question_unshow', {}, [lit('question_on_screen', COLOURS.purple, COLOURS.white)], '14');
  presets.question_text = button(questions, 'Question on screen', `$(${label}:question_text)`, null, {}, [lit('question_on_screen', COLOURS.purple, COLOURS.white)], 'auto');
  const schedule = 'Schedule';
  presets.schedule_offset = button(schedule, 'Behind / ahead', `$(${label}:offset)\nEND $(${label}:show_end)`, null, {}, behindAhead, '14');
  presets.schedule_offset_text = button(schedule, 'Behind / ahead in words', `$(${label}:offset_text)`, null, {}, behindAhead, '14');
  presets.schedule_next_start = button(schedule, 'Next planned start', `NEXT AT\n$(${label}:next_start)`, null, {}, [], '14');
  presets.show_reset = button(schedule, 'Reset the show (new run)', 'RESET\nSHOW', 'show_reset', {}, [], '14');

  // What the vision mixer or OBS says, beside the ON AIR switch a press can override: red while the tally is on.
  const tally = 'Tally';
  presets.tally = button(tally, 'Tally (vision mixer/OBS)', `TALLY\n$(${label}:tally)`, null, {}, [lit('tally', COLOURS.red, COLOURS.white)], '14');
  presets.tally_onair = button(tally, 'ON AIR with the tally', `ON AIR\ntally $(${label}:tally)`, 'onair', { mode: 'toggle' }, [lit('onair', COLOURS.red, COLOURS.white)], '14');

  // The TV over HDMI-CEC: lit green only once the TV itself answered on (or turning on), so a key
  // never claims a screen the box could not reach; the words say what it last answered.
  const screen = 'Screen';
  const screenOn = [lit('screen_on', COLOURS.green, COLOURS.white)];
  presets.screen_on = button(screen, 'Screen on', `SCREEN ON\n$(${label}:screen_power)`, 'screen', { request: 'on' }, screenOn, '14');
  presets.screen_standby = button(screen, 'Screen standby', 'SCREEN\nSTANDBY', 'screen', { request: 'standby' }, [], '14');
  presets.screen_active = button(screen, 'Make the box the active source (no "no signal")', 'SCREEN\nSOURCE', 'screen', { request: 'active' }, screenOn, '14');

  const alerts = 'Alerts';
  presets.flash = button(alerts, 'Flash the screens (3 times)', 'FLASH', 'flash', { count: 3 });
  presets.flash_long = button(alerts, 'Flash the screens (10 times)', 'FLASH\n×10', 'flash', { count: 10 });
  presets.chime_test = button(alerts, 'Chime test', 'CHIME\nTEST', 'chime_test', {}, [], '14');

  const aux = 'Aux timer';
  presets.aux_toggle = button(aux, 'Aux start/pause with its time', `$(${label}:aux_label)\n$(${label}:aux_time)`, 'aux_toggle', {}, [
    lit('aux_running', COLOURS.green, COLOURS.white),
    lit('aux_overrun', COLOURS.red, COLOURS.white),
  ], '14');
  presets.aux_start = button(aux, 'Aux start', 'AUX\nSTART', 'aux_start', {}, [lit('aux_running', COLOURS.green, COLOURS.white)], '14');
  presets.aux_pause = button(aux, 'Aux pause', 'AUX\nPAUSE', 'aux_pause', {}, [], '14');
  presets.aux_reset = button(aux, 'Aux reset', 'AUX\nRESET', 'aux_reset', {}, [], '14');
  presets.aux_minus_1m = adjust(aux, '-', 1, 0, 'aux_adjust');
  presets.aux_plus_1m = adjust(aux, '+', 1, 0, 'aux_adjust');
  presets.aux_five = button(aux, 'Aux: 5 minutes', 'AUX\n5:00', 'aux_set', { duration: '5:00', appearance: 'unchanged', label: '' }, [], '14');
  return presets;
}
