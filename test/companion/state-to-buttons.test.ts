// State to variables and feedbacks: what a snapshot at a server instant puts on
// the keys, the progress bar's pixels, and the connection status and variable.
import { InstanceStatus, type CompanionAdvancedFeedbackResult, type CompanionFeedbackDefinition } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { feedbackDefinitions, feedbackSignatures, type FeedbackSource } from '../../src/companion/feedbacks.js';
import { connectionWord, statusOf } from '../../src/companion/link-state.js';
import { drawBar } from '../../src/companion/progress-bar.js';
import { flagsOf } from '../../src/companion/room-flags.js';
import { viewAt } from '../../src/companion/room-view.js';
import { changedValues, variableValues, VARIABLES } from '../../src/companion/variables.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { isSnapshot } from '../../src/companion/api-client.js';
import { olderBox, question, snapshot, WALL } from './snapshots.js';

const CONNECTED = { kind: 'connected', apiVersion: '1.0.0' } as const;

describe('variables', () => {
  it('carries the room at the given instant', () => {
    const s = snapshot({ running: true, remainingMs: 300_000, active: 1, message: { text: 'Wrap up', color: 'red', flash: true, bold: true }, onAir: true, zero: 'stop' });
    const values = variableValues(s, viewAt(s, WALL + 30_500), CONNECTED, '1.0.0');
    expect(values).toEqual({
      remaining: '4:30',
      remaining_signed: '-4:30',
      remaining_hours: '0',
      remaining_minutes: '04',
      remaining_seconds: '30',
      remaining_ms: 269_500,
      display_time: '4:30',
      elapsed: '5:30',
      elapsed_ms: 330_000,
      duration: '10:00',
      duration_ms: 600_000,
      progress: 55,
      phase: 'running',
      running: true,
      active_id: 't2',
      active_label: 'Talk 2',
      active_speaker: 'Speaker 2',
      active_position: 2,
      next_label: 'Talk 3',
      next_speaker: 'Speaker 3',
      timer_count: 3,
      message_text: 'Wrap up',
      message_color: 'red',
      questions_new: 0,
      questions_approved: 0,
      question_text: '',
      question_name: '',
      blackout: false,
      onair: true,
      // No tally source heard: the box has none, which is not the same as a tally that says off.
      tally: 'none',
      tally_sources: '',
      // No screen under control: none, not a screen in standby.
      screen_power: 'none',
      zero_behavior: 'stop',
      auto_advance: false,
      // No planned start and nothing run yet: no plan to be on time against; the show ends when its timers do.
      offset: '',
      offset_text: '',
      offset_seconds: '',
      offset_state: '',
      show_end: '09:15',
      planned_end: '',
      next_start: '',
      aux_time: '5:00',
      aux_label: 'Aux',
      aux_running: false,
      aux_duration: '5:00',
      connection: 'connected',
      server_version: '1.0.0',
    });
    expect(Object.keys(values).sort()).toEqual(VARIABLES.map((v) => v.variableId).sort());
  });

  it('empties what has no value: no next timer on the last, no message, no room yet', () => {
    const last = snapshot({ active: 2 });
    const values = variableValues(last, viewAt(last, WALL), CONNECTED, '1.0.0');
    expect(values).toMatchObject({ next_label: '', next_speaker: '', message_text: '', message_color: '', phase: 'ready' });
    const none = variableValues(null, null, { kind: 'unreachable', reason: 'connection refused', retryInMs: 2_000 }, '');
    expect(none.connection).toBe('unreachable');
    expect(Object.entries(none).filter(([id]) => id !== 'connection').every(([, v]) => v === '')).toBe(true);
  });

  it('counts new and approved audience questions and carries the one on the screens, its name only when the screens show it', () => {
    const questions = [
      question('q1', 'new'),
      question('q2', 'new', 'Is it recorded?', 'Ada'),
      question('q3', 'approved'),
      question('q4', 'answered'),
      question('q5', 'hidden'),
      question('q6', 'new'),
    ];
    const at = (s: Snapshot) => variableValues(s, viewAt(s, WALL), CONNECTED, '1.0.0');
    expect(at(snapshot({ questions }))).toMatchObject({ questions_new: 3, questions_approved: 1, question_text: '', question_name: '' });
    const withName = snapshot({ questions: [...questions, question('q7', 'shown', 'What about the budget?', 'Grace', true)] });
    expect(at(withName)).toMatchObject({ questions_new: 3, questions_approved: 1, question_text: 'What about the budget?', question_name: 'Grace' });
    // The moderator showed it without the name: the screens leave it out, so does the key.
    const withoutName = snapshot({ questions: [question('q7', 'shown', 'What about the budget?', 'Grace', false)] });
    expect(at(withoutName)).toMatchObject({ questions_new: 0, questions_approved: 0, question_text: 'What about the budget?', question_name: '' });
  });

  it('reads a box older than audience questions as a room with none: counts 0, texts empty', () => {
    const old = olderBox(snapshot({ questions: [question('q1', 'new'), question('q2', 'shown', 'Shown?', 'Ada', true)] }));
    expect('questions' in old || 'shownQuestion' in old).toBe(false);
    expect(isSnapshot(JSON.parse(JSON.stringify(old)))).toBe(true);
    const values = variableValues(old, viewAt(old, WALL), CONNECTED, '1.0.0');
    expect(values).toMatchObject({ questions_new: 0, questions_approved: 0, question_text: '', question_name: '', remaining: '10:00', timer_count: 3 });
  });

  it('takes questions in as the box sends them, and no stranger\'s shape', () => {
    const s = JSON.parse(JSON.stringify(snapshot({ questions: [question('q1', 'shown')] }))) as Record<string, unknown>;
    expect(isSnapshot(s)).toBe(true);
    expect(isSnapshot({ ...s, questions: 'none' })).toBe(false);
    expect(isSnapshot({ ...s, questions: [null] })).toBe(false);
    expect(isSnapshot({ ...s, shownQuestion: 'Why?' })).toBe(false);
  });

  it('sends Companion only what changed', () => {
    const s = snapshot({ running: true, remainingMs: 10_000 });
    const before = variableValues(s, viewAt(s, WALL), CONNECTED, '1.0.0');
    const after = variableValues(s, viewAt(s, WALL + 1_000), CONNECTED, '1.0.0');
    expect(changedValues(before, after)).toEqual({
      remaining: '0:09',
      remaining_signed: '-0:09',
      remaining_seconds: '09',
      remaining_ms: 9_000,
      display_time: '0:09',
      elapsed: '9:51',
      elapsed_ms: 591_000,
      progress: 99,
    });
  });
});

