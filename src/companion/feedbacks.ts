// The module's feedbacks: boolean ones that light a key with the room's state
// (the audience questions, the schedule and the aux timer included), with default
// colours a control room reads at a glance, and an advanced one that draws a
// progress bar on the key.
import type { CompanionFeedbackDefinition, CompanionFeedbackDefinitions, CompanionOptionValues } from '@companion-module/base';
import type { Snapshot } from '../domain/snapshot.js';
import type { OffsetState } from '../domain/schedule-text.js';
import { drawBar } from './progress-bar.js';
import { screenOf, type ScreenWord } from './room-screen.js';
import { flagsOf, messageShowing, type MessageFilter, type RoomFlags } from './room-flags.js';
import { activePosition, type RoomView } from './room-view.js';
import { NO_LISTS, parseTimerRef, timerRefOptions, type ChoiceLists } from './options.js';

/** What the feedbacks read; the connection provides it. */
export interface FeedbackSource {
  snapshot(): Snapshot | null;
  view(): RoomView | null;
  isConnected(): boolean;
}

export const FEEDBACK_IDS = [
  'running',
  'paused',
  'warning',
  'danger',
  'overrun',
  'stopped',
  'blackout',
  'onair',
  'tally',
  'screen_on',
  'message',
  'timer_active',
  'question_on_screen',
  'questions_waiting',
  'connected',
  'schedule_offset',
  'aux_running',
  'aux_overrun',
  'progress',
] as const;
export type FeedbackId = (typeof FEEDBACK_IDS)[number];

export const COLOURS = {
  white: 0xffffff,
  black: 0x000000,
  green: 0x00a000,
  amber: 0xc08000,
  orange: 0xff8c00,
  red: 0xd00000,
  darkRed: 0x800000,
  blue: 0x1a5fb4,
  // The questions' own two: a moderator's panel tells a question on the screens
  // from a message (blue) and new questions from a paused timer (amber).
  purple: 0x7a3db8,
  yellow: 0xffd400,
  grey: 0x303030,
} as const;

type FlagName = keyof RoomFlags;

/** What lights the screen key: on, or on its way there. */
function screenLit(word: ScreenWord): boolean {
  return word === 'on' || word === 'to-on';
}

function flagFeedback(source: FeedbackSource, flag: FlagName, name: string, description: string, bgcolor: number, color: number): CompanionFeedbackDefinition {
  return {
    type: 'boolean',
    name,
    description,
    defaultStyle: { bgcolor, color },
    options: [],
    callback: () => flagsOf(source.snapshot(), source.view(), source.isConnected())[flag],
  };
}

const option = (options: CompanionOptionValues, id: string): string => {
  const value = options[id];
  return value === undefined ? '' : String(value);
};

