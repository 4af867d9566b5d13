// OSC within its means (issue 26, finding 5): what one datagram or one sender can
// make the box do. A bundle spends at most MAX_COMMANDS_PER_DATAGRAM of the
// room's quota and the rest is refused in one log line; an answer goes only to a
// sender that proved the key (or a feedback target), at most one per datagram;
// and whatever is sent, a refused argument is shown as 64 characters and its
// length, and no log line grows past ~300 characters.
import { createSocket, type Socket } from 'node:dgram';
import { fromBuffer } from 'osc-min';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_COMMANDS_PER_DATAGRAM } from '../../src/osc/gated-udp-input.js';
import { MAX_PROVEN, PROOF_MS, ProvenSenders } from '../../src/osc/proven-senders.js';
import { fitted, shortened, SHOWN_ARGUMENT_CHARS, withShortValues } from '../../src/osc/shorten.js';
import { roomWithTimers } from '../helpers/test-app.js';
import { API_KEY, oscBytes, udpRig, until, type UdpRig } from './udp-rig.js';

let rig: UdpRig | undefined;
const peers: Socket[] = [];
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  for (const socket of peers.splice(0)) socket.close();
});

async function open(opts: Parameters<typeof udpRig>[0] = {}): Promise<UdpRig> {
  rig = await udpRig({ app: { room: roomWithTimers(3), ...opts.app }, ...opts });
  return rig;
}

const at = (command: string) => `/showclock/${API_KEY}${command}`;
const warnings = (r: UdpRig) => r.logs().filter((line) => line.level === 40);
const accepted = (r: UdpRig) => r.logs().filter((line) => line.msg === 'command').length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Waits until the adapter logged a refusal of this cause (the refusal of a datagram sent after the ones to wait for). */
async function logged(r: UdpRig, cause: string, count = 1): Promise<void> {
  await until(() => r.logs().filter((line) => line.cause === cause && line.suppressed === undefined).length >= count, `a line for ${cause}`);
}

/** Another sender on loopback, with what it receives: a device that never sent the key stands for a forged source address. */
interface Peer {
  readonly port: number;
  readonly received: Buffer[];
  send(data: Uint8Array, port: number | null): void;
  /** The /showclock/error answers it got (a feedback target also gets /showclock/state/*). */
  errors(): unknown[];
}

async function peer(): Promise<Peer> {
  const socket = createSocket('udp4');
  peers.push(socket);
  const received: Buffer[] = [];
  socket.on('message', (data) => void received.push(data));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    received,
    send: (data, port) => {
      if (port === null) throw new Error('that port is off');
      socket.send(data, port, '127.0.0.1');
    },
    errors: () =>
      received.flatMap((data) => {
        if (data.toString('utf8').startsWith('showclock error: ')) return [data.toString('utf8')];
        const packet = fromBuffer(data);
        return packet.oscType === 'message' && packet.address === '/showclock/error' ? [packet.args[0]?.value] : [];
      }),
  };
}

describe('one bundle spends at most 32 of the quota', () => {
  it('a bundle of 1,091 valid messages: 32 act, the rest is refused in one line, and HTTP with the same key is still answered', async () => {
    const r = await open();
    // 56 bytes each: as many as one datagram holds.
    const elements = Array.from({ length: 1_091 }, () => ({ address: at('/reset'), args: [] }));
    const bundle = oscBytes({ timetag: [0, 1], elements });
    expect(bundle.length).toBeLessThanOrEqual(65_507);
    r.sendOsc(bundle);
    r.sendOsc(Buffer.from('zz')); // after the bundle, spending no quota: its line says the bundle was handled
    await logged(r, 'osc malformed');
    expect(accepted(r)).toBe(MAX_COMMANDS_PER_DATAGRAM);
    const http = await r.t.get('v1', '/toggle_onair');
    expect(http.status).toBe(200);
    // 100 a minute: 32 spent by the bundle, one by this request.
    expect(http.headers.get('RateLimit-Remaining')).toBe(String(100 - MAX_COMMANDS_PER_DATAGRAM - 1));
    expect(warnings(r).map((line) => [line.cause, line.msg])).toEqual([
      ['osc too-many', 'refused OSC input: a bundle of 1091 messages: the first 32 were taken, the other 1059 dropped; send at most 32 messages in one packet'],
      ['osc malformed', expect.stringMatching(/^refused OSC input: not an OSC packet/)],
    ]);
  });

  it('messages of nested bundles count together; a bundle within the cap acts whole', async () => {
    const r = await open();
    const toggles = (n: number) => Array.from({ length: n }, () => ({ address: at('/toggle_blackout'), args: [] }));
    r.sendOsc({ timetag: [0, 1], elements: [...toggles(20), { timetag: [0, 1], elements: toggles(20) }] });
    r.sendOsc({ timetag: [0, 1], elements: toggles(MAX_COMMANDS_PER_DATAGRAM) });
    r.sendOsc(Buffer.from('zz'));
    await logged(r, 'osc malformed');
    expect(accepted(r)).toBe(2 * MAX_COMMANDS_PER_DATAGRAM);
    expect(warnings(r).filter((line) => line.cause === 'osc too-many').map((line) => line.msg)).toEqual([
      'refused OSC input: a bundle of 40 messages: the first 32 were taken, the other 8 dropped; send at most 32 messages in one packet',
    ]);
  });

  it('plain text the same way: the first 32 lines of a datagram are read, the rest refused in one line', async () => {
    const r = await open();
    r.sendText(`${API_KEY} toggle_onair\n`.repeat(100));
    r.sendOsc(Buffer.from('zz'));
    await logged(r, 'osc malformed');
    await logged(r, 'udp-text too-many');
    expect(accepted(r)).toBe(MAX_COMMANDS_PER_DATAGRAM);
    expect((await r.t.get('v1', '/state')).headers.get('RateLimit-Remaining')).toBe(String(100 - MAX_COMMANDS_PER_DATAGRAM - 1));
    expect(warnings(r).find((line) => line.cause === 'udp-text too-many')?.msg).toBe(
      'refused plain-text input: 100 lines in one datagram: the first 32 were read, the other 68 dropped; send at most 32 lines in one datagram',
    );
  });
});

