// The ready-made buttons: each one names only actions, feedbacks and variables
// the module has (a typo would give a dead key with no error anywhere), and the
// moderator's Questions keys are what the README promises.
import type { CompanionButtonPresetDefinition } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { actionDefinitions } from '../../src/companion/actions.js';
import { COLOURS, FEEDBACK_IDS } from '../../src/companion/feedbacks.js';
import { presetDefinitions } from '../../src/companion/presets.js';
import { VARIABLES } from '../../src/companion/variables.js';

const presets = presetDefinitions('sc');
const buttons = Object.entries(presets).flatMap(([id, p]) => (p?.type === 'button' ? [[id, p] as [string, CompanionButtonPresetDefinition]] : []));

describe('presets', () => {
  it('name only actions, feedbacks and variables the module has', () => {
    const actions = new Set(Object.keys(actionDefinitions({ run: async () => {}, reject: () => {} })));
    const feedbacks = new Set<string>(FEEDBACK_IDS);
    const variables = new Set<string>(VARIABLES.map((v) => v.variableId));
    expect(buttons.length).toBeGreaterThan(0);
    for (const [id, p] of buttons) {
      for (const step of p.steps) for (const a of [...step.down, ...step.up]) expect(actions.has(a.actionId), `${id}: action ${a.actionId}`).toBe(true);
      for (const f of p.feedbacks) expect(feedbacks.has(f.feedbackId), `${id}: feedback ${f.feedbackId}`).toBe(true);
      for (const [, variable] of p.style.text.matchAll(/\$\(sc:([a-z_]+)\)/g)) expect(variables.has(variable as string), `${id}: variable ${variable}`).toBe(true);
    }
  });

  it('give a moderator the questions waiting, take off screen and the question on screen', () => {
    const questions = Object.fromEntries(buttons.filter(([, p]) => p.category === 'Questions'));
    expect(Object.keys(questions).sort()).toEqual(['question_text', 'question_unshow', 'questions_waiting']);
    expect(questions.questions_waiting).toMatchObject({
      style: { text: 'NEW Q\n$(sc:questions_new)' },
      feedbacks: [{ feedbackId: 'questions_waiting', style: { bgcolor: COLOURS.yellow, color: COLOURS.black } }],
      // Shows only: a stray press changes nothing.
      steps: [{ down: [], up: [] }],
    });
    expect(questions.question_unshow).toMatchObject({
      feedbacks: [{ feedbackId: 'question_on_screen', style: { bgcolor: COLOURS.purple } }],
      steps: [{ down: [{ actionId: 'question_unshow', options: {} }], up: [] }],
    });
    expect(questions.question_text).toMatchObject({ style: { text: '$(sc:question_text)' }, steps: [{ down: [], up: [] }] });
  });

  it('give an offset key, red behind and green ahead, and aux keys that press the aux actions', () => {
    const byId = Object.fromEntries(buttons);
    expect(byId.schedule_offset).toMatchObject({
      category: 'Schedule',
      style: { text: '$(sc:offset)\nEND $(sc:show_end)' },
      feedbacks: [
        { feedbackId: 'schedule_offset', options: { state: 'behind' }, style: { bgcolor: COLOURS.red } },
        { feedbackId: 'schedule_offset', options: { state: 'ahead' }, style: { bgcolor: COLOURS.green } },
      ],
      steps: [{ down: [], up: [] }],
    });
    const aux = buttons.filter(([, p]) => p.category === 'Aux timer');
    const pressed = aux.flatMap(([, p]) => p.steps.flatMap((step) => step.down.map((a) => a.actionId)));
    expect(new Set(pressed)).toEqual(new Set(['aux_toggle', 'aux_start', 'aux_pause', 'aux_reset', 'aux_adjust', 'aux_set']));
    expect(byId.aux_toggle).toMatchObject({ style: { text: '$(sc:aux_label)\n$(sc:aux_time)' }, feedbacks: [{ feedbackId: 'aux_running' }, { feedbackId: 'aux_overrun' }] });
  });
});
