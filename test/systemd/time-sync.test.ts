// The clock reader with fake program outputs, in the formats of real boxes:
// `chronyc -c tracking` (the values of chrony's documented `chronyc tracking`
// example, as CSV), `timedatectl show` and `timedatectl timesync-status` (as
// systemd-timesyncd prints them). No program is run.
import { describe, expect, it } from 'vitest';
import { ClockWatch, parseChronyTracking, parseTimeSpanMs, parseTimesyncStatus, readClockSync, type ClockReading } from '../../src/systemd/time-sync.js';
import type { CommandResult, RunCommand } from '../../src/systemd/run-command.js';
import type { Scheduler } from '../../src/app/clock.js';
import { createLogger } from '../../src/log/logger.js';

const CHRONY_SYNCED = 'CB00710F,foo.example.net,3,1485510557.081285190,0.000006523,-0.000006747,0.000035822,-3.225,-0.000,0.129,0.013639022,0.001100737,64.2,Normal\n';
const CHRONY_UNSYNCED = '00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised\n';
const TIMESYNC_STATUS = `       Server: 10.43.16.1 (10.43.16.1)
Poll interval: 1min 4s (min: 32s; max 34min 8s)
         Leap: normal
      Version: 4
      Stratum: 2
    Reference: C37190C9
    Precision: 4us (-18)
Root distance: 33.637ms (max: 5s)
       Offset: +4.523ms
        Delay: 221us
       Jitter: 0
 Packet count: 1
    Frequency: +39.437ppm
`;
const NO_CHRONY: CommandResult = { ok: false, missing: true, timedOut: false, reason: 'chronyc failed (ENOENT)' };
const NO_BUS: CommandResult = { ok: false, missing: false, timedOut: false, reason: 'Failed to connect to bus: Host is down' };

/** Answers by program and first argument; records what was asked. */
function fakeRun(answers: Record<string, CommandResult>): RunCommand & { asked: string[] } {
  const asked: string[] = [];
  const run = async (file: string, args: readonly string[]): Promise<CommandResult> => {
    const key = `${file} ${args[0] ?? ''}`;
    asked.push(`${file} ${args.join(' ')}`);
    return answers[key] ?? answers[file] ?? NO_CHRONY;
  };
  return Object.assign(run, { asked });
}
const ok = (stdout: string): CommandResult => ({ ok: true, stdout });
const PATHS = { synchronizedFile: '/run/systemd/timesync/synchronized', systemdRunDir: '/run/systemd/system' };
const none = () => false;

describe('parsers', () => {
  it('reads chrony\'s CSV tracking line: offset (positive = the box is fast), root delay and dispersion, leap status', () => {
    expect(parseChronyTracking(CHRONY_SYNCED)).toEqual({
      referenceId: 'CB00710F',
      referenceName: 'foo.example.net',
      stratum: 3,
      offsetMs: -0.007,
      rootDelayMs: 13.639,
      rootDispersionMs: 1.101,
      leapStatus: 'Normal',
    });
    expect(parseChronyTracking(CHRONY_UNSYNCED)?.leapStatus).toBe('Not synchronised');
    expect(parseChronyTracking('506 Cannot talk to daemon')).toBeNull();
  });

  it('reads systemd time spans and timesync-status', () => {
    expect(parseTimeSpanMs('+4.523ms')).toBe(4.523);
    expect(parseTimeSpanMs('221us')).toBe(0.221);
    expect(parseTimeSpanMs('1min 4s')).toBe(64_000);
    expect(parseTimeSpanMs('-1.5s')).toBe(-1_500);
    expect(parseTimeSpanMs('0')).toBe(0);
    expect(parseTimeSpanMs('soon')).toBeNull();
    expect(parseTimesyncStatus(TIMESYNC_STATUS)).toEqual({ server: '10.43.16.1', offsetMs: 4.523, rootDistanceMs: 33.637 });
  });
});

