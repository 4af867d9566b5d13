// Buttons against the in-memory GPIO and a real RoomService on a hand-moved
// clock: debounce, short and long press, reset only as a long press, no repeats
// from a held or bouncing button, a stuck button logged once, and the same
// commands as HTTP.
import { describe, expect, it } from 'vitest';
import { buttonSpec } from '../../src/gpio/button-actions.js';
import { ButtonBinding, STUCK_AFTER_MS } from '../../src/gpio/button-binding.js';
import { MemoryGpio } from '../../src/gpio/memory-gpio.js';
import type { ButtonConfig } from '../../src/config/gpio-config.js';
import { gpioConfigSchema } from '../../src/config/gpio-config.js';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';
import { WARN, capturingLogger, rig, roomOfDurations, type Rig } from './gpio-fixtures.js';

const PIN = 5;
const DOWN = false;
const UP = true;

function button(r: Rig, config: Omit<ButtonConfig, 'pin'>, gpio = new MemoryGpio()) {
  // Through the schema, as a config file would be.
  const parsed = gpioConfigSchema().parse({ buttons: [{ pin: PIN, ...config }] }).buttons?.[0];
  if (parsed === undefined) throw new Error('no button parsed');
  const binding = new ButtonBinding({ port: gpio, spec: buttonSpec(parsed), sink: r.service, clock: r.clock, scheduler: r.clock.scheduler, logger: r.logger });
  binding.start();
  /** A clean press: down for `ms`, then up, with time to settle after. */
  const press = (ms = 100) => {
    gpio.setInput(PIN, DOWN);
    r.clock.advance(ms);
    gpio.setInput(PIN, UP);
    r.clock.advance(100);
  };
  return { gpio, binding, press };
}

const gpioCommands = (r: Rig) => r.changes.filter((c) => c.source === 'gpio').map((c) => (c.cause === 'zero' ? 'zero' : c.cause.type));

describe('a button', () => {
  it('gives exactly one command per press, through dispatch with source gpio', () => {
    const r = rig();
    const { press } = button(r, { action: 'toggle' });
    press();
    expect(r.service.room.transport.running).toBe(true);
    press();
    expect(r.service.room.transport.running).toBe(false);
    expect(gpioCommands(r)).toEqual(['toggle', 'toggle']);
  });

  it('acts after debounceMs of a steady level (30 ms by default)', () => {
    const r = rig();
    const { gpio } = button(r, { action: 'toggle_onair' });
    gpio.setInput(PIN, DOWN);
    r.clock.advance(29);
    expect(r.service.room.onAir).toBe(false);
    r.clock.advance(1);
    expect(r.service.room.onAir).toBe(true);
  });

  it('turns a bouncing contact into one press', () => {
    const r = rig();
    const { gpio } = button(r, { action: 'toggle_onair' });
    // Bounce for 12 ms on the way down and on the way up.
    for (let i = 0; i < 6; i += 1) {
      gpio.setInput(PIN, DOWN);
      r.clock.advance(1);
      gpio.setInput(PIN, UP);
      r.clock.advance(1);
    }
    gpio.setInput(PIN, DOWN);
    r.clock.advance(200);
    for (let i = 0; i < 6; i += 1) {
      gpio.setInput(PIN, UP);
      r.clock.advance(1);
      gpio.setInput(PIN, DOWN);
      r.clock.advance(1);
    }
    gpio.setInput(PIN, UP);
    r.clock.advance(200);
    expect(gpioCommands(r)).toEqual(['onair.toggle']);
  });

  it('ignores a spike shorter than the debounce time', () => {
    const r = rig();
    const { gpio } = button(r, { action: 'toggle', debounceMs: 50 });
    gpio.setInput(PIN, DOWN);
    r.clock.advance(20);
    gpio.setInput(PIN, UP);
    r.clock.advance(500);
    expect(gpioCommands(r)).toEqual([]);
  });

  it('never repeats while held, logs a stuck button once, and works again after release', () => {
    const r = rig();
    const { gpio, press } = button(r, { action: 'adjust', ms: 10_000 });
    gpio.setInput(PIN, DOWN);
    r.clock.advance(5 * 60_000);
    expect(gpioCommands(r)).toEqual(['adjust']);
    const stuck = r.records().filter((l) => l.level === WARN && String(l.msg).includes('stuck'));
    expect(stuck).toHaveLength(1);
    expect(stuck[0]?.heldMs).toBe(STUCK_AFTER_MS);
    gpio.setInput(PIN, UP);
    r.clock.advance(100);
    press();
    expect(gpioCommands(r)).toEqual(['adjust', 'adjust']);
    expect(r.records().filter((l) => String(l.msg).includes('stuck'))).toHaveLength(1);
  });

  it('gives the short action on release and the long action once at holdMs', () => {
    const r = rig();
    const { gpio, press } = button(r, { action: 'adjust', ms: 60_000, hold: 'adjust', holdAdjustMs: 300_000 });
    const remaining = () => (r.service.room.transport.running ? NaN : r.service.room.transport.remainingMs);
    press(300);
    expect(remaining()).toBe(660_000);
    gpio.setInput(PIN, DOWN);
    r.clock.advance(30 + 799);
    expect(remaining()).toBe(660_000);
    r.clock.advance(1);
    expect(remaining()).toBe(960_000);
    // Held on for a minute, then released: nothing more.
    r.clock.advance(60_000);
    gpio.setInput(PIN, UP);
    r.clock.advance(100);
    expect(remaining()).toBe(960_000);
    expect(gpioCommands(r)).toEqual(['adjust', 'adjust']);
  });

  it('resets only on a long press, so a brush of the hand cannot reset a running speaker', () => {
    const r = rig();
    const { press } = button(r, { hold: 'reset', holdMs: 1000 });
    r.service.dispatch({ type: 'start' }, 'http-v1');
    r.clock.advance(120_000);
    press(200);
    expect(r.service.room.transport.running).toBe(true);
    expect(r.records().some((l) => String(l.msg).includes('a short press does nothing'))).toBe(true);
    press(1_100);
    expect(r.service.room.transport).toEqual({ running: false, remainingMs: 600_000 });
    expect(gpioCommands(r)).toEqual(['reset']);
  });

  it('resets on a short press only when the config allows it', () => {
    const r = rig();
    const { press } = button(r, { action: 'reset', allowShortReset: true });
    r.service.dispatch({ type: 'start' }, 'http-v1');
    r.clock.advance(5_000);
    press();
    expect(r.service.room.transport).toEqual({ running: false, remainingMs: 600_000 });
  });

  it('held down at start gives no command, says so, and works once released', () => {
    const r = rig();
    const gpio = new MemoryGpio();
    gpio.setInput(PIN, DOWN);
    const { press } = button(r, { action: 'toggle' }, gpio);
    r.clock.advance(60_000);
    expect(gpioCommands(r)).toEqual([]);
    expect(r.records().filter((l) => l.level === WARN && String(l.msg).includes('pressed at start'))).toHaveLength(1);
    gpio.setInput(PIN, UP);
    r.clock.advance(100);
    expect(gpioCommands(r)).toEqual([]);
    press();
    expect(gpioCommands(r)).toEqual(['toggle']);
  });

  it('is not rate-limited: 150 presses in a minute are 150 commands', () => {
    const r = rig();
    const { press } = button(r, { action: 'toggle_blackout', debounceMs: 10 });
    const seqBefore = r.service.room.seq;
    for (let i = 0; i < 150; i += 1) press(150);
    expect(r.service.room.seq - seqBefore).toBe(150);
  });

  it('logs a refused command and carries on', () => {
    const r = rig(roomOfDurations([60_000]));
    const { press } = button(r, { action: 'next' });
    expect(() => press()).not.toThrow();
    const refused = r.records().find((l) => l.level === WARN && l.action === 'next');
    expect(refused?.error).toMatch(/no next timer/);
  });

  it('stops listening when closed', () => {
    const r = rig();
    const { gpio, binding, press } = button(r, { action: 'toggle' });
    gpio.setInput(PIN, DOWN);
    binding.close();
    r.clock.advance(100);
    expect(gpio.isOpen(PIN)).toBe(false);
    expect(() => press()).not.toThrow();
    expect(gpioCommands(r)).toEqual([]);
  });
});

