// Reference for the memory and start figures: the least a Node service doing
// Showclock's job can load and hold, on plain node:http with nothing of
// Showclock in it. It loads node:crypto (the keys) and touches the Web Response
// and Headers classes, which loads Node's bundled fetch implementation (undici):
// hono builds every answer with them, so no hono service on Node runs without
// it. It answers the same requests the load phase sends (/healthz, .../state,
// .../adjust, .../events) with a snapshot of the same size, and pushes each
// change to every stream with one write, so its memory under the same load is
// what Node itself needs for that load.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

// Touch what hono's adapter touches at start.
void new Response(null, { headers: new Headers({ 'X-Floor': randomBytes(4).toString('hex') }) });

let seq = 1;
let remainingAtPause = 600_000;
const streams = new Set();

/** FLOOR_WRITE: another way to write a change to the streams (bench/limits/writers.mjs); unset, the floor's own loop. */
const fanOut = process.env.FLOOR_WRITE ? (await import('../limits/writers.mjs')).fanOutWriter(process.env.FLOOR_WRITE) : null;

/**
 * The service's own snapshot, when the bench hands it one (FLOOR_SNAPSHOT: a file
 * holding the `state` of the service's GET /state in the same run): then this
 * server serialises an object of the same fields, size and order, with its time
 * fields made fresh, as the service does. Without it, a snapshot of the usual fields.
 */
const template = process.env.FLOOR_SNAPSHOT ? JSON.parse(readFileSync(process.env.FLOOR_SNAPSHOT, 'utf8')) : null;

function snapshot() {
  if (template !== null) {
    const serverNow = Date.now();
    return { ...template, seq, serverNow, remainingAtPause, remaining: remainingAtPause };
  }
  return {
    seq,
    serverNow: Date.now(),
    running: false,
    endAt: null,
    remainingAtPause,
    remaining: remainingAtPause,
    zeroBehavior: 'continue',
    autoAdvance: false,
    blackout: false,
    onAir: false,
    activeTimerId: 'a1b2c3d4',
    activeLabel: 'Timer 1',
    activeSpeaker: '',
    warnAt: 60_000,
    duration: 600_000,
    message: null,
    timers: [{ id: 'a1b2c3d4', label: 'Timer 1', speaker: '', duration: 600_000, warnAt: 60_000, appearance: 'countdown', tagId: null, scheduledAt: null }],
    settings: { zeroBehavior: 'continue', autoAdvance: false },
  };
}

const event = () => Buffer.from(`id: ${seq}\nevent: state\ndata: ${JSON.stringify(snapshot())}\n\n`);

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // The service's push path, as the bench opens it: `${api}/events` (the API-key budget holds 500 streams).
  if (url.pathname.endsWith('/events')) {
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write(event());
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  if (url.pathname.endsWith('/adjust')) {
    remainingAtPause += Number(url.searchParams.get('ms') ?? 0);
    seq += 1;
    const bytes = event();
    if (fanOut !== null) fanOut(streams, bytes);
    else for (const stream of streams) stream.write(bytes);
  }
  const body = url.pathname === '/healthz' ? '{"ok":true}' : JSON.stringify({ ok: true, state: snapshot() });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  for (const stream of streams) stream.destroy();
  server.close(() => process.exit(0));
});
