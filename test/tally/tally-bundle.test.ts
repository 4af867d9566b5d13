// Tally in the service as a box runs it: the service bundle and the files beside it
// built as scripts/build.mjs builds them (into a temporary directory, not dist/),
// started as a child process with a TSL port and an OBS address configured. The
// tally code is in dist/showclock-tally.cjs, not in the bundle every box keeps in
// memory; a TSL packet from tsl-umd-v5 over TCP switches ON AIR; an OBS that is not
// there is one warning and no delay.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import TSL5 from 'tsl-umd-v5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceBundleOptions, writeBundleSideFiles } from '../../scripts/build.mjs';
import { serviceEnv, startService, stopService, TEST_API_KEY, type ServiceProcess } from '../e2e/service-process.js';

let dir: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-tally-bundle-'));
  await build(serviceBundleOptions({ outfile: path.join(dir, 'showclock.cjs') }));
  await writeBundleSideFiles(dir);
}, 60_000);

afterAll(async () => {
  await stopService(service);
  rmSync(dir, { recursive: true, force: true });
});

describe('tally in the built service', () => {
  it('is a file beside the bundle, loaded where configured: TSL over TCP switches ON AIR', async () => {
    expect(readFileSync(path.join(dir, 'showclock.cjs'), 'utf8')).not.toContain('obswebsocket.json');
    expect(readFileSync(path.join(dir, 'showclock-tally.cjs'), 'utf8')).toContain('obswebsocket.json');
    const config = path.join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ tally: { tsl: { port: 0, host: '127.0.0.1', indices: [2] }, obs: { url: 'ws://127.0.0.1:9', password: 'never-logged' } } }));
    service = await startService(serviceEnv({ SHOWCLOCK_DATA_DIR: path.join(dir, 'data'), SHOWCLOCK_API_KEY: TEST_API_KEY, SHOWCLOCK_CONFIG: config }), {
      entry: path.join(dir, 'showclock.cjs'),
    });
    const listening = await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('TSL tally listening'));
    const port = listening.port as number;
    await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('OBS tally: cannot reach OBS'));
    const onAir = async () => ((await (await fetch(`${service?.api}/state`)).json()) as { state: { onAir: boolean; tally: unknown } }).state;
    expect((await onAir()).tally).toBeNull();
    new TSL5().sendTallyTCP('127.0.0.1', port, { screen: 0, index: 2, display: { rh_tally: 1, text_tally: 0, lh_tally: 0, brightness: 3, text: 'CAM 2' } });
    let state = await onAir();
    // Polled over HTTP, as a client sees it.
    for (let i = 0; i < 250 && !state.onAir; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = await onAir();
    }
    expect(state).toMatchObject({ onAir: true, tally: { on: true, sources: { tsl: true } } });
    expect(service.lines.some((line) => JSON.stringify(line).includes('never-logged'))).toBe(false);
  }, 30_000);
});