describe('buttons and HTTP', () => {
  // Every action on two identical rooms: one driven by a button, one by GET /api/v1/{key}/{cmd}.
  const cases: { config: Omit<ButtonConfig, 'pin'>; path: string }[] = [
    { config: { action: 'toggle' }, path: '/toggle' },
    { config: { action: 'start' }, path: '/start' },
    { config: { action: 'pause' }, path: '/pause' },
    { config: { hold: 'reset' }, path: '/reset' },
    { config: { action: 'next' }, path: '/next' },
    { config: { action: 'previous' }, path: '/previous' },
    { config: { action: 'adjust', ms: -30_000 }, path: '/adjust?ms=-30000' },
    { config: { action: 'toggle_blackout' }, path: '/toggle_blackout' },
    { config: { action: 'toggle_onair' }, path: '/toggle_onair' },
    { config: { action: 'clear_message' }, path: '/clear_message' },
    { config: { action: 'aux_toggle' }, path: '/aux_toggle' },
    { config: { hold: 'aux_reset' }, path: '/aux_reset' },
  ];

  it.each(cases)('$path from a button and from HTTP leave the same room', async ({ config, path }) => {
    const viaButton = createTestApp({ room: roomWithTimers(3) });
    const viaHttp = createTestApp({ room: roomWithTimers(3) });
    // The same busy room on both: second timer, running for 10 s, a message up.
    for (const t of [viaButton, viaHttp]) {
      expect((await t.get('v1', '/timer/t2/select')).status).toBe(200);
      expect((await t.get('v1', '/message/set?text=Wrap%20up')).status).toBe(200);
      expect((await t.get('v1', '/start')).status).toBe(200);
      expect((await t.get('v1', '/aux_start')).status).toBe(200);
      t.clock.advance(10_000);
    }
    const gpio = new MemoryGpio();
    const parsed = gpioConfigSchema().parse({ buttons: [{ pin: PIN, ...config }] }).buttons?.[0];
    if (parsed === undefined) throw new Error('no button parsed');
    const binding = new ButtonBinding({
      port: gpio,
      spec: buttonSpec(parsed),
      sink: viaButton.service,
      clock: viaButton.clock,
      scheduler: viaButton.clock.scheduler,
      logger: capturingLogger().logger,
    });
    binding.start();
    const seqBefore = viaButton.service.room.seq;
    const heldMs = config.hold === undefined ? 50 : 900;
    gpio.setInput(PIN, DOWN);
    viaButton.clock.advance(heldMs);
    gpio.setInput(PIN, UP);
    // The HTTP side acts at the instant the button's command went out.
    const actedAtMs = config.hold === undefined ? 30 : 30 + 800;
    viaHttp.clock.advance(actedAtMs);
    expect((await viaHttp.get('v1', path)).status).toBe(200);
    viaButton.clock.advance(100);
    viaHttp.clock.advance(heldMs + 100 - actedAtMs);
    expect(viaButton.service.room).toEqual(viaHttp.service.room);
    // Each press changed the room once (start on a running timer changes nothing, over HTTP too).
    expect(viaButton.service.room.seq).toBe(seqBefore + (path === '/start' ? 0 : 1));
  });
});
