// Found on the network, as a laptop in the venue and another box would see it: two
// network namespaces joined by a veth (test/net/netns.ts). Box A (the built service,
// dist/showclock.mjs, advertising) runs in the first; in the second, Debian's
// avahi-daemon with avahi-browse (test/net/avahi.ts), and browseBoxes from the built
// dist/showclock-mdns.cjs in a process of its own (browse-fixture.cjs).
//
// Checked: avahi-browse resolves `_showclock._tcp` with its TXT record (room, api,
// versions, path, and venue=<tag> since A has a venue key; the key itself in no
// record) and `_http._tcp`; the Node browser reports A as a FoundBox; a second box
// with the same name is renamed ("Main hall (2)"), says so in its log, and both stay
// on the network; a box stopped with SIGTERM sends its goodbye, and avahi-browse and
// the Node browser see it gone at once (times in test-artifacts/mdns.json); a box
// whose network has no multicast at all still starts; a box whose network comes up
// after it started (a Pi's Wi-Fi joining late) is advertised on it once it does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venueTag } from '../../src/config/venue-config.js';
import { ensureBundle, ROOT, serviceEnv, startService, stopService, type ServiceProcess } from '../e2e/service-process.js';
import { startAvahi, parseAvahiLine, type Avahi, type AvahiService } from '../net/avahi.js';
import { execFileSync } from 'node:child_process';
import { cleanupNetns, linkAddresses, makeNetnsPair, netnsUnavailable, OutputLines, runIn, type NetnsPair } from '../net/netns.js';

const skipReason = netnsUnavailable();
const NAME = 'Main hall';
const VENUE_KEY = 'VenueKeyForTheMdnsTest_0123456789';
const PORT_A = 8080;
const PORT_B = 8081;
/**
 * A goodbye is one packet: seen within these, or it was not sent (the records would live on for
 * 75 minutes). avahi waits the second RFC 6762 10.1 allows before it drops a record; browseBoxes
 * reports a goodbye at once.
 */
const AVAHI_GONE_WITHIN_MS = 3_000;
const NODE_GONE_WITHIN_MS = 1_000;

interface FixtureEvent {
  readonly event: string;
  readonly at: number;
  readonly box?: { id: string; name: string; addresses: string[]; port: number; api: string | null; venueTag: string | null };
}

let pair: NetnsPair | undefined;
let dir = '';
let avahi: Avahi;
let browser: OutputLines;
let boxA: ServiceProcess | undefined;
let boxB: ServiceProcess | undefined;
const figures: Record<string, unknown> = {};

const events = (): FixtureEvent[] =>
  browser.lines.flatMap((line) => {
    try {
      return [JSON.parse(line.text) as FixtureEvent];
    } catch {
      return [];
    }
  });

function startBox(side: 0 | 1, env: Record<string, string>): Promise<ServiceProcess> {
  if (pair === undefined) throw new Error('no namespaces');
  const dataDir = path.join(dir, `data-${side}-${env.PORT}`);
  return startService(
    serviceEnv({ HOST: '0.0.0.0', SHOWCLOCK_DATA_DIR: dataDir, SHOWCLOCK_VENUE_ADVERTISE: 'true', SHOWCLOCK_GPIO: 'off', ...env }),
    { prefix: ['ip', 'netns', 'exec', pair.ns[side]] },
  );
}

async function resolved(type: string, name: string, timeoutMs = 10_000): Promise<AvahiService[]> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const { stdout } = await avahi.browseOnce(type);
    last = stdout;
    const found = stdout.split('\n').flatMap((line) => {
      const parsed = parseAvahiLine(line);
      return parsed !== null && parsed.event === '=' && parsed.name === name ? [parsed] : [];
    });
    if (found.length > 0) return found;
  }
  throw new Error(`avahi-browse did not resolve "${name}" (${type}) within ${timeoutMs} ms; it printed:\n${last}`);
}

beforeAll(async () => {
  if (skipReason !== null) return;
  ensureBundle();
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-mdns-'));
  pair = makeNetnsPair();
  avahi = await startAvahi(pair, 1, dir);
  browser = new OutputLines(
    runIn(pair, 1, process.execPath, [path.join(ROOT, 'test/mdns/browse-fixture.cjs'), path.join(ROOT, 'dist/showclock-mdns.cjs')]),
  );
  await browser.waitFor((line) => line.includes('"browsing"'), 5_000, 'the Node browser starting');
  boxA = await startBox(0, { PORT: String(PORT_A), SHOWCLOCK_VENUE_NAME: NAME, SHOWCLOCK_VENUE_KEY: VENUE_KEY });
}, 40_000);

