// The logo over HTTP (issue 15): POST /api/v1/{api_key}/display/logo with the image
// as the body, content checked against the declared type, at most 1 MB; stored in
// the data directory, `display.logo` in the state, served at /logo/{version} with
// its type, nosniff, a long cache and, for SVG, a sandboxing CSP; removed by
// /display/logo/delete; kept across a restart (the room file and the logo file).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOGO_BYTES } from '../../src/commands/logo-content.js';
import { restoreRoom } from '../../src/store/restore.js';
import { parseDocument, serializeDocument, toDocument } from '../../src/store/room-document.js';
import { StateEnvelopeSchema } from '../../src/commands/schemas.js';
import { OpenApiChecker, servedDocument } from '../helpers/openapi-check.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { LOGO_FIXTURES, SCRIPTED_SVG } from '../helpers/logo-fixtures.js';

let checker: OpenApiChecker;
beforeAll(async () => {
  checker = new OpenApiChecker(await servedDocument());
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(dataDir = mkdtempSync(path.join(tmpdir(), 'showclock-logo-'))) {
  dirs.push(dataDir);
  return { t: createTestApp({ dataDir }), dataDir };
}

/** An upload; the answer is JSON and fits the document. */
async function upload(t: TestApp, type: string, bytes: Uint8Array<ArrayBuffer>) {
  const where = `/api/v1/${t.keys.apiKey}/display/logo`;
  const res = await t.request(where, { method: 'POST', headers: { 'Content-Type': type }, body: bytes });
  const body: unknown = await res.json();
  checker.check('POST', where, res.status, body);
  return { status: res.status, body: body as { ok: boolean; error?: string; state?: { display: { logo: string | null } } } };
}

describe('POST /display/logo', () => {
  it.each(Object.entries(LOGO_FIXTURES))('accepts %s, stores it and serves it with its type', async (type, bytes) => {
    const { t, dataDir } = setup();
    const seq = t.service.room.seq;
    const { status, body } = await upload(t, type, bytes);
    expect(status, JSON.stringify(body)).toBe(200);
    const version = body.state?.display.logo ?? '';
    expect(version).toMatch(/^[0-9a-f]{16}\.(png|jpg|svg|webp)$/);
    expect(t.service.room.seq).toBe(seq + 1);
    expect(readdirSync(dataDir)).toEqual([`logo-${version}`]);
    const served = await t.request(`/logo/${version}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(type);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    if (type === 'image/svg+xml') expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    else expect(served.headers.get('content-security-policy')).toBeNull();
  });

  it('refuses a body over 1 MB with 413, changing nothing', async () => {
    const { t, dataDir } = setup();
    const big = new Uint8Array(MAX_LOGO_BYTES + 1);
    big.set(LOGO_FIXTURES['image/png']);
    const { status, body } = await upload(t, 'image/png', big);
    expect(status).toBe(413);
    expect(body.error).toMatch(/at most 1048576 bytes/);
    expect(t.service.room.display.logo).toBeNull();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a type that is not an image it takes, naming it', async () => {
    const { t } = setup();
    const { status, body } = await upload(t, 'image/gif', new TextEncoder().encode('GIF89a....'));
    expect(status).toBe(400);
    expect(body.error).toMatch(/^Content-Type: must be one of image\/png, image\/jpeg, image\/svg\+xml, image\/webp.*"image\/gif"/);
  });

  it('refuses PNG bytes declared as JPEG, and text declared as SVG that is not SVG', async () => {
    const { t } = setup();
    const png = await upload(t, 'image/jpeg', LOGO_FIXTURES['image/png']);
    expect(png.status).toBe(400);
    expect(png.body.error).toBe('body: declared image/jpeg but the content is image/png');
    const html = await upload(t, 'image/svg+xml', new TextEncoder().encode('<html><body>hi</body></html>'));
    expect(html.body.error).toBe('body: declared image/svg+xml but its root element is <html>, not <svg>');
    const broken = await upload(t, 'image/svg+xml', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'));
    expect(broken.body.error).toMatch(/^body: declared image\/svg\+xml but it is not well-formed XML/);
    expect(t.service.room.display.logo).toBeNull();
  });

  it('stores an SVG with a script, served so that it cannot run (sandbox CSP, nosniff)', async () => {
    const { t } = setup();
    const { status, body } = await upload(t, 'image/svg+xml', SCRIPTED_SVG);
    expect(status).toBe(200);
    const served = await t.request(`/logo/${body.state?.display.logo ?? ''}`);
    const csp = served.headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", 'sandbox']));
    expect(csp).not.toMatch(/script-src/);
  });

  it('needs the key to upload, not to view; an old or unknown version is 404', async () => {
    const { t } = setup();
    const refused = await t.request('/api/v1/wrong-key/display/logo', { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: LOGO_FIXTURES['image/png'] });
    expect(refused.status).toBe(401);
    const first = (await upload(t, 'image/png', LOGO_FIXTURES['image/png'])).body.state?.display.logo ?? '';
    const second = (await upload(t, 'image/webp', LOGO_FIXTURES['image/webp'])).body.state?.display.logo ?? '';
    expect(second).not.toBe(first);
    expect((await t.request(`/logo/${first}`)).status).toBe(404);
    expect((await t.request('/logo/..%2Fkeys.json')).status).toBe(404);
    expect((await t.request(`/logo/${second}`)).status).toBe(200);
  });
});

describe('/display/logo/delete', () => {
  it.each(['GET', 'POST'])('%s removes the logo and its file', async (method) => {
    const { t, dataDir } = setup();
    const version = (await upload(t, 'image/png', LOGO_FIXTURES['image/png'])).body.state?.display.logo ?? '';
    const where = `/api/v1/${t.keys.apiKey}/display/logo/delete`;
    const res = await t.request(where, { method });
    const body: unknown = await res.json();
    checker.check(method, where, res.status, body);
    expect(res.status).toBe(200);
    expect(StateEnvelopeSchema.parse(body).state.display.logo).toBeNull();
    expect(readdirSync(dataDir)).toEqual([]);
    expect((await t.request(`/logo/${version}`)).status).toBe(404);
  });

  it('holds a POST body to the limit every POST has (413)', async () => {
    const { t } = setup();
    const res = await t.request(`/api/v1/${t.keys.apiKey}/display/logo/delete`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
  });
});

describe('a restart', () => {
  it('keeps the logo: the room file names it and the data directory holds it', async () => {
    const { t, dataDir } = setup();
    const version = (await upload(t, 'image/svg+xml', LOGO_FIXTURES['image/svg+xml'])).body.state?.display.logo ?? '';
    const now = { monoMs: t.clock.monoMs(), wallMs: t.clock.wallMs() };
    const read = parseDocument(serializeDocument(toDocument(t.service.room, now, t.service.room.seq + 10)));
    if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
    const restarted = createTestApp({ room: restoreRoom(read.document, now).room, dataDir });
    expect(restarted.service.room.display.logo).toBe(version);
    const served = await restarted.request(`/logo/${version}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(LOGO_FIXTURES['image/svg+xml']);
  });

  it('reads a room file from before logos as having none, shown once uploaded', () => {
    const { t } = setup();
    const now = { monoMs: t.clock.monoMs(), wallMs: t.clock.wallMs() };
    const json = JSON.parse(serializeDocument(toDocument(t.service.room, now, t.service.room.seq + 10))) as { room: { display: Record<string, unknown> } };
    delete json.room.display.logo;
    delete json.room.display.showLogo;
    const read = parseDocument(JSON.stringify(json));
    if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
    expect(read.document.room.display).toMatchObject({ logo: null, showLogo: true });
  });
});
