// Moderating audience questions over the v1 API (issue 16), and who sees them:
// the API key's state and stream carry every question; the viewer link and the
// kiosk carry only the one shown, and nothing at all of questions that are not.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/domain/types.js';
import { API_KEY, AUDIENCE_KEY, createTestApp, VIEWER_KEY, type TestApp } from '../helpers/test-app.js';
import { readStream, rebuild, stateOf } from '../push/sse-reader.js';

async function ask(t: TestApp, text: string, name = ''): Promise<string> {
  const response = await t.request(`/ask/${AUDIENCE_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text, name }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function questions(t: TestApp): Promise<Question[]> {
  const response = await t.get('v1', '/questions');
  expect(response.status).toBe(200);
  return ((await response.json()) as { questions: Question[] }).questions;
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

function body(res: Response): ReadableStream<Uint8Array> {
  if (res.body === null) throw new Error(`no body (status ${res.status})`);
  return res.body;
}

describe('moderation operations', () => {
  it('lists the questions oldest first, each with its state, in /questions and in the state', async () => {
    const t = createTestApp();
    const first = await ask(t, 'First?', 'Ada');
    const second = await ask(t, 'Second?');
    expect((await questions(t)).map((q) => [q.id, q.text, q.name, q.state])).toEqual([
      [first, 'First?', 'Ada', 'new'],
      [second, 'Second?', '', 'new'],
    ]);
    const state = ((await (await t.get('v1', '/state')).json()) as { state: { questions: Question[]; shownQuestion: unknown } }).state;
    expect(state.questions.map((q) => q.id)).toEqual([first, second]);
    expect(state.shownQuestion).toBeNull();
  });

  it('approve, hide, show, unshow, answered, delete and clear_answered, by GET and by POST', async () => {
    const t = createTestApp();
    const [a, b, c] = [await ask(t, 'A?', 'Ann'), await ask(t, 'B?'), await ask(t, 'C?')];
    const stateOfQuestion = async (id: string) => (await questions(t)).find((q) => q.id === id)?.state;

    expect((await t.get('v1', `/question/approve?questionId=${a}`)).status).toBe(200);
    expect(await stateOfQuestion(a)).toBe('approved');
    expect((await t.post('v1', '/question/hide', { questionId: b })).status).toBe(200);
    expect(await stateOfQuestion(b)).toBe('hidden');

    const shown = await t.post('v1', '/question/show', { questionId: a, withName: true });
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as { state: { shownQuestion: unknown } }).state.shownQuestion).toEqual({ id: a, text: 'A?', name: 'Ann' });
    // The next one shown takes its place; the first is taken as answered.
    const next = await t.get('v1', `/question/show?questionId=${c}`);
    expect(((await next.json()) as { state: { shownQuestion: unknown } }).state.shownQuestion).toEqual({ id: c, text: 'C?', name: null });
    expect(await stateOfQuestion(a)).toBe('answered');

    expect((await t.get('v1', '/question/unshow')).status).toBe(200);
    expect(await stateOfQuestion(c)).toBe('approved');
    expect((await t.get('v1', `/question/answered?questionId=${c}`)).status).toBe(200);
    expect((await t.get('v1', `/question/delete?questionId=${b}`)).status).toBe(200);
    expect((await questions(t)).map((q) => [q.id, q.state])).toEqual([
      [a, 'answered'],
      [c, 'answered'],
    ]);
    expect((await t.post('v1', '/questions/clear_answered')).status).toBe(200);
    expect(await questions(t)).toEqual([]);
  });

  it('refuses an unknown or malformed questionId with 400 naming it, and a missing one', async () => {
    const t = createTestApp();
    await ask(t, 'Here?');
    const unknown = await t.get('v1', '/question/approve?questionId=q000');
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toBe('questionId: no question with id "q000"; GET /questions lists them');
    const malformed = await t.get('v1', '/question/show?questionId=%3Cb%3E');
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toMatch(/^questionId: must be the id of one of the room's questions/);
    const missing = await t.get('v1', '/question/hide');
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatch(/^questionId: is required/);
    const badFlag = await t.get('v1', '/question/show?questionId=q1&withName=yes');
    expect(badFlag.status).toBe(400);
    expect(await errorOf(badFlag)).toMatch(/^withName: must be 0 or 1/);
  });

  it('the audience key opens nothing of the API, and the API key is not an audience key', async () => {
    const t = createTestApp();
    expect((await t.request(`/api/v1/${AUDIENCE_KEY}/state`)).status).toBe(401);
    expect((await t.request(`/api/v1/${AUDIENCE_KEY}/questions`)).status).toBe(401);
    expect((await t.request(`/view/${AUDIENCE_KEY}`)).status).toBe(401);
    expect((await t.request(`/control/${AUDIENCE_KEY}`)).status).toBe(401);
    const asApi = await t.request(`/ask/${API_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text":"Hi?"}' });
    expect(asApi.status).toBe(401);
    expect(t.service.room.questions).toEqual([]);
  });
});

