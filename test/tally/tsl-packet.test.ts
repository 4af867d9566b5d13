// The TSL reader (src/tally/tsl-packet.ts, tsl-stream.ts): what a sender nobody
// here wrote (tsl-umd-v5) builds is read back exactly, TSL 3.1 by the spec, and
// any bytes at all (random, cut short, 64 KiB, random TCP chunking) give displays
// or a problem in words, never an exception, and never more than a packet held.
import fc from 'fast-check';
import TSL5 from 'tsl-umd-v5';
import { describe, expect, it } from 'vitest';
import { DLE, readDatagram, readTsl31, readTsl5, STX, TSL5_MAX_PACKET_BYTES, unframe, type TslRead } from '../../src/tally/tsl-packet.js';
import { Tsl5Stream } from '../../src/tally/tsl-stream.js';
import { tsl31 } from './tsl-rig.js';

const sender = new TSL5();
const built = (index: number, tallies: { rh: number; text: number; lh: number }, text: string, sequence = false) =>
  sender.constructPacket({ screen: 0, index, display: { rh_tally: tallies.rh, text_tally: tallies.text, lh_tally: tallies.lh, brightness: 3, text } }, sequence);

const tallyArb = fc.integer({ min: 0, max: 3 });
const displayArb = fc.record({
  index: fc.integer({ min: 0, max: 0xffff }),
  rh: tallyArb,
  text: tallyArb,
  lh: tallyArb,
  label: fc.string({ maxLength: 16 }).map((s) => s.replace(/[^\x20-\x7e]/g, '?')),
});

const expected = (d: { index: number; rh: number; text: number; lh: number }) => ({
  index: d.index,
  program: [d.rh, d.text, d.lh].some((t) => t === 1 || t === 3),
  preview: [d.rh, d.text, d.lh].some((t) => t === 2 || t === 3),
});

/** A TSL 5.0 packet of several display messages, by the spec. */
function packetOf(displays: readonly { index: number; control: number; text?: string }[], flags = 0): Buffer {
  const messages = displays.map((d) => {
    const text = Buffer.from(d.text ?? '');
    const head = Buffer.alloc(6);
    head.writeUInt16LE(d.index, 0);
    head.writeUInt16LE(d.control, 2);
    head.writeUInt16LE(text.length, 4);
    return Buffer.concat([head, text]);
  });
  const body = Buffer.concat([Buffer.from([0, flags, 0, 0]), ...messages]);
  const pbc = Buffer.alloc(2);
  pbc.writeUInt16LE(body.length, 0);
  return Buffer.concat([pbc, body]);
}

function framed(packet: Uint8Array): Buffer {
  const out = [DLE, STX];
  for (const byte of packet) out.push(...(byte === DLE ? [DLE, DLE] : [byte]));
  return Buffer.from(out);
}

const displaysOf = (read: TslRead) => (read.ok ? read.displays : read.problem);

describe('TSL 5.0', () => {
  it('reads back what tsl-umd-v5 builds, over UDP as it is and over TCP framed', () => {
    fc.assert(
      fc.property(displayArb, (d) => {
        const plain = built(d.index, d, d.label);
        expect(displaysOf(readDatagram(plain))).toEqual([expected(d)]);
        const stuffed = built(d.index, d, d.label, true);
        expect(displaysOf(readDatagram(stuffed))).toEqual([expected(d)]);
        expect(unframe(stuffed)).toEqual(new Uint8Array(plain));
      }),
      { numRuns: 500 },
    );
  });

  it('reads every display message of a packet; control data and screen control carry no tally', () => {
    const packet = packetOf([
      { index: 1, control: 0b11_00_00_01, text: 'CAM 1' },
      { index: 2, control: 0b11_00_10_00 },
      { index: 3, control: 0x8000 | 0b01, text: 'xx' },
      { index: 4, control: 0b11_11_00_00, text: 'CAM 4' },
    ]);
    expect(displaysOf(readTsl5(packet))).toEqual([
      { index: 1, program: true, preview: false },
      { index: 2, program: false, preview: true },
      { index: 4, program: true, preview: true },
    ]);
    expect(displaysOf(readTsl5(packetOf([{ index: 1, control: 1 }], 0b10)))).toEqual([]);
  });

  it('refuses in words: too short, a byte count that does not match, a message cut short, text past the end, too long', () => {
    const good = packetOf([{ index: 1, control: 1, text: 'CAM 1' }]);
    expect(displaysOf(readTsl5(good.subarray(0, 4)))).toMatch(/shorter than a header/);
    expect(displaysOf(readTsl5(good.subarray(0, good.length - 1)))).toMatch(/byte count says/);
    const cut = packetOf([{ index: 1, control: 1 }]).subarray(0, 9);
    cut.writeUInt16LE(cut.length - 2, 0);
    expect(displaysOf(readTsl5(cut))).toMatch(/cut short/);
    const past = Buffer.from(good);
    past.writeUInt16LE(200, 10);
    expect(displaysOf(readTsl5(past))).toMatch(/past the packet/);
    expect(displaysOf(readDatagram(Buffer.alloc(64 * 1024, 0xab)))).toMatch(/neither TSL 5.0/);
    const huge = packetOf([{ index: 1, control: 1, text: 'x'.repeat(TSL5_MAX_PACKET_BYTES) }]);
    expect(displaysOf(readTsl5(huge))).toMatch(/more than a packet may have/);
  });

  it('every cut of a packet short of the whole is refused', () => {
    const packet = packetOf([{ index: 1, control: 1, text: 'CAM 1' }, { index: 2, control: 2, text: 'CAM 2' }]);
    for (let length = 0; length < packet.length; length += 1) expect(readDatagram(packet.subarray(0, length)).ok).toBe(false);
  });
});

