// The OSC and plain-text inputs on real loopback UDP ports, in process: commands
// change the room exactly as the same HTTP requests do, through the same dispatch
// (source osc / udp-text) and the same per-key quota; every kind of bad input is
// dropped, logged once per cause per minute without the key, and answered only
// when `osc.reply` is on.
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomChange } from '../../src/app/room-service.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { BadInputLog } from '../../src/osc/bad-input-log.js';
import { Refusals, REPLIES_PER_ADDRESS, REPLIES_PER_MINUTE } from '../../src/osc/refusals.js';
import { capturingLogger } from '../gpio/gpio-fixtures.js';
import { createTestApp, roomWithTimers } from '../helpers/test-app.js';
import { API_KEY, oscBytes, udpRig, until, type UdpRig } from './udp-rig.js';

let rig: UdpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function open(opts: Parameters<typeof udpRig>[0] = {}): Promise<UdpRig> {
  rig = await udpRig({ app: { room: roomWithTimers(3), ...opts.app }, ...opts });
  return rig;
}

const at = (command: string) => `/showclock/${API_KEY}${command}`;

/** A command that flips ON AIR, sent last: once it has acted, every datagram sent before it has been handled. */
async function barrier(r: UdpRig): Promise<void> {
  const before = r.t.service.room.onAir;
  r.sendOsc({ address: at('/toggle_onair'), args: [] });
  await until(() => r.t.service.room.onAir !== before, 'the barrier command');
}

function comparable(snapshot: Snapshot): Omit<Snapshot, 'serverNow'> {
  const { serverNow: _serverNow, ...rest } = snapshot;
  return rest;
}

const warnings = (r: UdpRig) => r.logs().filter((line) => line.level === 40);

describe('commands', () => {
  it('every command of the list changes the room as the same HTTP request does', async () => {
    const r = await open();
    const http = createTestApp({ room: roomWithTimers(3) });
    const steps: [osc: string, args: unknown[], http: string][] = [
      ['/start', [], '/start'],
      ['/adjust', [{ type: 'integer', value: 60_000 }], '/adjust?ms=60000'],
      ['/adjust', [{ type: 'float', value: -30_000 }], '/adjust?ms=-30000'],
      ['/message', ['Wrap up', 'red', { type: 'integer', value: 1 }, { type: 'false' }], '/message?text=Wrap%20up&color=red&flash=1&bold=0'],
      ['/blackout', [{ type: 'integer', value: 1 }], '/blackout?on=1'],
      ['/onair', [{ type: 'true' }], '/onair?on=1'],
      ['/toggle_blackout', [], '/toggle_blackout'],
      ['/pause', [], '/pause'],
      ['/timer/index/2/select', [], '/timer/t2/select'],
      ['/toggle', [], '/toggle'],
      ['/settings/zeroBehavior', ['stop'], '/settings?zeroBehavior=stop'],
      ['/settings/autoAdvance', [{ type: 'integer', value: 1 }], '/settings?autoAdvance=1'],
      ['/next', [], '/next'],
      ['/previous', [], '/previous'],
      ['/stop', [], '/stop'],
      ['/reset', [], '/reset'],
      ['/clear_message', [], '/clear_message'],
      ['/toggle_onair', [], '/toggle_onair'],
      ['/blackout', [{ type: 'float', value: 0 }], '/blackout?on=0'],
      ['/onair', ['0'], '/onair?on=0'],
      ['/timer/t3/select', [], '/timer/t3/select'],
    ];
    const accepted = () => r.logs().filter((line) => line.msg === 'command').length;
    for (const [index, [command, args, path]] of steps.entries()) {
      r.sendOsc({ address: at(command), args: args as never });
      await until(() => accepted() === index + 1, `${command} to be taken`);
      expect((await http.get('v1', path)).status).toBe(200);
      r.t.clock.advance(1_000);
      http.clock.advance(1_000);
      expect(comparable(r.t.service.snapshot()), command).toEqual(comparable(http.service.snapshot()));
    }
    expect(warnings(r)).toEqual([]);
    expect(r.logs().filter((line) => line.msg === 'command').map((line) => line.command)).toEqual(steps.map(([command]) => command.replace('/index/2/', '/index/{n}/').replace('/t3/', '/{id}/')));
  });

  it('goes through the same dispatch, marked osc or udp-text', async () => {
    const r = await open();
    const changes: RoomChange[] = [];
    r.t.service.subscribe((change) => void changes.push(change));
    r.sendOsc({ address: at('/start'), args: [] });
    await until(() => changes.length === 1, 'the OSC change');
    r.sendText(`${API_KEY} message "Wrap up, please" green 0 1\n`);
    await until(() => changes.length === 2, 'the plain-text change');
    expect(changes.map((change) => change.source)).toEqual(['osc', 'udp-text']);
    expect(r.t.service.room.message).toEqual({ text: 'Wrap up, please', color: 'green', flash: false, bold: true });
  });

  it('a bundle acts message by message, in order, nested bundles too', async () => {
    const r = await open();
    r.sendOsc({
      timetag: [0, 1],
      elements: [
        { address: at('/timer/index/3/select'), args: [] },
        { timetag: [0, 1], elements: [{ address: at('/adjust'), args: [{ type: 'integer', value: 5_000 }] }, { address: at('/start'), args: [] }] },
      ],
    });
    await until(() => r.t.service.room.transport.running, 'the bundle');
    expect(r.t.service.snapshot()).toMatchObject({ activeTimerId: 't3', remaining: 180_000 + 5_000, running: true });
  });

  it("a push button's press acts and its release does nothing", async () => {
    const r = await open();
    r.sendOsc({ address: at('/next'), args: [{ type: 'float', value: 1 }] });
    r.sendOsc({ address: at('/next'), args: [{ type: 'float', value: 0 }] });
    await barrier(r);
    expect(r.t.service.room.activeTimerId).toBe('t2');
    expect(warnings(r)).toEqual([]);
  });

  it('a rotated key works at once, and the old one is refused', async () => {
    let key = API_KEY;
    const r = await open({ apiKey: () => key, osc: { reply: true } });
    // The console proved the key of then, so it is told when it keeps sending it.
    r.sendOsc({ address: at('/toggle_blackout'), args: [] });
    await until(() => r.t.service.room.blackout, 'the key of then');
    key = 'RotatedKey_0123456789abcdef';
    r.sendOsc({ address: at('/start'), args: [] });
    r.sendOsc({ address: `/showclock/${key}/toggle_onair`, args: [] });
    await until(() => r.t.service.room.onAir, 'the new key');
    expect(r.t.service.room.transport.running).toBe(false);
    await until(() => r.replies.length === 1, 'the refusal');
    expect(r.replies[0]?.osc).toEqual({ address: '/showclock/error', args: ['invalid API key: use the key shown in the control room (npm run key prints it)'] });
  });
});

