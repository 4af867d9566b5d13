// The screen over HDMI-CEC on the keys (issue 33): the `screen` action sends
// /screen/on|standby|active, and the `screen_on` feedback and `screen_power` variable follow
// what the screen answered the box (`screen.report` from the CEC adapter, into a real
// RoomService). A box without screen control, or older than it, reads as `none`.
import type { CompanionButtonPresetDefinition, CompanionFeedbackDefinition } from '@companion-module/base';
import { describe, expect, it } from 'vitest';
import { feedbackDefinitions, feedbackSignatures, type FeedbackSource } from '../../src/companion/feedbacks.js';
import { presetDefinitions } from '../../src/companion/presets.js';
import { toApiCall } from '../../src/companion/requests.js';
import { screenOf } from '../../src/companion/room-screen.js';
import { viewAt } from '../../src/companion/room-view.js';
import { variableValues } from '../../src/companion/variables.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { ScreenPower } from '../../src/domain/types.js';
import { createTestApp } from '../helpers/test-app.js';
import { actionFiring } from './action-firing.js';

const CONNECTED = { kind: 'connected', apiVersion: '1.0.0' } as const;

async function lit(state: Snapshot | null): Promise<boolean> {
  const source: FeedbackSource = { snapshot: () => state, view: () => (state === null ? null : viewAt(state, state.serverNow)), isConnected: () => state !== null };
  const def = feedbackDefinitions(source).screen_on as CompanionFeedbackDefinition;
  const answer = await def.callback(
    { type: def.type, id: 'f', controlId: 'c', feedbackId: 'screen_on', options: {}, image: { width: 72, height: 72 } },
    { parseVariablesInString: async (text: string) => text },
  );
  return answer === true;
}

describe('the screen on the keys', () => {
  it('the action sends on, standby or active to /screen/*', async () => {
    const { fire } = actionFiring();
    for (const request of ['on', 'standby', 'active'] as const) {
      const sent = await fire('screen', { request });
      expect(sent).toEqual({ type: 'screen', request });
      if (typeof sent === 'string') throw new Error(sent);
      expect(toApiCall(sent, null)).toEqual({ ok: true, call: { method: 'POST', path: `/screen/${request}`, body: {}, name: `screen ${request}` } });
    }
    // A value the dropdown never offers (an edited config) falls back to on.
    expect(await fire('screen', { request: 'reboot' })).toEqual({ type: 'screen', request: 'on' });
  });

  it('the feedback and the variable follow what the screen answered', async () => {
    const t = createTestApp();
    const report = (power: ScreenPower) => t.service.dispatch({ type: 'screen.report', report: { power, problem: null } }, 'cec');
    const now = async () => {
      const state = t.service.snapshot();
      return { power: variableValues(state, viewAt(state, state.serverNow), CONNECTED, '1.0.0').screen_power, lit: await lit(state), signature: feedbackSignatures(state, null, true).screen_on };
    };
    expect(await now()).toEqual({ power: 'none', lit: false, signature: 'false' });
    report('standby');
    expect(await now()).toEqual({ power: 'standby', lit: false, signature: 'false' });
    report('to-on');
    expect(await now()).toEqual({ power: 'to-on', lit: true, signature: 'true' });
    report('on');
    expect(await now()).toEqual({ power: 'on', lit: true, signature: 'true' });
    report('unavailable');
    expect(await now()).toEqual({ power: 'unavailable', lit: false, signature: 'false' });
  });

  it('reads a box older than screen control, or a power word it does not know', () => {
    const state = createTestApp().service.snapshot();
    const { screen: _screen, ...older } = state;
    expect(screenOf(older as Snapshot)).toBe('none');
    expect(screenOf({ ...state, screen: { power: 'sleeping', problem: null } } as unknown as Snapshot)).toBe('unknown');
    expect(screenOf(null)).toBe('none');
  });

  it('the Screen preset page: on, standby and active source press the action, and only the keys that ask for on light with screen_on', async () => {
    const { fire } = actionFiring();
    const keys = Object.values(presetDefinitions('sc')).filter((p): p is CompanionButtonPresetDefinition => p?.type === 'button' && p.category === 'Screen');
    const pressed: string[] = [];
    for (const key of keys) {
      const [down] = key.steps.flatMap((step) => step.down);
      if (down === undefined) throw new Error(`${key.name}: no action`);
      const sent = await fire(down.actionId, down.options);
      if (typeof sent === 'string' || sent.type !== 'screen') throw new Error(`${key.name}: ${JSON.stringify(sent)}`);
      pressed.push(sent.request);
      expect(key.feedbacks.map((f) => f.feedbackId), key.name).toEqual(sent.request === 'standby' ? [] : ['screen_on']);
    }
    expect(pressed.sort()).toEqual(['active', 'on', 'standby']);
    // The on key says what the screen last answered, so a press that was refused is visible on the key.
    expect(keys.find((key) => key.name === 'Screen on')?.style.text).toContain('$(sc:screen_power)');
  });
});