describe('answers only to senders that proved the key', () => {
  it('a sender that never sent the key (a forged source) gets no answer at all, on either port, even with osc.reply on', async () => {
    const r = await open({ osc: { reply: true } });
    const forged = await peer();
    forged.send(Buffer.from('zz'), r.osc.oscPort); // 2 bytes in: 92 out before this change
    forged.send(oscBytes({ address: '/showclock/WrongKey_0123456789abcdef/start', args: [] }), r.osc.oscPort);
    forged.send(oscBytes({ address: '/other/thing', args: [] }), r.osc.oscPort);
    forged.send(Buffer.from('zz'), r.osc.textPort);
    await logged(r, 'udp-text malformed');
    await logged(r, 'osc address');
    await settle();
    expect(warnings(r).map((line) => line.cause)).toEqual(['osc malformed', 'osc wrong-key', 'osc address', 'udp-text malformed']);
    expect(forged.received).toEqual([]);
  });

  it('a proved sender is answered, on both ports, for 10 minutes after it last sent the key', async () => {
    const r = await open({ osc: { reply: true } });
    // Its own refused message proves it: a right key with a wrong argument is answered.
    r.sendOsc({ address: at('/adjust'), args: ['soon'] });
    await until(() => r.replies.length === 1, 'the answer to the keyed message');
    expect(r.replies[0]?.osc?.args[0]).toMatch(/^ms: must be a whole number/);
    r.sendOsc(Buffer.from('zz'));
    await until(() => r.replies.length === 2, 'the answer to junk from a proved sender');
    expect(r.replies[1]?.osc?.args[0]).toMatch(/^not an OSC packet/);
    r.sendText('zz');
    await until(() => r.replies.length === 3, 'the plain-text answer');
    expect(r.replies[2]?.text).toMatch(/^showclock error: no command after the key/);
    // Ten minutes without the key: no longer answered.
    r.t.clock.advance(PROOF_MS);
    r.sendOsc(Buffer.from('zz'));
    r.sendText('zz');
    await logged(r, 'udp-text malformed', 2);
    await settle();
    expect(r.replies).toHaveLength(3);
  });

  it('a configured feedback target is answered without proving the key', async () => {
    const tablet = await peer();
    const r = await open({ osc: { reply: true, feedback: [{ host: '127.0.0.1', port: tablet.port }] } });
    const stranger = await peer();
    tablet.send(oscBytes({ address: '/showclock/WrongKey_0123456789abcdef/next', args: [] }), r.osc.oscPort);
    await until(() => tablet.errors().length === 1, 'the answer to the tablet');
    expect(tablet.errors()).toEqual(['invalid API key: use the key shown in the control room (npm run key prints it)']);
    stranger.send(oscBytes({ address: '/showclock/WrongKey_0123456789abcdef/next', args: [] }), r.osc.oscPort);
    stranger.send(Buffer.from('zz'), r.osc.oscPort);
    await logged(r, 'osc malformed');
    await settle();
    expect(stranger.received).toEqual([]);
  });

  it('one answer per datagram: a bundle of refused messages gets the first refusal only', async () => {
    const r = await open({ osc: { reply: true } });
    r.sendOsc({ timetag: [0, 1], elements: [{ address: at('/adjust'), args: ['soon'] }, { address: at('/nonsense'), args: [] }, { address: at('/settings/autoAdvance'), args: [] }] });
    await until(() => r.replies.length === 1, 'the answer');
    r.sendOsc(Buffer.from('zz'));
    await until(() => r.replies.length === 2, 'the answer to the next datagram');
    expect(r.replies.map((reply) => String(reply.osc?.args[0]).slice(0, 20))).toEqual(['ms: must be a whole ', 'not an OSC packet (A']);
    expect(warnings(r).map((line) => line.cause)).toEqual(['osc bad-input /adjust', 'osc unknown-command', 'osc bad-input /settings/autoAdvance', 'osc malformed']);
  });

  it('remembers a bounded number of senders, the longest-proved forgotten first', () => {
    let nowMs = 0;
    const proven = new ProvenSenders({ nowMs: () => nowMs });
    for (let port = 1; port <= MAX_PROVEN + 50; port += 1) proven.prove({ address: '10.0.0.5', port });
    expect(proven.size).toBe(MAX_PROVEN);
    expect(proven.has({ address: '10.0.0.5', port: 1 })).toBe(false);
    expect(proven.has({ address: '10.0.0.5', port: MAX_PROVEN + 50 })).toBe(true);
    expect(proven.has({ address: '10.0.0.6', port: MAX_PROVEN + 50 })).toBe(false);
    nowMs += PROOF_MS - 1;
    expect(proven.has({ address: '10.0.0.5', port: MAX_PROVEN + 50 })).toBe(true);
    nowMs += 1;
    expect(proven.has({ address: '10.0.0.5', port: MAX_PROVEN + 50 })).toBe(false);
  });
});