describe('the per-key quota, shared with HTTP', () => {
  it('HTTP and OSC spend one quota; past it both are refused', async () => {
    const r = await open({ app: { limit: 5 }, osc: { reply: true } });
    for (let i = 0; i < 3; i += 1) expect((await r.t.get('v1', '/state')).status).toBe(200);
    r.sendOsc({ address: at('/start'), args: [] });
    r.sendText(`${API_KEY} adjust 1000`);
    await until(() => r.t.service.room.seq === 3, 'two changes');
    r.sendOsc({ address: at('/toggle_onair'), args: [] });
    await until(() => r.replies.length === 1, 'the refusal');
    expect(r.replies[0]?.osc?.args).toEqual(['rate limit exceeded: at most 5 requests per minute; try again in 60 s']);
    expect(r.t.service.room.onAir).toBe(false);
    expect((await r.t.get('v1', '/state')).status).toBe(429);
    // A new window: both get through again.
    r.t.clock.advance(60_000);
    await barrier(r);
    expect((await r.t.get('v1', '/state')).status).toBe(200);
  });

  it('refused messages count too, and wrong keys are counted per sender address as over HTTP', async () => {
    const r = await open({ app: { limit: 3 } });
    r.sendOsc({ address: at('/adjust'), args: ['soon'] });
    r.sendOsc({ address: at('/nonsense'), args: [] });
    await barrier(r);
    expect(r.t.limiter.hit('room').allowed).toBe(false);
    for (let i = 0; i < 3; i += 1) r.sendOsc({ address: '/showclock/WrongKey_0123456789abcdef/start', args: [] });
    await until(() => r.logs().some((line) => line.cause === 'osc wrong-key'), 'the wrong key line');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.t.limiter.hit('address:127.0.0.1')).toMatchObject({ allowed: false });
  });
});

