// Two boxes of one venue that find each other on the network, as two rooms of a venue
// do: each in a network namespace of its own joined by a veth (test/net/netns.ts),
// both the built service (dist/showclock.mjs) advertising over mDNS with the same
// venue key and no listed rooms. Box B's overview (/venue/{venue_key}/events, read
// with curl inside B's namespace) must show room A, found by mDNS and watched live;
// then A's cable is pulled (its veth down: no goodbye, no FIN, silence), plugged back,
// and A is stopped: B must show A as not answering within 5 s each time, and live
// again once it answers. Times in test-artifacts/venue-netns.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VenueTile, VenueTiles } from '../../src/client/venue-tile.js';
import { ensureBundle, ROOT, serviceEnv, startService, stopService, type ServiceProcess } from '../e2e/service-process.js';
import { cleanupNetns, execIn, makeNetnsPair, netnsUnavailable, OutputLines, runIn, type NetnsPair, type SeenLine } from '../net/netns.js';

const skipReason = netnsUnavailable();
const VENUE_KEY = 'VenueKeyOfTheNetnsTest_0123456789';
const A_API = 'NetnsHallAApiKey_0123456789ab';
const PORT = 8080;
const NAME_A = 'Stage A';
const NAME_B = 'Stage B';
/** What the issue asks: a box that disappears is shown as such within 5 s. */
const LOST_WITHIN_MS = 5_000;

let pair: NetnsPair | undefined;
let dir = '';
let boxA: ServiceProcess | undefined;
let boxB: ServiceProcess | undefined;
let overview: OutputLines | undefined;
const figures: Record<string, unknown> = {};

function startBox(side: 0 | 1, name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  if (pair === undefined) throw new Error('no namespaces');
  return startService(
    serviceEnv({
      HOST: '0.0.0.0',
      PORT: String(PORT),
      SHOWCLOCK_DATA_DIR: path.join(dir, `data-${side}`),
      SHOWCLOCK_VENUE_ADVERTISE: 'true',
      SHOWCLOCK_VENUE_NAME: name,
      SHOWCLOCK_VENUE_KEY: VENUE_KEY,
      ...extra,
    }),
    { prefix: ['ip', 'netns', 'exec', pair.ns[side]], ...(extra.SHOWCLOCK_API_KEY === undefined ? {} : { apiKey: extra.SHOWCLOCK_API_KEY }) },
  );
}

/** The tile lists B's overview stream has sent so far, each with when the test read it. */
function venueEvents(from = 0): { at: number; tiles: VenueTiles }[] {
  return (overview?.lines ?? []).slice(from).flatMap((line: SeenLine) => {
    if (!line.text.startsWith('data: ')) return [];
    try {
      return [{ at: line.at, tiles: JSON.parse(line.text.slice('data: '.length)) as VenueTiles }];
    } catch {
      return [];
    }
  });
}

/** The first tile list (from line `from` on) whose tile of room A `match` accepts; with when it was read. */
async function tileOfA(match: (tile: VenueTile) => boolean, timeoutMs: number, what: string, from = 0): Promise<{ at: number; tile: VenueTile }> {
  const line = await overview!.waitFor(
    (text) => {
      if (!text.startsWith('data: ')) return false;
      const tile = (JSON.parse(text.slice('data: '.length)) as VenueTiles).tiles.find((each) => each.name === NAME_A);
      return tile !== undefined && match(tile);
    },
    timeoutMs,
    what,
    from,
  );
  const tile = (JSON.parse(line.text.slice('data: '.length)) as VenueTiles).tiles.find((each) => each.name === NAME_A)!;
  return { at: line.at, tile };
}

beforeAll(async () => {
  if (skipReason !== null) return;
  ensureBundle();
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-venue-netns-'));
  pair = makeNetnsPair();
  [boxA, boxB] = await Promise.all([startBox(0, NAME_A, { SHOWCLOCK_API_KEY: A_API }), startBox(1, NAME_B)]);
  // A running countdown in room A, started over its own API (inside its namespace).
  const started = await execIn(pair, 0, 'curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', `http://127.0.0.1:${PORT}/api/v1/${A_API}/start`], { env: { PATH: process.env.PATH ?? '' } });
  expect(started.stdout).toBe('200');
  overview = new OutputLines(
    runIn(pair, 1, 'curl', ['-sSN', `http://127.0.0.1:${PORT}/venue/${VENUE_KEY}/events`], { env: { PATH: process.env.PATH ?? '' } }),
  );
}, 40_000);

