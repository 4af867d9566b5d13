// What MQTT publishes and how it reads commands, without a broker: the phase and
// when it next changes by itself, and refusals in the words HTTP v1 gives.
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../src/commands/input.js';
import { operations } from '../../src/commands/operations.js';
import { resolveMqttCommand } from '../../src/mqtt/mqtt-commands.js';
import { nextPhaseChangeAt, phaseOf, stateTopics } from '../../src/mqtt/mqtt-topics.js';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';

const base = { running: true, started: true, remaining: 100_000, warnAt: 60_000, dangerAt: 30_000 };

describe('MQTT phase', () => {
  it('names what the room is doing', () => {
    expect(phaseOf({ ...base, running: false, started: false })).toBe('ready');
    expect(phaseOf({ ...base, running: false })).toBe('paused');
    expect(phaseOf(base)).toBe('running');
    expect(phaseOf({ ...base, remaining: 60_000 })).toBe('warning');
    expect(phaseOf({ ...base, remaining: 30_000 })).toBe('danger');
    expect(phaseOf({ ...base, remaining: 0 })).toBe('overrun');
    expect(phaseOf({ ...base, remaining: 10_000, dangerAt: 0, warnAt: 0 })).toBe('running');
  });

  it('changes by itself only while running, at the next threshold', async () => {
    const t = createTestApp({ room: roomWithTimers(2) });
    expect(nextPhaseChangeAt(t.service.snapshot())).toBeNull();
    await t.post('v1', '/start');
    const snapshot = t.service.snapshot();
    const at = nextPhaseChangeAt(snapshot);
    expect(at).not.toBeNull();
    expect(at!).toBeGreaterThan(snapshot.serverNow);
    expect(at!).toBeLessThanOrEqual(snapshot.endAt!);
    const topics = stateTopics(snapshot);
    expect(topics.get('running')).toBe('true');
    expect(Date.parse(topics.get('endsAt') ?? '')).toBe(snapshot.endAt);
    // No topic is ever empty: an empty retained message would delete the topic.
    expect([...topics.values()].every((payload) => payload !== '')).toBe(true);
  });
});

describe('MQTT commands', () => {
  const http = (name: string, query: string) => {
    const op = operations.find((candidate) => candidate.operationId === `v1_${name}`)!;
    const parsed = parseInput(op, 'POST', { url: `http://box/api/v1/k/${name}?${query}`, contentType: undefined, body: '' });
    return parsed.ok ? null : parsed.error;
  };

  it('refuses what HTTP v1 refuses, in its words', () => {
    for (const [name, payload, query] of [
      ['adjust', 'abc', 'ms=abc'],
      ['adjust', '1.5', 'ms=1.5'],
      ['message', '', 'text='],
      ['aux_adjust', '', 'ms='],
    ] as const) {
      const resolved = resolveMqttCommand(name, payload);
      expect(resolved.kind).toBe('refused');
      expect(resolved.kind === 'refused' ? resolved.error : '').toBe(http(name, query));
    }
  });

  it('reads switches, numbers, text and JSON', () => {
    expect(resolveMqttCommand('onair', 'ON')).toEqual({ kind: 'command', command: expect.objectContaining({ on: true }) });
    expect(resolveMqttCommand('onair', 'false')).toEqual({ kind: 'command', command: expect.objectContaining({ on: false }) });
    expect(resolveMqttCommand('blackout', '1')).toEqual({ kind: 'command', command: expect.objectContaining({ on: true }) });
    expect(resolveMqttCommand('onair', 'maybe')).toEqual({ kind: 'refused', error: expect.stringContaining('on: must be ON or OFF') });
    expect(resolveMqttCommand('adjust', ' -30000 ')).toMatchObject({ kind: 'command' });
    expect(resolveMqttCommand('message', 'Five & a half minutes')).toMatchObject({ kind: 'command' });
    expect(resolveMqttCommand('message', '{"text":"5 min","color":"red"}')).toMatchObject({ kind: 'command' });
    expect(resolveMqttCommand('start', 'PRESS')).toMatchObject({ kind: 'command' });
    expect(resolveMqttCommand('launch', '')).toEqual({ kind: 'refused', error: expect.stringContaining('unknown command "launch"; commands: start, pause') });
  });
});
