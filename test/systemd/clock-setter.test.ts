// Setting the box's clock by hand: through `timedatectl set-time` only while the
// box is not synchronised, NTP turned off for the step and on again when it was
// on, timedatectl's refusals turned into what to do. The last part runs real
// programs: fakes of timedatectl first on PATH, recording their arguments.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boxClock, setTimeArgument, setTimeFailure } from '../../src/systemd/clock-setter.js';
import { COMMAND_TIMEOUT_MS, runCommand, type CommandResult, type RunCommand } from '../../src/systemd/run-command.js';
import type { ClockSync } from '../../src/domain/clock-sync.js';
import { createLogger } from '../../src/log/logger.js';

const WALL = Date.UTC(2026, 10, 27, 9, 0, 0);
const NOT_SYNCED: ClockSync = { synced: false, source: 'timesyncd', since: WALL, detail: 'no server' };
const SYNCED: ClockSync = { synced: true, source: 'timesyncd', since: WALL, detail: 'the clock is synchronised to a time server' };
const logger = createLogger({ level: 'fatal', secrets: () => [], sink: { write: () => {} } });

function setter(opts: { state?: ClockSync; ntp?: boolean; answers?: (args: readonly string[]) => CommandResult }) {
  const asked: string[][] = [];
  const run: RunCommand = async (file, args) => {
    asked.push([file, ...args]);
    return opts.answers?.(args) ?? { ok: true, stdout: '' };
  };
  let setAt: number | undefined;
  let mono = 500;
  const clock = boxClock({
    run,
    current: () => opts.state ?? NOT_SYNCED,
    refresh: async () => {
      mono += 40; // a reading takes a while: the step must make up for it
      return opts.state ?? NOT_SYNCED;
    },
    ntpEnabled: () => opts.ntp,
    markSetByHand: (at) => void (setAt = at),
    wallMs: () => WALL,
    monoMs: () => mono,
    logger,
  });
  return { clock, asked, setAt: () => setAt };
}

describe('boxClock.set', () => {
  it('sets the time with timedatectl set-time @seconds.millis, adding the time the request waited', async () => {
    const s = setter({ ntp: false });
    const result = await s.clock.set(WALL + 192_000);
    expect(result.ok).toBe(true);
    expect(s.asked).toEqual([['timedatectl', '--no-ask-password', 'set-time', setTimeArgument(WALL + 192_040)]]);
    expect(setTimeArgument(1_767_261_600_007)).toBe('@1767261600.007');
    expect(s.setAt()).toBe(WALL);
  });

  it('with NTP enabled but no server: NTP off, the step, NTP on again (also when the step fails)', async () => {
    const s = setter({ ntp: true });
    expect((await s.clock.set(WALL - 60_000)).ok).toBe(true);
    expect(s.asked.map((a) => a.slice(2).join(' '))).toEqual(['set-ntp false', `set-time ${setTimeArgument(WALL - 60_000 + 40)}`, 'set-ntp true']);
    const failing = setter({ ntp: true, answers: (args) => (args[1] === 'set-time' ? { ok: false, missing: false, timedOut: false, reason: 'Failed to set time: Access denied' } : { ok: true, stdout: '' }) });
    const refused = await failing.clock.set(WALL);
    expect(refused).toMatchObject({ ok: false, status: 503 });
    expect(failing.asked.map((a) => a[2])).toEqual(['set-ntp', 'set-time', 'set-ntp']);
    expect(failing.setAt()).toBeUndefined();
  });

  it('where NTP is not known to be on (chrony answered), timedated\'s refusal of the step turns it off for a second try', async () => {
    let refusals = 0;
    const s = setter({
      answers: (args) => {
        if (args[1] === 'set-time' && refusals === 0) {
          refusals += 1;
          return { ok: false, missing: false, timedOut: false, reason: 'Failed to set time: Automatic time synchronization is enabled' };
        }
        return { ok: true, stdout: '' };
      },
    });
    expect((await s.clock.set(WALL)).ok).toBe(true);
    expect(s.asked.map((a) => a[2])).toEqual(['set-time', 'set-ntp', 'set-time', 'set-ntp']);
    expect(s.asked.map((a) => a[3]).filter((v) => v === 'false' || v === 'true')).toEqual(['false', 'true']);
  });

  it('network time that cannot be turned off: the step is not tried, and the answer says why', async () => {
    const s = setter({ ntp: true, answers: (args) => (args[1] === 'set-ntp' ? { ok: false, missing: false, timedOut: false, reason: 'Failed to set ntp: Access denied' } : { ok: true, stdout: '' }) });
    expect(await s.clock.set(WALL)).toMatchObject({ ok: false, status: 503, error: expect.stringMatching(/polkit/) });
    expect(s.asked.map((a) => a[2])).toEqual(['set-ntp']);
  });

  it('refuses while synchronised (409), a time over a year away or not whole ms (400), and runs nothing then', async () => {
    const synced = setter({ state: SYNCED });
    const refused = await synced.clock.set(WALL);
    expect(refused).toMatchObject({ ok: false, status: 409 });
    expect(refused.ok ? '' : refused.error).toMatch(/synchronised already/);
    const s = setter({});
    expect(await s.clock.set(WALL + 367 * 86_400_000)).toMatchObject({ ok: false, status: 400 });
    expect(await s.clock.set(1.5)).toMatchObject({ ok: false, status: 400 });
    expect(synced.asked).toEqual([]);
    expect(s.asked).toEqual([]);
  });

  it('turns timedatectl\'s words into what to do', () => {
    expect(setTimeFailure('Failed to set time: Access denied', false).error).toMatch(/polkit rule.*install\.sh/);
    expect(setTimeFailure('Failed to set time: Interactive authentication required.', false).error).toMatch(/polkit/);
    expect(setTimeFailure('Failed to set time: Automatic time synchronization is enabled', false)).toMatchObject({ status: 409, error: expect.stringMatching(/set-ntp false/) });
    expect(setTimeFailure('Failed to connect to bus: Host is down', false).error).toMatch(/did not answer/);
    expect(setTimeFailure('', true).error).toMatch(/timedatectl \(systemd\) is not installed/);
  });
});

describe('runCommand with programs on PATH', () => {
  const dir = mkdtempSync(join(tmpdir(), 'showclock-fake-bin-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` };

  it('finds a fake first on PATH; its arguments are recorded; stderr becomes the reason', async () => {
    script('timedatectl', `echo "$@" >> "${dir}/args"\n[ "$1" = fail ] && { echo "Failed to set time: Access denied" >&2; exit 1; }\necho ok`);
    const run = runCommand(env);
    expect(await run('timedatectl', ['--no-ask-password', 'set-time', '@1767261600.007'])).toEqual({ ok: true, stdout: 'ok\n' });
    expect(await run('timedatectl', ['fail'])).toEqual({ ok: false, missing: false, timedOut: false, reason: 'Failed to set time: Access denied' });
    expect(readFileSync(join(dir, 'args'), 'utf8')).toBe('--no-ask-password set-time @1767261600.007\nfail\n');
  });

  it('kills a program that hangs, after its time (2 s in the service), and says a missing one is missing', async () => {
    expect(COMMAND_TIMEOUT_MS).toBe(2_000);
    script('chronyc', 'exec sleep 30');
    const started = performance.now();
    const result = await runCommand(env, 300)('chronyc', ['-c', 'tracking']);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ ok: false, timedOut: true, reason: 'chronyc did not answer within 300 ms' });
    expect(await runCommand(env)('showclock-no-such-program', [])).toMatchObject({ ok: false, missing: true });
  });
});