describe('who sees the questions', () => {
  it('the viewer stream carries the shown question only, never the list, and no event for a question not on the screens', async () => {
    const t = createTestApp();
    const viewer = readStream(body(await t.request(`/view/${VIEWER_KEY}/events`)));
    const console = readStream(body(await t.get('v1', '/events')));
    const [viewerFirst] = await viewer.waitForEvents(1);
    await console.waitForEvents(1);
    expect(stateOf(viewerFirst!)).not.toHaveProperty('questions');

    const hidden = await ask(t, 'Secret <b>plan</b>?', 'Mallory');
    const shown = await ask(t, 'Public?', 'Ada');
    await t.get('v1', `/question/hide?questionId=${hidden}`);
    // The console saw each of the three changes; the screens nothing yet.
    const consoleEvents = await console.waitForEvents(4);
    expect(rebuild(consoleEvents)[3]?.questions?.map((q) => q.id)).toEqual([hidden, shown]);
    await t.get('v1', `/question/show?questionId=${shown}`);
    const viewerEvents = await viewer.waitForEvents(2);
    expect(viewerEvents).toHaveLength(2);
    const onScreen = rebuild(viewerEvents)[1];
    expect(onScreen?.shownQuestion).toEqual({ id: shown, text: 'Public?', name: null });
    expect(onScreen).not.toHaveProperty('questions');
    // Nothing of the other question, or of a name not chosen for the screens, is anywhere in what a viewer got.
    expect(viewer.text()).not.toMatch(/Secret|Mallory|Ada/);
    await viewer.cancel();
    await console.cancel();
  });

  it('the kiosk stream is the same as the viewer stream: the shown question only', async () => {
    const t = createTestApp();
    await ask(t, 'Not on screen?');
    const kiosk = readStream(body(await t.request('/display/events')));
    const [first] = await kiosk.waitForEvents(1);
    expect(stateOf(first!)).not.toHaveProperty('questions');
    expect(kiosk.text()).not.toMatch(/Not on screen/);
    await kiosk.cancel();
  });

  it('a change beside a question (the timer, say) still reaches the screens at once', async () => {
    const t = createTestApp();
    const viewer = readStream(body(await t.request(`/view/${VIEWER_KEY}/events`)));
    await viewer.waitForEvents(1);
    await ask(t, 'Quiet?');
    await t.get('v1', '/start');
    const events = await viewer.waitForEvents(2);
    expect(rebuild(events)[1]?.running).toBe(true);
    await viewer.cancel();
  });

  it('no key is in anything the audience page gets', async () => {
    const t = createTestApp();
    const page = await (await t.request(`/ask/${AUDIENCE_KEY}`)).text();
    expect(page).not.toContain(API_KEY);
    expect(page).not.toContain(VIEWER_KEY);
    const answer = await (await t.request(`/ask/${AUDIENCE_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text":"Keys?"}' })).text();
    expect(answer).not.toContain(API_KEY);
    expect(answer).not.toMatch(/"state"|"questions"/);
  });
});

describe('the audience link on the screens (showAskLink)', () => {
  it('is 404 while the setting is off, then an SVG with the QR code and the link for the kiosk and the viewer link', async () => {
    const t = createTestApp();
    expect((await t.request('/display/ask-link.svg')).status).toBe(404);
    expect((await t.request(`/view/${VIEWER_KEY}/ask-link.svg`)).status).toBe(404);
    expect((await t.get('v1', '/display?showAskLink=1')).status).toBe(200);
    for (const path of ['/display/ask-link.svg', `/view/${VIEWER_KEY}/ask-link.svg`]) {
      const response = await t.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
      const svg = await response.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain(`/ask/${AUDIENCE_KEY}`);
      expect(svg).toMatch(/<path d="(M\d+ \d+h1v1h-1z)+"/);
      expect(svg).not.toContain(API_KEY);
    }
    // A wrong viewer key gets nothing of it.
    expect((await t.request('/view/WrongViewerKey_000000000000/ask-link.svg')).status).toBe(401);
  });
});

describe('a body without a length', () => {
  it('is read only up to the 16 KB limit, then refused with 413: a huge upload is never taken in whole', async () => {
    const t = createTestApp();
    let pulled = 0;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await t.request(`/ask/${AUDIENCE_KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatch(/^too long/);
    // 1024 chunks of 64 KB were on offer (64 MB); only the first few were read.
    expect(pulled).toBeLessThan(8);
    expect(t.service.room.questions).toEqual([]);
  });
});

describe('a crowd', () => {
  it('takes 300 questions a minute for the whole box, then answers 503 with Retry-After, and the minute after takes more', async () => {
    const t = createTestApp();
    const send = (i: number) =>
      t.request(`/ask/${AUDIENCE_KEY}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: `Question ${i}?` }),
        // Five from each of 61 phones: every one within its own limit.
        client: `10.0.${Math.floor(i / 5)}.1`,
      });
    const answers = await Promise.all(Array.from({ length: 305 }, (_, i) => send(i)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(300);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(refused[0] as Response)).toMatch(/^the box is taking many questions right now; try again in \d+ s/);
    expect(t.service.room.questions).toHaveLength(300);
    // The API key's quota was never touched.
    expect((await t.get('v1', '/state')).headers.get('ratelimit-remaining')).toBe('99');
    t.clock.advance(60_000);
    expect((await send(1_000)).status).toBe(201);
  });
});