describe('readClockSync', () => {
  it('chrony answering is authoritative: synchronised, with its offset and maximum error', async () => {
    const run = fakeRun({ chronyc: ok(CHRONY_SYNCED), timedatectl: ok('NTP=yes\nNTPSynchronized=no\n') });
    const reading = await readClockSync(run, PATHS, none);
    expect(reading).toMatchObject({ synced: true, source: 'chrony', offsetMs: -0.007, server: 'foo.example.net' });
    // |offset| + root delay / 2 + root dispersion
    expect(reading.maxErrorMs).toBeCloseTo(0.007 + 6.8195 + 1.101, 2);
    expect(run.asked).toEqual(['chronyc -n -c tracking']);
  });

  it('chrony without a source is not synchronised', async () => {
    const reading = await readClockSync(fakeRun({ chronyc: ok(CHRONY_UNSYNCED) }), PATHS, none);
    expect(reading).toMatchObject({ synced: false, source: 'chrony' });
    expect(reading.offsetMs).toBeUndefined();
  });

  it('chrony serving its own clock (local stratum, no server reachable) is not synchronised', async () => {
    const local = '7F7F0101,,10,1764230400.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,0.000000000,0.000011000,0.0,Normal\n';
    const reading = await readClockSync(fakeRun({ chronyc: ok(local) }), PATHS, none);
    expect(reading).toMatchObject({ synced: false, source: 'chrony', detail: expect.stringMatching(/own clock/) });
  });

  it('timesyncd synchronised: the kernel flag from timedatectl, details from timesync-status', async () => {
    const run = fakeRun({ 'timedatectl show': ok('NTP=yes\nNTPSynchronized=yes\n'), 'timedatectl timesync-status': ok(TIMESYNC_STATUS) });
    const reading = await readClockSync(run, PATHS, none);
    expect(reading).toEqual({
      synced: true,
      source: 'timesyncd',
      ntpEnabled: true,
      offsetMs: 4.523,
      maxErrorMs: 38.16,
      server: '10.43.16.1',
      detail: 'the clock is synchronised to a time server (10.43.16.1), within 38 ms',
    });
    expect(run.asked).toEqual(['chronyc -n -c tracking', 'timedatectl show -p NTP -p NTPSynchronized', 'timedatectl timesync-status']);
  });

  it('a Pi booted without network (fake-hwclock\'s time, timesyncd with no server) reads as NOT synchronised, even though timesyncd synced on an earlier boot', async () => {
    const run = fakeRun({ 'timedatectl show': ok('NTP=yes\nNTPSynchronized=no\n'), 'timedatectl timesync-status': ok('       Server: n/a\n Packet count: 0\n') });
    const reading = await readClockSync(run, PATHS, none);
    expect(reading).toMatchObject({ synced: false, source: 'timesyncd', ntpEnabled: true });
    expect(reading.offsetMs).toBeUndefined();
    expect(reading.server).toBeUndefined();
  });

  it('no NTP service at all: not synchronised, source none', async () => {
    const reading = await readClockSync(fakeRun({ 'timedatectl show': ok('NTP=no\nNTPSynchronized=no\n') }), PATHS, none);
    expect(reading).toMatchObject({ synced: false, source: 'none', ntpEnabled: false });
  });

  it('without timedatectl: timesyncd\'s flag file, the absence of it on a systemd box, or unknown', async () => {
    const run = fakeRun({ timedatectl: NO_BUS });
    expect(await readClockSync(run, PATHS, (p) => p === PATHS.synchronizedFile)).toMatchObject({ synced: true, source: 'timesyncd' });
    expect(await readClockSync(run, PATHS, (p) => p === PATHS.systemdRunDir)).toMatchObject({ synced: false, source: 'unknown' });
    expect(await readClockSync(run, PATHS, none)).toMatchObject({ synced: null, source: 'unknown' });
  });
});

describe('ClockWatch', () => {
  it('starts unknown, reads at start and on its interval, keeps since while nothing changes, logs a change', async () => {
    const wakes: { at: number; run: () => void; cancelled: boolean }[] = [];
    const scheduler: Scheduler = {
      schedule: (at, run) => {
        const wake = { at, run, cancelled: false };
        wakes.push(wake);
        return { cancel: () => void (wake.cancelled = true) };
      },
    };
    let wall = 1_000_000;
    let reading: ClockReading = { synced: false, source: 'timesyncd', ntpEnabled: true, detail: 'x' };
    const lines: string[] = [];
    const watch = new ClockWatch({
      read: async () => reading,
      wallMs: () => wall,
      monoMs: () => 0,
      scheduler,
      logger: createLogger({ level: 'info', secrets: () => [], sink: { write: (l) => void lines.push(l) } }),
    });
    expect(watch.current().synced).toBeNull();
    await watch.refresh();
    expect(watch.current()).toMatchObject({ synced: false, since: 1_000_000 });
    expect(watch.ntpEnabled).toBe(true);
    expect(wakes.filter((w) => !w.cancelled).map((w) => w.at)).toEqual([30_000]);
    wall += 30_000;
    await watch.refresh();
    expect(watch.current().since).toBe(1_000_000);
    reading = { synced: true, source: 'timesyncd', detail: 'y' };
    wall += 30_000;
    await watch.refresh();
    expect(watch.current()).toMatchObject({ synced: true, since: 1_060_000 });
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["the box's clock is not synchronised: x", 'clock: y']);
    watch.close();
    expect(wakes.every((w) => w.cancelled)).toBe(true);
  });
});
