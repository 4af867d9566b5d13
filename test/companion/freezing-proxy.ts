// A TCP proxy in front of the box whose link can freeze: while frozen it passes
// nothing either way and holds every byte, and every close, in order, as a
// network that stops carrying packets does (TCP keeps retransmitting); thawed,
// it delivers what it held, so a request the module gave up on during the
// freeze still reaches the box afterwards, as it would for real.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

type Held = { readonly kind: 'data'; readonly bytes: Buffer } | { readonly kind: 'end' };

class Direction {
  readonly #to: net.Socket;
  readonly #held: Held[] = [];

  constructor(to: net.Socket) {
    this.#to = to;
  }

  pass(item: Held, frozen: boolean): void {
    if (frozen || this.#held.length > 0) this.#held.push(item);
    else this.#deliver(item);
  }

  flush(): void {
    for (const item of this.#held.splice(0)) this.#deliver(item);
  }

  #deliver(item: Held): void {
    if (this.#to.destroyed) return;
    if (item.kind === 'data') this.#to.write(item.bytes);
    else this.#to.end();
  }
}

export class FreezingProxy {
  readonly #server: net.Server;
  readonly #directions = new Set<Direction>();
  readonly #sockets = new Set<net.Socket>();
  #frozen = false;
  port = 0;

  private constructor(targetPort: number) {
    this.#server = net.createServer((client) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      const toBox = new Direction(upstream);
      const toModule = new Direction(client);
      for (const d of [toBox, toModule]) this.#directions.add(d);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        // A reset on one side is a close to the other, held like any other byte while frozen.
        s.on('error', () => {});
      }
      client.on('data', (bytes) => toBox.pass({ kind: 'data', bytes }, this.#frozen));
      upstream.on('data', (bytes) => toModule.pass({ kind: 'data', bytes }, this.#frozen));
      client.on('close', () => toBox.pass({ kind: 'end' }, this.#frozen));
      upstream.on('close', () => toModule.pass({ kind: 'end' }, this.#frozen));
    });
  }

  static async start(targetPort: number): Promise<FreezingProxy> {
    const proxy = new FreezingProxy(targetPort);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.#server.address() as AddressInfo).port;
    return proxy;
  }

  freeze(): void {
    this.#frozen = true;
  }

  /** Delivers everything held, in order, then passes traffic again. */
  thaw(): void {
    this.#frozen = false;
    for (const d of this.#directions) d.flush();
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