afterAll(async () => {
  await stopService(boxA);
  await stopService(boxB);
  if (pair !== undefined) cleanupNetns(pair);
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  if (Object.keys(figures).length > 0) {
    mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(path.join(ROOT, 'test-artifacts/mdns.json'), `${JSON.stringify(figures, null, 2)}\n`);
  }
});

describe.skipIf(skipReason !== null)(`mDNS in a pair of network namespaces${skipReason === null ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('avahi-browse finds the box: _showclock._tcp with room, api, versions, path and the venue tag, never the key', async () => {
    const advertised = await boxA!.waitForLog((line) => line.msg.startsWith('advertised on the network as'));
    expect(advertised.msg).toBe(`advertised on the network as "${NAME}" (_showclock._tcp, port ${PORT_A})`);
    const started = await boxA!.waitForLog((line) => line.msg === 'showclock started');
    // Probing (three probes 250 ms apart, RFC 6762 8.1) and the first announcement, after the start.
    figures.advertisedAfterStartMs = (advertised.time as number) - (started.time as number);
    const [service] = await resolved('_showclock._tcp', NAME);
    // avahi-browse resolves an address of either family (A and AAAA are both advertised): one of A's.
    expect(linkAddresses(pair!, 0), service!.raw).toContain(service!.address);
    expect(service).toMatchObject({ port: PORT_A, type: '_showclock._tcp', host: 'Main-hall.local' });
    expect(service!.txt).toEqual({ room: NAME, api: 'v1', versions: 'v0,v1', path: '/', venue: venueTag(VENUE_KEY) });
    expect(service!.raw).not.toContain(VENUE_KEY);
    expect(JSON.stringify(boxA!.lines)).not.toContain(VENUE_KEY);
  });

  it('avahi-browse finds the front door: _http._tcp under the same name, path=/', async () => {
    const [service] = await resolved('_http._tcp', NAME);
    expect(linkAddresses(pair!, 0), service!.raw).toContain(service!.address);
    expect(service).toMatchObject({ port: PORT_A, txt: { path: '/' }, host: 'Main-hall-web.local' });
  });

  it('the Node browser in the other namespace reports the box as a FoundBox', async () => {
    const line = await browser.waitFor((text) => text.includes('"found"') && text.includes(`"name":"${NAME}"`), 10_000, 'box A found');
    const found = JSON.parse(line.text) as FixtureEvent;
    expect(found.box).toEqual({
      id: `${NAME}._showclock._tcp.local`,
      name: NAME,
      addresses: [pair!.addresses[0]],
      port: PORT_A,
      api: 'v1',
      venueTag: venueTag(VENUE_KEY),
    });
  });

  it('two rooms with one name: the second is renamed, says so in its log, and both stay on the network', async () => {
    boxB = await startBox(1, { PORT: String(PORT_B), SHOWCLOCK_VENUE_NAME: NAME });
    const renamed = await boxB.waitForLog((line) => line.msg.includes('is taken on the network') && line.service === '_showclock._tcp', 15_000);
    expect(renamed.msg).toBe(`mDNS: the name "${NAME}" is taken on the network (another room has it): advertised as "${NAME} (2)" instead`);
    await boxB.waitForLog((line) => line.msg === `advertised on the network as "${NAME} (2)" (_showclock._tcp, port ${PORT_B})`, 15_000);
    const [second] = await resolved('_showclock._tcp', `${NAME} (2)`);
    expect(linkAddresses(pair!, 1), second!.raw).toContain(second!.address);
    expect(second).toMatchObject({ port: PORT_B, txt: { room: NAME, api: 'v1', versions: 'v0,v1', path: '/' } });
    // No venue key on B: no tag.
    expect(second!.txt.venue).toBeUndefined();
    const [first] = await resolved('_showclock._tcp', NAME);
    expect(linkAddresses(pair!, 0)).toContain(first!.address);
    expect(first).toMatchObject({ port: PORT_A });
    const [secondDoor] = await resolved('_http._tcp', `${NAME} (2)`);
    expect(secondDoor).toMatchObject({ port: PORT_B, txt: { path: '/' } });
    // A was there first: it keeps its name, and logs no rename.
    expect(boxA!.lines.some((line) => line.msg.includes('is taken on the network'))).toBe(false);
  }, 30_000);

  it('SIGTERM: the goodbye reaches avahi-browse and the Node browser at once (figures in test-artifacts/mdns.json)', async () => {
    const live = avahi.follow('_showclock._tcp');
    await live.waitFor((line) => parseAvahiLine(line)?.event === '=' && parseAvahiLine(line)?.name === NAME, 10_000, 'avahi-browse -rp resolving box A');
    const id = `${NAME}._showclock._tcp.local`;
    const stoppedAt = Date.now();
    boxA!.child.kill('SIGTERM');
    const [avahiGone, nodeGone, exit] = await Promise.all([
      live.waitFor((line) => parseAvahiLine(line)?.event === '-' && parseAvahiLine(line)?.name === NAME, 10_000, 'avahi-browse seeing box A gone'),
      browser.waitFor((text) => text.includes('"gone"') && text.includes(`"id":"${id}"`), 10_000, 'the Node browser seeing box A gone'),
      boxA!.exited,
    ]);
    expect(exit.code).toBe(0);
    expect(boxA!.lines.some((line) => /mDNS: goodbye packets/.test(line.msg))).toBe(false);
    const avahiMs = avahiGone.at - stoppedAt;
    const nodeMs = nodeGone.at - stoppedAt;
    figures.goneAfterSigterm = {
      avahiBrowseMs: avahiMs,
      nodeBrowserMs: nodeMs,
      note: 'SIGTERM to box A, until avahi-browse -rp (in the other namespace) printed its "-" line, and until browseBoxes reported gone; goodbye packets, not expiry',
    };
    expect(avahiMs).toBeLessThan(AVAHI_GONE_WITHIN_MS);
    expect(nodeMs).toBeLessThan(NODE_GONE_WITHIN_MS);
    // B is still there for both.
    expect(events().filter((event) => event.event === 'gone' && event.box?.id !== id)).toEqual([]);
    const { stdout } = await avahi.browseOnce('_showclock._tcp');
    const names = stdout.split('\n').flatMap((line) => (parseAvahiLine(line)?.event === '=' ? [parseAvahiLine(line)!.name] : []));
    expect(names).toEqual([`${NAME} (2)`]);
  }, 30_000);

  it('a box whose network has no multicast at all (an empty namespace) starts all the same', async () => {
    const lonely = await startService(
      serviceEnv({ HOST: '0.0.0.0', SHOWCLOCK_DATA_DIR: path.join(dir, 'data-lonely'), SHOWCLOCK_VENUE_ADVERTISE: 'true', SHOWCLOCK_VENUE_NAME: 'Lonely room' }),
      { prefix: ['unshare', '--net'] },
    );
    try {
      // Up, and still up a moment later: whatever mDNS made of it, it did not end the box.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(lonely.child.exitCode).toBeNull();
      figures.noNetwork = { mdnsLines: lonely.lines.filter((line) => /mDNS|advertised/.test(line.msg)).map((line) => line.msg) };
    } finally {
      lonely.child.kill('SIGTERM');
      const { code } = await lonely.exited;
      expect(code).toBe(0);
    }
  });
});

describe.skipIf(skipReason !== null)(`mDNS on a network that comes up after the start${skipReason === null ? '' : ` (skipped: ${skipReason})`}`, () => {
  let late: NetnsPair | undefined;
  let box: ServiceProcess | undefined;

  afterAll(async () => {
    await stopService(box);
    if (late !== undefined) cleanupNetns(late);
  });

  it('a box started before its network had an address is advertised once it has one (looked for every 5 s), found within 10 s', async () => {
    late = makeNetnsPair();
    const ns = late.ns[0];
    execFileSync('ip', ['-n', ns, 'addr', 'del', `${late.addresses[0]}/24`, 'dev', late.links[0]]);
    const watcher = new OutputLines(
      runIn(late, 1, process.execPath, [path.join(ROOT, 'test/mdns/browse-fixture.cjs'), path.join(ROOT, 'dist/showclock-mdns.cjs')]),
    );
    await watcher.waitFor((line) => line.includes('"browsing"'), 5_000, 'the Node browser starting');
    box = await startService(
      serviceEnv({ HOST: '0.0.0.0', PORT: String(PORT_A), SHOWCLOCK_DATA_DIR: path.join(dir, 'data-late'), SHOWCLOCK_VENUE_ADVERTISE: 'true', SHOWCLOCK_VENUE_NAME: 'Late room' }),
      { prefix: ['ip', 'netns', 'exec', ns] },
    );
    await box.waitForLog((line) => line.msg.startsWith('advertised on the network as'), 10_000);
    const upAt = Date.now();
    execFileSync('ip', ['-n', ns, 'addr', 'add', `${late.addresses[0]}/24`, 'dev', late.links[0]]);
    const found = await watcher.waitFor((line) => line.includes('"found"') && line.includes('"Late room"'), 25_000, 'the late box found');
    const event = JSON.parse(found.text) as FixtureEvent;
    expect(event.box).toMatchObject({ name: 'Late room', addresses: [late.addresses[0]], port: PORT_A });
    figures.foundAfterAddressCameUpMs = found.at - upAt;
    expect(found.at - upAt).toBeLessThan(10_000);
    expect(box.lines.some((line) => line.msg.startsWith(`mDNS: ${late!.links[0]} has an IPv4 address now`))).toBe(true);
  }, 45_000);
});
