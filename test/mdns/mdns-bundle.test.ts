// mDNS in the service as it is built: ciao and multicast-dns are in a file of their own
// beside the bundle (dist/showclock-mdns.cjs), not in the bundle every box keeps in
// memory, and the chunk leaves out ciao's source-map-support hook, which would replace
// Error.prepareStackTrace for the whole service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BESIDE_BUNDLE, serviceBundleOptions, writeBundleSideFiles } from '../../scripts/build.mjs';

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'showclock-mdns-bundle-'));
  await build(serviceBundleOptions({ outfile: path.join(dir, 'showclock.cjs') }));
  await writeBundleSideFiles(dir);
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('mDNS in the built service', () => {
  it('is a file beside the bundle, which start.mjs checks for', () => {
    expect(BESIDE_BUNDLE).toContain('showclock-mdns.cjs');
    const bundle = readFileSync(path.join(dir, 'showclock.cjs'), 'utf8');
    const chunk = readFileSync(path.join(dir, 'showclock-mdns.cjs'), 'utf8');
    // ciao's own marker and multicast-dns's group address: in the chunk, not the bundle.
    expect(chunk).toContain('_services._dns-sd._udp.local');
    expect(chunk).toContain('224.0.0.251');
    expect(bundle).not.toContain('_services._dns-sd._udp.local');
    expect(bundle).toContain('showclock-mdns.cjs');
  });

  it('loads on its own and leaves Error.prepareStackTrace alone', () => {
    const before = Error.prepareStackTrace;
    const chunk = createRequire(import.meta.url)(path.join(dir, 'showclock-mdns.cjs')) as Record<string, unknown>;
    expect(typeof chunk.startMdns).toBe('function');
    expect(typeof chunk.browseBoxes).toBe('function');
    expect(Error.prepareStackTrace).toBe(before);
  });
});