describe('feedbacks', () => {
  const source = (state: Snapshot | null, atMs = WALL, connected = true): FeedbackSource => ({
    snapshot: () => state,
    view: () => (state === null ? null : viewAt(state, atMs)),
    isConnected: () => connected,
  });
  const context = { parseVariablesInString: async (text: string) => text };
  const check = async (def: CompanionFeedbackDefinition | undefined, options: Record<string, string | number | boolean> = {}) => {
    if (def === undefined) throw new Error('no such feedback');
    return def.callback({ type: def.type, id: 'f', controlId: 'c', feedbackId: 'x', options, image: { width: 72, height: 72 } }, context);
  };

  it('lights running, warning and overrun as the display colours them; stopped only under stop', () => {
    const s = snapshot({ running: true, remainingMs: 70_000, warnAt: 60_000 });
    expect(flagsOf(s, viewAt(s, WALL), true)).toMatchObject({ running: true, paused: false, warning: false, overrun: false });
    expect(flagsOf(s, viewAt(s, WALL + 10_000), true)).toMatchObject({ warning: true, overrun: false });
    expect(flagsOf(s, viewAt(s, WALL + 70_000), true)).toMatchObject({ warning: true, overrun: true, stopped: false });
    const stop = snapshot({ running: false, remainingMs: 0, zero: 'stop' });
    expect(flagsOf(stop, viewAt(stop, WALL), true)).toMatchObject({ running: false, paused: false, overrun: false, stopped: true });
    expect(flagsOf(null, null, false)).toMatchObject({ running: false, connected: false });
  });

  it('evaluates the boolean feedbacks with their options', async () => {
    const s = snapshot({ active: 1, blackout: true, message: { text: 'Go', color: 'green', flash: false, bold: false } });
    const defs = feedbackDefinitions(source(s));
    expect(await check(defs.paused)).toBe(true);
    expect(await check(defs.blackout)).toBe(true);
    expect(await check(defs.onair)).toBe(false);
    expect(await check(defs.connected)).toBe(true);
    expect(await check(defs.message, { color: 'any' })).toBe(true);
    expect(await check(defs.message, { color: 'green' })).toBe(true);
    expect(await check(defs.message, { color: 'red' })).toBe(false);
    expect(await check(defs.timer_active, { by: 'position', timer: '2' })).toBe(true);
    expect(await check(defs.timer_active, { by: 'id', timer: 't1' })).toBe(false);
    expect(await check(feedbackDefinitions(source(null, WALL, false)).running)).toBe(false);
  });

  it('lights question_on_screen while a question is on the screens and questions_waiting while a new one waits', async () => {
    const both = feedbackDefinitions(source(snapshot({ questions: [question('q1', 'new'), question('q2', 'shown')] })));
    expect(await check(both.question_on_screen)).toBe(true);
    expect(await check(both.questions_waiting)).toBe(true);
    // Approved, answered and hidden ones wait for nobody; none shown is nothing on the screens.
    const dealtWith = feedbackDefinitions(source(snapshot({ questions: [question('q1', 'approved'), question('q2', 'answered'), question('q3', 'hidden')] })));
    expect(await check(dealtWith.question_on_screen)).toBe(false);
    expect(await check(dealtWith.questions_waiting)).toBe(false);
    const old = feedbackDefinitions(source(olderBox(snapshot({ questions: [question('q1', 'new'), question('q2', 'shown')] }))));
    expect(await check(old.question_on_screen)).toBe(false);
    expect(await check(old.questions_waiting)).toBe(false);
    const none = feedbackDefinitions(source(null, WALL, false));
    expect(await check(none.question_on_screen)).toBe(false);
    expect(await check(none.questions_waiting)).toBe(false);
    expect(both.question_on_screen.type === 'boolean' && both.question_on_screen.defaultStyle).toEqual({ bgcolor: 0x7a3db8, color: 0xffffff });
    expect(both.questions_waiting.type === 'boolean' && both.questions_waiting.defaultStyle).toEqual({ bgcolor: 0xffd400, color: 0x000000 });
  });

  it('re-checks the question feedbacks when a question arrives or goes on the screens, not at a second boundary', () => {
    const changed = (x: Record<string, string>, y: Record<string, string>) => Object.keys(x).filter((k) => x[k] !== y[k]);
    const empty = snapshot({ running: true, remainingMs: 70_000 });
    const arrived = snapshot({ running: true, remainingMs: 70_000, questions: [question('q1', 'new')] });
    const shown = snapshot({ running: true, remainingMs: 70_000, questions: [question('q1', 'shown')] });
    const sig = (s: Snapshot) => feedbackSignatures(s, viewAt(s, WALL), true);
    expect(changed(sig(empty), sig(arrived))).toEqual(['questions_waiting']);
    expect(changed(sig(arrived), sig(shown))).toEqual(['question_on_screen', 'questions_waiting']);
    expect(feedbackSignatures(olderBox(shown), viewAt(shown, WALL), true)).toMatchObject({ question_on_screen: 'false', questions_waiting: 'false' });
  });

  it('draws the progress bar at the bottom of the key in the colour of the phase', async () => {
    const s = snapshot({ running: true, remainingMs: 40_000, duration: 80_000, warnAt: 60_000 });
    const result = (await check(feedbackDefinitions(source(s)).progress, { place: 'bottom', height: 6, normal: 0x00ff00, warning: 0xff8000, overrun: 0xff0000, background: 0x101010 })) as CompanionAdvancedFeedbackResult;
    expect(result.imageBufferPosition).toEqual({ x: 0, y: 66, width: 72, height: 6 });
    expect(result.imageBufferEncoding).toEqual({ pixelFormat: 'RGBA' });
    const pixels = Buffer.from(result.imageBuffer as string, 'base64');
    expect(pixels.length).toBe(72 * 6 * 4);
    // Half elapsed: the left 36 columns in the warning colour, the rest background.
    expect([...pixels.subarray(35 * 4, 35 * 4 + 4)]).toEqual([0xff, 0x80, 0x00, 0xff]);
    expect([...pixels.subarray(36 * 4, 36 * 4 + 4)]).toEqual([0x10, 0x10, 0x10, 0xff]);
  });

  it('draws bars of any fraction, clamped to 0..1', () => {
    const colours = { fill: 0xffffff, background: 0x000000 };
    expect([...drawBar(4, 1, 0.5, colours)]).toEqual([255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255]);
    expect(drawBar(4, 1, 7, colours).every((b) => b === 255)).toBe(true);
  });

  it('re-checks a feedback only when what it shows changes', () => {
    const s = snapshot({ running: true, remainingMs: 70_000, warnAt: 60_000 });
    const a = feedbackSignatures(s, viewAt(s, WALL), true);
    const b = feedbackSignatures(s, viewAt(s, WALL + 1_000), true);
    const c = feedbackSignatures(s, viewAt(s, WALL + 10_000), true);
    const changed = (x: typeof a, y: typeof a) => (Object.keys(x) as (keyof typeof a)[]).filter((k) => x[k] !== y[k]);
    expect(changed(a, b)).toEqual(['progress']);
    expect(changed(b, c)).toEqual(['warning', 'progress']);
  });
});

describe('connection status', () => {
  it('maps each state to a Companion status with a clear message', () => {
    expect(statusOf(CONNECTED)).toEqual({ status: InstanceStatus.Ok, message: 'Connected (Showclock API 1.0.0)' });
    expect(statusOf({ kind: 'wrong-key', message: 'invalid API key', retryInMs: 60_000 }).status).toBe(InstanceStatus.AuthenticationFailure);
    expect(statusOf({ kind: 'unreachable', reason: 'connection refused', retryInMs: 4_000 })).toEqual({
      status: InstanceStatus.ConnectionFailure,
      message: 'Unreachable: connection refused; trying again in 4 s',
    });
    expect(statusOf({ kind: 'rate-limited', message: 'rate limit exceeded', retryInMs: 30_000 }).status).toBe(InstanceStatus.UnknownWarning);
    expect(statusOf({ kind: 'too-old', reason: 'API 1.0.0 lacks events', retryInMs: 60_000 }).message).toMatch(/too old.*Update Showclock/);
    expect(statusOf({ kind: 'not-configured', problem: 'Enter the host' }).status).toBe(InstanceStatus.BadConfig);
    expect(connectionWord({ kind: 'wrong-key', message: '', retryInMs: 1 })).toBe('wrong key');
  });
});
