// Feedback datagrams as a target would receive them, decoded: what OscFeedback sent, to whom.
import { fromBuffer } from 'osc-min';
import type { DatagramOut } from '../../src/osc/osc-feedback.js';

export interface Sent {
  readonly to: string;
  readonly address: string;
  readonly value: unknown;
}

export class RecordingOut implements DatagramOut {
  readonly sent: Sent[] = [];
  /** When false, sends never complete: a socket that does not drain. */
  completes = true;
  closed = false;

  send(data: Buffer, port: number, address: string, done: (error: Error | null) => void): void {
    const packet = fromBuffer(data);
    if (packet.oscType !== 'message') throw new Error('feedback sends messages, not bundles');
    this.sent.push({ to: `${address}:${port}`, address: packet.address, value: packet.args[0]?.value });
    if (this.completes) queueMicrotask(() => done(null));
  }

  close(): void {
    this.closed = true;
  }

  /** The updates one target got: each is the values of one send, by name. */
  updates(to = '127.0.0.1:9000'): Record<string, unknown>[] {
    const updates: Record<string, unknown>[] = [];
    for (const { address, value } of this.sent.filter((s) => s.to === to)) {
      const name = address.replace('/showclock/state/', '');
      if (name === 'remaining') updates.push({});
      (updates[updates.length - 1] as Record<string, unknown>)[name] = value;
    }
    return updates;
  }
}