describe('bad input', () => {
  it('never logs the key: not the right one, not a wrong one, not one inside junk', async () => {
    const r = await open();
    const nearKey = `${API_KEY}x`;
    r.sendOsc({ address: `/showclock/${nearKey}/start`, args: [] });
    r.sendOsc({ address: `/Showclock/${API_KEY}/start`, args: [] });
    r.sendOsc(Buffer.from(`/showclock/${API_KEY}/start`));
    r.sendOsc({ address: at('/message'), args: [{ type: 'blob', value: Buffer.from(API_KEY) }] });
    r.sendText(`${nearKey} start`);
    r.sendText(`${API_KEY} "start`);
    await barrier(r);
    expect(r.logs().map((line) => line.cause).filter((cause) => cause !== undefined)).toEqual([
      'osc wrong-key',
      'osc address',
      'osc malformed',
      'osc bad-input /message',
      'udp-text wrong-key',
      'udp-text malformed',
    ]);
    const text = r.lines.join('\n');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(API_KEY.slice(0, 12));
  });

  it('every kind is logged once per cause per minute, then how many more there were', async () => {
    const r = await open();
    const junk = [
      Buffer.alloc(0),
      Buffer.from([0xff, 0x00, 0x13, 0x37]),
      Buffer.from('/x\0\0,i\0\0'), // an int promised, none there
      Buffer.from('/x\0\0,q\0\0'), // a type tag nobody knows
      Buffer.from('#bundle\0\0\0\0\0\0\0\0\x01\0\0\0\x40'), // an element longer than the packet
      Buffer.from('/x\0\0,s\0\0abc'), // a string without its terminator
    ];
    // 20 rounds: the keyed ones (60) stay within the quota, so the barrier still gets through.
    for (let round = 0; round < 20; round += 1) {
      for (const datagram of junk) r.sendOsc(datagram);
      r.sendOsc({ address: '/other/thing', args: [] });
      r.sendOsc({ address: at(''), args: [] });
      r.sendOsc({ address: at('/adjust'), args: [{ type: 'string', value: 'soon' }] });
      r.sendOsc({ address: at('/next'), args: [] });
    }
    await barrier(r);
    expect(r.logs().filter((line) => line.level === 40).map((line) => [line.cause, line.msg])).toEqual([
      ['osc malformed', expect.stringMatching(/^refused OSC input: not an OSC packet \(/)],
      ['osc address', 'refused OSC input: not a Showclock address; OSC addresses are /showclock/{api_key}/<command>, e.g. /showclock/KEY/start'],
      ['osc unknown-command', expect.stringMatching(/^refused OSC input: unknown command "\/"; commands: \/start, /)],
      ['osc bad-input /adjust', expect.stringMatching(/^refused OSC input: ms: must be a whole number written in decimal/)],
      ['osc refused /next', 'refused OSC input: no next timer: "Timer 3" is the last timer in the running order'],
    ]);
    // The first two nexts went through (t1 to t2, t2 to t3), the rest were refused.
    const before = r.lines.length;
    r.t.clock.advance(60_000);
    r.sendOsc(Buffer.from('junk'));
    await until(() => r.lines.length >= before + 2, 'the summary and the new line');
    const summary = r.logs().find((line) => line.cause === 'osc malformed' && typeof line.suppressed === 'number');
    expect(summary).toMatchObject({ suppressed: 6 * 20 - 1, msg: `${6 * 20 - 1} more refused UDP input (osc malformed) in the last minute, not logged one by one` });
  });

  it('answers nothing unless osc.reply is on', async () => {
    const r = await open();
    r.sendOsc(Buffer.from('junk'));
    r.sendText('nonsense');
    await barrier(r);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(r.replies).toEqual([]);
  });

  it('with osc.reply, answers each refusal with its message, at most 20 a minute per address', async () => {
    const r = await open({ osc: { reply: true } });
    r.sendOsc({ address: at('/adjust'), args: ['soon'] });
    await until(() => r.replies.length === 1, 'the answer');
    const expected = ((await createTestApp().get('v1', '/adjust?ms=soon')).json() as Promise<{ error: string }>).then((body) => body.error);
    expect(r.replies[0]?.osc).toEqual({ address: '/showclock/error', args: [await expected] });
    r.sendText(`${API_KEY} timer/index/9/select`);
    await until(() => r.replies.length === 2, 'the plain-text answer');
    expect(r.replies[1]?.text).toBe('showclock error: index: no timer at position 9: the running order has 3; give the timer\'s 1-based position in the running order, 1 to 3, e.g. /timer/index/1/select for the first\n');
    for (let i = 0; i < 40; i += 1) r.sendOsc(Buffer.from('junk'));
    await until(() => r.replies.length === REPLIES_PER_ADDRESS, 'the answers within the budget');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.replies).toHaveLength(REPLIES_PER_ADDRESS);
  });

  it('ignores its own output coming back: no log, no answer, no quota', async () => {
    const r = await open({ osc: { reply: true }, app: { limit: 1 } });
    r.sendOsc({ address: '/showclock/state/remaining', args: ['9:59'] });
    r.sendOsc({ address: '/showclock/error', args: ['loop?'] });
    await barrier(r);
    expect(r.lines.filter((line) => line.includes('"level":40'))).toEqual([]);
    expect(r.replies).toEqual([]);
  });

  it('a plain-text datagram that is too long, or an open quote, is refused whole', async () => {
    const r = await open({ osc: { reply: true } });
    await barrier(r); // proves the key: the answers below are to a console that did
    r.sendText(Buffer.alloc(9_000, 0x41));
    await until(() => r.replies.length === 1, 'the answer');
    expect(r.replies[0]?.text).toBe('showclock error: a datagram of 9000 bytes is too long: at most 8192, one command per line\n');
    r.sendText(`${API_KEY} message "Wrap up`);
    await until(() => r.replies.length === 2, 'the answer');
    expect(r.replies[1]?.text).toContain('a double quote is not closed');
  });

  it('several lines in one datagram each act', async () => {
    const r = await open();
    r.sendText(`${API_KEY} onair 1\r\n${API_KEY} start\n\n`);
    await until(() => r.t.service.room.transport.running && r.t.service.room.onAir, 'both lines');
  });

  it('a command refused while the service stops is logged as not done', async () => {
    const r = await open({ osc: { reply: true } });
    await r.t.service.stopAccepting();
    r.sendOsc({ address: at('/start'), args: [] });
    await until(() => r.replies.length === 1, 'the answer');
    expect(r.replies[0]?.osc?.args).toEqual(['the service is stopping: nothing was changed; try again once it is back']);
    expect(r.logs().find((line) => line.cause === 'osc not-done /start')).toBeDefined();
  });

  it('a failure inside the handling is logged and the port keeps listening', async () => {
    const t = createTestApp();
    let calls = 0;
    const service = {
      get room() {
        return t.service.room;
      },
      subscribe: t.service.subscribe.bind(t.service),
      snapshot: () => t.service.snapshot(),
      dispatch: (...args: Parameters<typeof t.service.dispatch>) => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        return t.service.dispatch(...args);
      },
    };
    const r = await open({ service });
    r.sendOsc({ address: at('/start'), args: [] });
    await until(() => r.logs().some((line) => line.level === 50), 'the error line');
    r.sendOsc({ address: at('/start'), args: [] });
    await until(() => t.service.room.transport.running, 'the next command');
  });
});

