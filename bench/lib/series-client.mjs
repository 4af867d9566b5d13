// One client sending requests in series over one kept-alive connection, each
// timed with the monotonic clock from just before the request is written to the
// end of its answer. autocannon's latency histogram counts whole milliseconds,
// too coarse for a budget of half a millisecond, so this figure is timed here.
import http from 'node:http';

/**
 * @param {number} port
 * @param {readonly string[]} paths requested in turn, cycling
 * @param {number} count requests in all
 * @returns {Promise<{ path: string; ms: number }[]>}
 */
export async function timeInSeries(port, paths, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** @type {{ path: string; ms: number }[]} */
  const samples = [];
  try {
    for (let i = 0; i < count; i++) {
      const pathname = /** @type {string} */ (paths[i % paths.length]);
      const startedAt = process.hrtime.bigint();
      const status = await new Promise((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: pathname, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
      const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
      if (status !== 200) throw new Error(`GET ${pathname.replace(/\/api\/v1\/[^/]+/, '/api/v1/{key}')} answered ${status}`);
      samples.push({ path: pathname, ms });
    }
  } finally {
    agent.destroy();
  }
  return samples;
}

/**
 * One GET on the kept-alive agent, parsed as JSON.
 * @param {http.Agent} agent
 * @param {number} port
 * @param {string} pathname
 */
export function getJson(agent, port, pathname) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent }, (res) => readJson(res, resolve, reject));
    req.on('error', reject);
  });
}

/** Collects an answer's body and resolves with its status and parsed JSON. */
function readJson(res, resolve, reject) {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    text += chunk;
  });
  res.on('end', () => {
    try {
      resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
    } catch (error) {
      reject(error);
    }
  });
  res.on('error', reject);
}

/** A JSON POST on `agent`; resolves with the status and the parsed body. */
export function postJson(agent, port, pathname, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) };
    const req = http.request({ host: '127.0.0.1', port, path: pathname, agent, method: 'POST', headers }, (res) => readJson(res, resolve, reject));
    req.on('error', reject);
    req.end(payload);
  });
}