function colourOption(options: CompanionOptionValues, id: string, fallback: number): number {
  const value = Number(options[id]);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

const OFFSET_STATES = ['behind', 'ahead', 'onTime'] as const satisfies readonly OffsetState[];

/**
 * Whether the show stands as `wanted` with a tolerance of `marginSeconds`: behind is
 * more than the margin late, ahead more than it early, on time within it. Whole
 * seconds, as every surface reads the offset; without a plan, none of the three.
 */
export function offsetMatches(offsetSeconds: number | null, wanted: OffsetState, marginSeconds: number): boolean {
  if (offsetSeconds === null) return false;
  switch (wanted) {
    case 'behind':
      return offsetSeconds > marginSeconds;
    case 'ahead':
      return offsetSeconds < -marginSeconds;
    case 'onTime':
      return Math.abs(offsetSeconds) <= marginSeconds;
    default: {
      const unknown: never = wanted;
      throw new Error(`unhandled offset state ${String(unknown)}`);
    }
  }
}

/** `lists`: what the timer dropdown of `timer_active` offers, as for the actions. */
export function feedbackDefinitions(source: FeedbackSource, lists: ChoiceLists = NO_LISTS): CompanionFeedbackDefinitions & Record<FeedbackId, CompanionFeedbackDefinition> {
  return {
    running: flagFeedback(source, 'running', 'Running', 'The timer runs', COLOURS.green, COLOURS.white),
    paused: flagFeedback(source, 'paused', 'Paused', 'The timer is paused (midway or ready at its duration), not stopped at zero', COLOURS.amber, COLOURS.black),
    warning: flagFeedback(source, 'warning', 'Warning', "Remaining time at or below the timer's warnAt (stays on in overrun)", COLOURS.orange, COLOURS.black),
    danger: flagFeedback(source, 'danger', 'Danger', "Remaining time at or below the timer's red threshold (dangerAt), before zero", COLOURS.red, COLOURS.white),
    overrun: flagFeedback(source, 'overrun', 'Overrun', 'Past zero (the display counts on in red)', COLOURS.red, COLOURS.white),
    stopped: flagFeedback(source, 'stopped', 'At zero (stop)', 'Stopped at zero under the "stop" zero behaviour', COLOURS.darkRed, COLOURS.white),
    blackout: flagFeedback(source, 'blackout', 'Blackout', 'The screens are black', COLOURS.white, COLOURS.black),
    onair: flagFeedback(source, 'onAir', 'ON AIR', 'The ON AIR indicator is on', COLOURS.red, COLOURS.white),
    tally: flagFeedback(source, 'tally', 'Tally: on air by the vision mixer/OBS', 'The tally (TSL from a vision mixer or Tally Arbiter, or OBS streaming/recording) says on air; never on a box without tally', COLOURS.red, COLOURS.white),
    screen_on: {
      type: 'boolean',
      name: 'Screen on (HDMI-CEC)',
      description: 'The screen answered the box that it is on (or turning on); never on a box without screen control',
      defaultStyle: { bgcolor: COLOURS.green, color: COLOURS.white },
      options: [],
      callback: () => screenLit(screenOf(source.snapshot())),
    },
    connected: flagFeedback(source, 'connected', 'Connected', 'The module is connected to Showclock', COLOURS.green, COLOURS.white),
    question_on_screen: flagFeedback(source, 'questionShown', 'Question on screen', 'An audience question is on the screens', COLOURS.purple, COLOURS.white),
    questions_waiting: flagFeedback(source, 'questionsWaiting', 'Questions waiting', 'At least one new audience question has come in and waits for the moderator', COLOURS.yellow, COLOURS.black),
    aux_running: flagFeedback(source, 'auxRunning', 'Aux timer running', 'The second timer (aux) runs', COLOURS.green, COLOURS.white),
    aux_overrun: flagFeedback(source, 'auxOverrun', 'Aux timer past zero', 'The aux timer is past zero, red on the display: a countdown in overrun, a count-up past its duration', COLOURS.red, COLOURS.white),
    schedule_offset: {
      type: 'boolean',
      name: 'Behind / ahead of schedule',
      description: "The show runs behind, ahead of or on its plan (the active timer's projected end against its planned end), beyond a tolerance",
      defaultStyle: { bgcolor: COLOURS.red, color: COLOURS.white },
      options: [
        {
          type: 'dropdown',
          id: 'state',
          label: 'Lit when the show is',
          default: 'behind',
          choices: [
            { id: 'behind', label: 'Behind (late)' },
            { id: 'ahead', label: 'Ahead (early)' },
            { id: 'onTime', label: 'On time' },
          ],
        },
        { type: 'number', id: 'margin', label: 'Tolerance (seconds)', tooltip: 'Within this much either way counts as on time', default: 0, min: 0, max: 3600 },
      ],
      callback: (feedback) => {
        const view = source.view();
        if (view === null) return false;
        const wanted = option(feedback.options, 'state');
        const state = (OFFSET_STATES as readonly string[]).includes(wanted) ? (wanted as OffsetState) : 'behind';
        const margin = Number(feedback.options.margin);
        return offsetMatches(view.schedule.offsetSeconds, state, Number.isFinite(margin) && margin > 0 ? margin : 0);
      },
    },
    message: {
      type: 'boolean',
      name: 'Message showing',
      description: 'A message is on the screens, optionally only one of a given colour',
      defaultStyle: { bgcolor: COLOURS.blue, color: COLOURS.white },
      options: [
        {
          type: 'dropdown',
          id: 'color',
          label: 'Colour',
          default: 'any',
          choices: [
            { id: 'any', label: 'Any colour' },
            { id: 'white', label: 'White' },
            { id: 'green', label: 'Green' },
            { id: 'red', label: 'Red' },
          ],
        },
      ],
      callback: (feedback) => {
        const filter = option(feedback.options, 'color');
        const known: MessageFilter = filter === 'white' || filter === 'green' || filter === 'red' ? filter : 'any';
        return messageShowing(source.snapshot(), known);
      },
    },
    timer_active: {
      type: 'boolean',
      name: 'Timer is active',
      description: 'A given timer (chosen in the running order, or by position or id) is the active one',
      defaultStyle: { bgcolor: COLOURS.blue, color: COLOURS.white },
      options: timerRefOptions(lists.timers),
      callback: async (feedback, context) => {
        const state = source.snapshot();
        if (state === null) return false;
        const ref = parseTimerRef(option(feedback.options, 'by'), await context.parseVariablesInString(option(feedback.options, 'timer')), option(feedback.options, 'timerId'));
        if (!ref.ok) return false;
        return ref.value.by === 'position' ? activePosition(state) === ref.value.position : state.activeTimerId === ref.value.id;
      },
    },
    progress: {
      type: 'advanced',
      name: 'Progress bar',
      description: 'Draws the elapsed share of the active timer as a bar on the key, coloured by phase',
      options: [
        {
          type: 'dropdown',
          id: 'place',
          label: 'Place',
          default: 'bottom',
          choices: [
            { id: 'bottom', label: 'Bottom edge' },
            { id: 'top', label: 'Top edge' },
          ],
        },
        { type: 'number', id: 'height', label: 'Height (pixels)', default: 8, min: 1, max: 72 },
        { type: 'colorpicker', id: 'normal', label: 'Colour', default: COLOURS.green },
        { type: 'colorpicker', id: 'warning', label: 'Colour in warning', default: COLOURS.orange },
        { type: 'colorpicker', id: 'overrun', label: 'Colour in overrun', default: COLOURS.red },
        { type: 'colorpicker', id: 'background', label: 'Background', default: COLOURS.grey },
      ],
      callback: (feedback) => {
        const view = source.view();
        const state = source.snapshot();
        if (view === null || state === null) return {};
        const width = feedback.image?.width ?? 72;
        const keyHeight = feedback.image?.height ?? 72;
        const height = Math.min(keyHeight, Math.max(1, Math.round(Number(feedback.options.height) || 8)));
        const flags = flagsOf(state, view, source.isConnected());
        // Danger shares the overrun colour, as on the display: red from the threshold on.
        const fill = flags.overrun || flags.stopped || flags.danger
          ? colourOption(feedback.options, 'overrun', COLOURS.red)
          : flags.warning
            ? colourOption(feedback.options, 'warning', COLOURS.orange)
            : colourOption(feedback.options, 'normal', COLOURS.green);
        const pixels = drawBar(width, height, view.progress, { fill, background: colourOption(feedback.options, 'background', COLOURS.grey) });
        return {
          imageBuffer: Buffer.from(pixels).toString('base64'),
          imageBufferEncoding: { pixelFormat: 'RGBA' },
          imageBufferPosition: { x: 0, y: option(feedback.options, 'place') === 'top' ? 0 : keyHeight - height, width, height },
        };
      },
    },
  };
}

/**
 * What each feedback shows, as text: the connection re-checks a feedback only
 * when its text changes, so a second boundary re-checks the bar and little else.
 */
export function feedbackSignatures(state: Snapshot | null, view: RoomView | null, connected: boolean): Record<FeedbackId, string> {
  const flags = flagsOf(state, view, connected);
  return {
    running: String(flags.running),
    paused: String(flags.paused),
    warning: String(flags.warning),
    danger: String(flags.danger),
    overrun: String(flags.overrun),
    stopped: String(flags.stopped),
    blackout: String(flags.blackout),
    onair: String(flags.onAir),
    tally: String(flags.tally),
    screen_on: String(screenLit(screenOf(state))),
    connected: String(flags.connected),
    question_on_screen: String(flags.questionShown),
    questions_waiting: String(flags.questionsWaiting),
    // Every second of the offset: whatever tolerance a key has, it is re-checked when it could flip.
    schedule_offset: String(view?.schedule.offsetSeconds ?? ''),
    aux_running: String(flags.auxRunning),
    aux_overrun: String(flags.auxOverrun),
    message: state?.message ? `${state.message.color}` : '',
    timer_active: state === null ? '' : `${state.activeTimerId}@${activePosition(state)}`,
    progress: view === null ? '' : `${view.progress}/${flags.warning}/${flags.overrun || flags.stopped || flags.danger}`,
  };
}