describe('TSL 3.1', () => {
  it('reads address, tally 1 (program) and tally 2 (preview), several messages in one datagram', () => {
    expect(displaysOf(readDatagram(tsl31(0, { program: true })))).toEqual([{ index: 0, program: true, preview: false }]);
    expect(displaysOf(readDatagram(Buffer.concat([tsl31(126, { preview: true }), tsl31(5)])))).toEqual([
      { index: 126, program: false, preview: true },
      { index: 5, program: false, preview: false },
    ]);
  });

  it('is not taken for TSL 5.0 where its first bytes happen to match a byte count', () => {
    // Eight messages, 144 bytes, the first for address 14 with no tally: 0x8e 0x00 reads as a byte count of 142.
    const eight = Buffer.concat([tsl31(14), ...Array.from({ length: 7 }, (_, i) => tsl31(i, { program: i === 3 }))]);
    eight[1] = 0; // brightness 0 too
    expect(eight.readUInt16LE(0)).toBe(eight.length - 2);
    const read = readDatagram(eight);
    expect(read.ok && read.version).toBe('3.1');
  });

  it('refuses a header below 0x80 or 0xff, a control byte with bit 7, and a length that is no multiple of 18', () => {
    const low = tsl31(1);
    low[0] = 0x10;
    expect(readTsl31(low).ok).toBe(false);
    const ff = tsl31(1);
    ff[0] = 0xff;
    expect(readTsl31(ff).ok).toBe(false);
    const bit7 = tsl31(1);
    bit7[1] = 0x81;
    expect(readTsl31(bit7).ok).toBe(false);
    expect(readTsl31(tsl31(1).subarray(0, 17)).ok).toBe(false);
  });
});

describe('any bytes at all', () => {
  it('a datagram of random bytes gives displays or a problem, never an exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3_000 }), (bytes) => {
        const read = readDatagram(bytes);
        expect(typeof read.ok).toBe('boolean');
        if (!read.ok) expect(read.problem.length).toBeLessThan(200);
      }),
      { numRuns: 2_000 },
    );
  });

  it('a valid packet with random bytes changed gives displays or a problem, never an exception', () => {
    const packet = packetOf([{ index: 1, control: 1, text: 'CAM 1' }, { index: 2, control: 2, text: 'CAM 2' }]);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(packet.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), (edits) => {
        const changed = Buffer.from(packet);
        for (const [at, value] of edits) changed[at] = value;
        expect(() => readDatagram(changed)).not.toThrow();
        expect(() => readDatagram(framed(changed))).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('TCP stream', () => {
  it('gives back every framed packet whatever the chunks, also with junk between them', () => {
    const packetsArb = fc.array(displayArb.map((d) => built(d.index, d, d.label)), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(packetsArb, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), fc.boolean(), (packets, cuts, junk) => {
        const bytes = Buffer.concat(packets.flatMap((p) => (junk ? [Buffer.from('junk'), framed(p)] : [framed(p)])));
        const got: Uint8Array[] = [];
        const problems: string[] = [];
        const stream = new Tsl5Stream({ onPacket: (p) => void got.push(p), onProblem: (p) => void problems.push(p) });
        let at = 0;
        for (let i = 0; at < bytes.length; i += 1) {
          const size = cuts[i % cuts.length] as number;
          stream.push(bytes.subarray(at, at + size));
          at += size;
        }
        expect(got.map((p) => Buffer.from(p))).toEqual(packets);
        expect(problems.length > 0).toBe(junk);
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes never throw, and what comes out is never more than a packet', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 10 }), (chunks) => {
        const stream = new Tsl5Stream({
          onPacket: (p) => {
            expect(p.length).toBeLessThanOrEqual(TSL5_MAX_PACKET_BYTES);
            readTsl5(p);
          },
          onProblem: () => {},
        });
        for (const chunk of chunks) stream.push(chunk);
      }),
      { numRuns: 1_000 },
    );
  });

  it('a byte count above the limit, a lone DLE and a packet cut by the next are problems, and the next packet still reads', () => {
    const problems: string[] = [];
    const got: Uint8Array[] = [];
    const stream = new Tsl5Stream({ onPacket: (p) => void got.push(p), onProblem: (p) => void problems.push(p) });
    const good = packetOf([{ index: 1, control: 1 }]);
    stream.push(Buffer.from([DLE, STX, 0xff, 0x7f]));
    stream.push(Buffer.from([DLE, STX, 0x08, 0x00, DLE, 0x41]));
    stream.push(Buffer.concat([framed(good).subarray(0, 5), framed(good)]));
    expect(problems).toEqual([
      'TSL 5.0 over TCP: a byte count of 32767, more than a packet may have',
      'TSL 5.0 over TCP: a DLE followed by neither DLE nor STX',
      expect.stringMatching(/cut short/),
    ]);
    stream.push(Buffer.from('junk'));
    expect(problems.at(-1)).toBe('TSL 5.0 over TCP: 4 bytes outside a DLE/STX packet');
    expect(got.map((p) => Buffer.from(p))).toEqual([good]);
  });
});