afterAll(async () => {
  await stopService(boxA);
  await stopService(boxB);
  if (pair !== undefined) cleanupNetns(pair);
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  if (Object.keys(figures).length > 0) {
    mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(path.join(ROOT, 'test-artifacts/venue-netns.json'), `${JSON.stringify(figures, null, 2)}\n`);
  }
});

describe.skipIf(skipReason !== null)(`the venue overview across a network${skipReason === null ? '' : ` (skipped: ${skipReason})`}`, () => {
  it("box B's overview shows room A, found by mDNS and live: its name, its running timer, ON AIR as set on A", async () => {
    const startedAt = Date.now();
    const { at, tile } = await tileOfA((each) => each.status === 'live' && each.snapshot !== null, 15_000, 'room A live on B’s overview');
    figures.foundAndLiveAfterStartMs = at - startedAt;
    expect(tile.kind).toBe('found');
    expect(tile.frontDoor).toBe(`http://${pair!.addresses[0]}:${PORT}/`);
    expect(tile.snapshot?.running).toBe(true);
    // B's own room is there too, and nothing else.
    const names = venueEvents().at(-1)!.tiles.tiles.map((each) => each.name);
    expect(names.sort()).toEqual([NAME_A, NAME_B]);
    // A change on A reaches B's overview.
    const from = overview!.lines.length;
    const setAt = Date.now();
    const onAir = await execIn(pair!, 0, 'curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', `http://127.0.0.1:${PORT}/api/v1/${A_API}/onair?on=1`], { env: { PATH: process.env.PATH ?? '' } });
    expect(onAir.stdout).toBe('200');
    const shown = await tileOfA((each) => each.snapshot?.onAir === true, 5_000, 'ON AIR of room A on B’s overview', from);
    figures.onAirOnOverviewMs = shown.at - setAt;
    // Neither box ever printed the venue key.
    expect(JSON.stringify([...boxA!.lines, ...boxB!.lines])).not.toContain(VENUE_KEY);
  }, 30_000);

  it('A’s cable pulled: B shows it not answering within 5 s; plugged back: live again', async () => {
    const from = overview!.lines.length;
    const pulledAt = Date.now();
    execFileSync('ip', ['-n', pair!.ns[0], 'link', 'set', pair!.links[0], 'down']);
    const lost = await tileOfA((each) => each.status === 'lost', LOST_WITHIN_MS + 2_000, 'room A lost after its cable was pulled', from);
    const lostMs = lost.at - pulledAt;
    // The room's last state stays on the tile (greyed by the page), with why.
    expect(lost.tile.snapshot?.running).toBe(true);
    expect(lost.tile.message).not.toBeNull();
    const again = overview!.lines.length;
    const pluggedAt = Date.now();
    execFileSync('ip', ['-n', pair!.ns[0], 'link', 'set', pair!.links[0], 'up']);
    const back = await tileOfA((each) => each.status === 'live', 15_000, 'room A live again after its cable was plugged back', again);
    figures.cablePulled = { lostAfterMs: lostMs, liveAgainAfterPluggedMs: back.at - pluggedAt, note: 'veth of A down (no goodbye, no FIN): silence on the 1 s heartbeat' };
    expect(lostMs).toBeLessThan(LOST_WITHIN_MS);
  }, 30_000);

  it('A stopped (SIGTERM): B shows it not answering within 5 s, and B goes on', async () => {
    const from = overview!.lines.length;
    const stoppedAt = Date.now();
    boxA!.child.kill('SIGTERM');
    const lost = await tileOfA((each) => each.status === 'lost', LOST_WITHIN_MS + 2_000, 'room A lost after it stopped', from);
    figures.stopped = { lostAfterMs: lost.at - stoppedAt, note: 'SIGTERM to box A until B’s overview stream said lost' };
    expect(lost.at - stoppedAt).toBeLessThan(LOST_WITHIN_MS);
    expect((await boxA!.exited).code).toBe(0);
    // The tile stays (a stage manager must see the room is down), and B's own room is live.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const last = venueEvents().at(-1)!.tiles.tiles;
    expect(last.find((each) => each.name === NAME_A)?.status).toBe('lost');
    expect(last.find((each) => each.name === NAME_B)?.status).toBe('live');
    expect(boxB!.child.exitCode).toBeNull();
  }, 30_000);
});
