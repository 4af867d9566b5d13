// Reference for the start and idle-memory figures: the least a service on the
// design card's stack can be, hono on @hono/node-server with one route
// (GET /healthz) and nothing of Showclock. The bench bundles and minifies it as
// the service is bundled, so its start and idle memory are the floor of any
// hono service on this machine's Node.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/healthz', (c) => c.json({ ok: true }));
serve({ fetch: app.fetch, hostname: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
