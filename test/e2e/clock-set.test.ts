// The built service and the box's clock, with fakes of timedatectl and chronyc
// first on PATH (they record their arguments): a box whose timesyncd reaches no
// server says so in /healthz (still 200: nothing is restarted for it) and in GET
// /clock; /clock/set turns NTP off, sets the time with the instant sent, turns NTP
// on again, and answers 200 only then; once synchronised, a set is refused (409).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, serviceEnv, startService, stopService, type ServiceProcess } from './service-process.js';

let dir: string;
let service: ServiceProcess | undefined;

function script(name: string, body: string): void {
  const file = path.join(dir, 'bin', name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

beforeAll(async () => {
  ensureBundle();
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-clock-e2e-'));
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'synced'), 'no');
  // chronyd is not running: chronyc says so, as the real one does.
  script('chronyc', 'echo "506 Cannot talk to daemon" >&2; exit 1');
  // timedatectl as on a Pi whose timesyncd reaches no server; every call recorded.
  script(
    'timedatectl',
    [
      `echo "$*" >> "${dir}/calls"`,
      'case "$1" in',
      `  show) echo "NTP=yes"; echo "NTPSynchronized=$(cat "${dir}/synced")";;`,
      '  timesync-status) echo "       Server: n/a"; echo " Packet count: 0";;',
      '  --no-ask-password) ;;',
      '  *) echo "Unknown command verb $1." >&2; exit 1;;',
      'esac',
    ].join('\n'),
  );
  service = await startService(serviceEnv({ PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`, SHOWCLOCK_DATA_DIR: path.join(dir, 'data'), SHOWCLOCK_API_KEY: 'ClockE2eApiKey_0123456789abc' }), {
    apiKey: 'ClockE2eApiKey_0123456789abc',
  });
}, 30_000);

afterAll(async () => {
  await stopService(service);
  rmSync(dir, { recursive: true, force: true });
});

describe('the built service and a clock that is not synchronised', () => {
  it('says so, sets it from the given instant through timedatectl (NTP off and on around it), and refuses once synchronised', async () => {
    const box = service!;
    const origin = `http://127.0.0.1:${box.port}`;
    // The first reading is made at start, in the background.
    await expect.poll(async () => ((await (await fetch(`${origin}/healthz`)).json()) as { clock: { synced: unknown } }).clock.synced, { timeout: 5_000 }).toBe(false);
    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, clock: { synced: false, source: 'timesyncd' } });
    const read = (await (await fetch(`${box.api}/clock`)).json()) as { clock: { synced: boolean; detail: string } };
    expect(read.clock).toMatchObject({ synced: false, detail: expect.stringMatching(/has not reached a time server/) });
    expect(box.lines.some((l) => l.msg.startsWith('the box\'s clock is not synchronised'))).toBe(true);

    writeFileSync(path.join(dir, 'calls'), '');
    const at = Date.now() + 192_000;
    const set = await fetch(`${box.api}/clock/set?at=${at}`);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ ok: true, clock: { synced: false, setByHandAt: expect.any(Number) } });
    const calls = readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n').filter((c) => !c.startsWith('show') && !c.startsWith('timesync-status'));
    expect(calls.map((c) => c.replace(/@[0-9.]+$/, '@…'))).toEqual(['--no-ask-password set-ntp false', '--no-ask-password set-time @…', '--no-ask-password set-ntp true']);
    const sent = Number(/@([0-9.]+)$/.exec(calls[1]!)?.[1]) * 1_000;
    // The instant sent, plus what the request took on the box (a few ms of readings and NTP off).
    expect(sent - at).toBeGreaterThanOrEqual(0);
    expect(sent - at).toBeLessThan(1_000);

    writeFileSync(path.join(dir, 'synced'), 'yes');
    const refused = await fetch(`${box.api}/clock/set?at=${Date.now()}`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/synchronised already/);
    expect(await (await fetch(`${origin}/healthz`)).json()).toMatchObject({ ok: true, clock: { synced: true, source: 'timesyncd' } });
  }, 20_000);
});
