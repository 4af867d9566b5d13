// Many push-stream (SSE) clients on raw sockets, for the fan-out figure: no
// tool measures how long a change takes to reach the last of 500 screens. Each
// client only looks for the `id:` line of each event (the snapshot's seq) and
// notes when it arrived; the data line is not parsed, so the clients cost as
// little as possible of the time they measure. All clients share this process,
// so the figure includes the few microseconds each takes to be read here.
import net from 'node:net';

const ID_LINE = Buffer.from('\nid: ');
/**
 * One read buffer for every client: `onread` hands each read to its callback
 * synchronously, so the clients can take turns with it, and no read allocates
 * (the stream machinery of a 'data' listener would cost the readers more time
 * than the server spends writing to them).
 */
const READ_BUFFER = Buffer.alloc(64 * 1024);

class SseClient {
  /** @type {net.Socket} */
  socket;
  /** Highest seq seen so far. */
  seq = 0;
  /** seq -> arrival (performance.now()) of the read that brought it. */
  arrivals = new Map();
  /** A copy of the end of the previous read, when an `id:` line may have been cut there. */
  #tail = Buffer.alloc(0);
  #onEvent;

  /**
   * @param {number} port
   * @param {string} pathname
   * @param {(client: SseClient) => void} onEvent
   */
  constructor(port, pathname, onEvent) {
    this.#onEvent = onEvent;
    this.socket = net.connect({
      host: '127.0.0.1',
      port,
      onread: { buffer: READ_BUFFER, callback: (nread, buf) => this.#read(buf.subarray(0, nread)) },
    });
    this.socket.on('connect', () => {
      this.socket.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    this.socket.on('error', () => {
      // Ended by the bench or the server; the caller notices missing arrivals.
    });
  }

  /** @param {Buffer} chunk only valid during this call (the shared read buffer) */
  #read(chunk) {
    const at = performance.now();
    let newest = this.seq;
    // The seam with the previous read, in case an `id:` line was cut there (rare: a few bytes are copied).
    const seamSource = this.#tail.length === 0 ? null : Buffer.concat([this.#tail, chunk.subarray(0, 32)]);
    const scan = (buf) => {
      let from = 0;
      for (;;) {
        const i = buf.indexOf(ID_LINE, from);
        if (i < 0) return -1;
        const end = buf.indexOf(10, i + ID_LINE.length);
        if (end < 0) return i;
        const seq = Number(buf.toString('latin1', i + ID_LINE.length, end));
        if (seq > newest) newest = seq;
        from = end;
      }
    };
    if (seamSource !== null) scan(seamSource);
    const cut = scan(chunk);
    // Keep a copy of what may be the start of a cut `\nid: ` line.
    this.#tail = Buffer.from(cut >= 0 ? chunk.subarray(cut) : chunk.subarray(Math.max(0, chunk.length - ID_LINE.length)));
    if (newest > this.seq) {
      this.seq = newest;
      this.arrivals.set(newest, at);
      this.#onEvent(this);
    }
    return true;
  }

  close() {
    this.socket.destroy();
  }
}

/**
 * Opens `count` streams on `pathname` and resolves once every one has received
 * its first event (the current snapshot).
 * @param {{ port: number; pathname: string; count: number; batch?: number; timeoutMs?: number }} opts
 */
export async function openStreams(opts) {
  /** @type {SseClient[]} */
  const clients = [];
  let waiting = null;
  const onEvent = () => waiting?.();
  const batch = opts.batch ?? 50;
  for (let opened = 0; opened < opts.count; opened += batch) {
    const group = [];
    for (let i = opened; i < Math.min(opts.count, opened + batch); i++) group.push(new SseClient(opts.port, opts.pathname, onEvent));
    clients.push(...group);
    // A batch at a time: a storm of connects would measure the accept queue, not the push.
    await untilAll(group, (c) => c.seq > 0, opts.timeoutMs ?? 10_000, (wake) => (waiting = wake));
  }
  return new StreamSet(clients, (wake) => (waiting = wake));
}

/**
 * @param {readonly SseClient[]} clients
 * @param {(c: SseClient) => boolean} done
 * @param {number} timeoutMs
 * @param {(wake: () => void) => void} setWake
 */
function untilAll(clients, done, timeoutMs, setWake) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const missing = clients.filter((c) => !done(c)).length;
      reject(new Error(`${missing} of ${clients.length} push streams got nothing within ${timeoutMs} ms`));
    }, timeoutMs);
    let remaining = clients.filter((c) => !done(c)).length;
    const check = () => {
      remaining = clients.filter((c) => !done(c)).length;
      if (remaining === 0) {
        clearTimeout(timer);
        setWake(() => {});
        resolve(undefined);
      }
    };
    // Counting on every event would cost 500 x 500 checks per change: count down instead,
    // and recount only when the count says everyone might be done.
    setWake(() => {
      remaining -= 1;
      if (remaining <= 0) check();
    });
    check();
  });
}

class StreamSet {
  /**
   * @param {SseClient[]} clients
   * @param {(wake: () => void) => void} setWake
   */
  constructor(clients, setWake) {
    this.clients = clients;
    this.setWake = setWake;
  }

  /** The seq every client has seen (the lowest). */
  get seq() {
    return Math.min(...this.clients.map((c) => c.seq));
  }

  /**
   * Resolves once every client has seen `seq` (or a later one), with the arrival
   * time at the last and the first of them.
   * @param {number} seq
   */
  async waitFor(seq, timeoutMs = 5_000) {
    await untilAll(this.clients, (c) => c.seq >= seq, timeoutMs, this.setWake);
    let last = -Infinity;
    let first = Infinity;
    for (const c of this.clients) {
      let at = Infinity;
      for (const [s, t] of c.arrivals) if (s >= seq && t < at) at = t;
      if (at > last) last = at;
      if (at < first) first = at;
      c.arrivals.clear();
    }
    return { last, first };
  }

  close() {
    for (const c of this.clients) c.close();
  }
}