describe('ports', () => {
  it('a port in use leaves that part off, logged, and the rest running', async () => {
    const blocker = createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(0, '127.0.0.1', resolve));
    const taken = blocker.address().port;
    try {
      const r = await open({ osc: { port: taken } });
      expect(r.osc.oscPort).toBeNull();
      expect(r.osc.textPort).toBeGreaterThan(0);
      expect(r.logs().find((line) => line.level === 50)?.msg).toBe(
        `OSC input off: UDP port ${taken} on 127.0.0.1 is already in use (QLab, Companion or another Showclock?); choose another port in the config`,
      );
      r.sendText(`${API_KEY} start`);
      await until(() => r.t.service.room.transport.running, 'the plain-text port');
    } finally {
      blocker.close();
    }
  });

  it('nothing configured: nothing listens', async () => {
    const r = await open({ osc: { port: undefined, textPort: undefined } });
    expect([r.osc.oscPort, r.osc.textPort]).toEqual([null, null]);
    expect(r.lines).toEqual([]);
    r.osc.close();
  });

  it('stops listening on close', async () => {
    const r = await open();
    const port = r.osc.oscPort;
    r.osc.close();
    const again = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.bind(port ?? 0, '127.0.0.1', () => resolve());
    });
    again.close();
    expect(oscBytes({ address: '/x', args: [] }).length).toBeGreaterThan(0);
  });
});

describe('answers in all', () => {
  it(`at most ${REPLIES_PER_MINUTE} a minute whatever the sender addresses`, () => {
    let nowMs = 0;
    const { logger } = capturingLogger();
    const scheduler = { schedule: () => ({ cancel: () => {} }) };
    // Every sender answerable (each proved the key): the cap in all still holds.
    const refusals = new Refusals({ log: new BadInputLog({ logger, nowMs: () => nowMs, scheduler }), reply: true, nowMs: () => nowMs, answerable: () => true });
    let answered = 0;
    const refuse = (from: string) => refusals.refuse({ kind: 'malformed', error: 'x', from, source: 'osc' }, { address: from, port: 9000 }, () => (answered += 1));
    for (let i = 0; i < 1_000; i += 1) refuse(`10.0.${i >> 8}.${i & 255}`);
    expect(answered).toBe(REPLIES_PER_MINUTE);
    nowMs += 60_000;
    refuse('10.9.9.9');
    expect(answered).toBe(REPLIES_PER_MINUTE + 1);
  });
});