describe('refused arguments shown shortened', () => {
  const long = 'x'.repeat(3_000);
  const shown = `"${'x'.repeat(SHOWN_ARGUMENT_CHARS)}… (3000 characters)"`;

  it('a 3,000-character argument: the answer quotes 64 characters and the length, and the log line stays under 300 characters', async () => {
    const r = await open({ osc: { reply: true } });
    r.sendOsc({ address: at('/adjust'), args: [long] });
    await until(() => r.replies.length === 1, 'the answer');
    expect(r.replies[0]?.osc?.args).toEqual([
      `ms: must be a whole number written in decimal: milliseconds to add (positive) or remove (negative), at most 3600000 (1 hour) either way, e.g. 30000 or -30000; got ${shown}`,
    ]);
    const line = r.lines.find((text) => text.includes('osc bad-input /adjust'));
    expect(line?.length).toBeLessThan(300);
    expect(line).toContain('… (3000 characters)');
    expect(line).not.toContain('x'.repeat(SHOWN_ARGUMENT_CHARS + 1));
  });

  it('whatever is sent, no log line of the OSC adapter reaches 300 characters, and no answer is longer than 512', async () => {
    const r = await open({ osc: { reply: true } });
    const control = '\u0001'.repeat(3_000);
    const huge = 'y'.repeat(60_000);
    const sends: [string, unknown[]][] = [
      ['/message', ['hi', long, long, long]],
      ['/message', ['hi', huge]],
      ['/settings/zeroBehavior', [control]],
      ['/settings/autoAdvance', ['😀'.repeat(3_000)]],
      [`/timer/${long}/select`, []],
      [`/timer/index/${long}/select`, []],
      [`/${long}`, []],
      ['/blackout', [long, long]],
    ];
    for (const [command, args] of sends) r.sendOsc({ address: at(command), args: args as never });
    r.sendOsc({ address: `/showclock/${long}/start`, args: [] });
    r.sendOsc({ address: `/${long}`, args: [] });
    r.sendText(`${API_KEY} adjust ${'9'.repeat(8_000)}`);
    r.sendText(`${API_KEY} message "${long}`);
    r.sendOsc(Buffer.from('zz'));
    await logged(r, 'osc malformed');
    await logged(r, 'udp-text malformed');
    await settle();
    expect(warnings(r).length).toBeGreaterThanOrEqual(10);
    for (const line of r.lines) expect(line.length, line).toBeLessThan(300);
    // Each datagram from this (proved) sender was answered, each answer within bounds.
    expect(r.replies.length).toBeGreaterThanOrEqual(10);
    for (const reply of r.replies) {
      const text = String(reply.osc?.args[0] ?? reply.text);
      expect(text.length, text).toBeLessThanOrEqual(512 + 'showclock error: \n'.length);
      expect(text).not.toContain('x'.repeat(SHOWN_ARGUMENT_CHARS + 1));
    }
    expect(r.replies.map((reply) => String(reply.osc?.args[0] ?? reply.text)).find((text) => text.startsWith('no timer with id'))).toBe(
      `no timer with id ${shown} in the running order`,
    );
  });

  it('shortens by characters, never half an emoji, and fits a line by what JSON writes', () => {
    expect(shortened('x'.repeat(64))).toBe('x'.repeat(64));
    expect(shortened('😀'.repeat(65))).toBe(`${'😀'.repeat(64)}… (65 characters)`);
    expect(withShortValues(`got ${JSON.stringify(`a"${long}`)}; id "${long}"`, [long, `a"${long}`])).toBe(
      `got ${JSON.stringify(shortened(`a"${long}`))}; id "${shortened(long)}"`,
    );
    const fit = fitted(`start ${'\u0001'.repeat(100)} end`, 40);
    expect(JSON.stringify(fit).length - 2).toBeLessThanOrEqual(40);
    expect(fit.startsWith('start ') && fit.endsWith(' end') && fit.includes('…')).toBe(true);
    const emoji = fitted('😀'.repeat(100), 41);
    expect(emoji).toMatch(/^(😀)+…(😀)+$/u);
  });
});
