// The wire format of the push channel (Server-Sent Events). One event per state
// change: `id` is the snapshot's seq, so a client's Last-Event-ID names what it saw.
import type { PublicSnapshot, Snapshot } from '../domain/snapshot.js';
import type { SnapshotDelta } from '../domain/snapshot-delta.js';
import { snapshotJson } from '../domain/snapshot-json.js';

export const STATE_EVENT = 'state';
/** A change after the first snapshot: a delta of the snapshot the stream last got (snapshot-delta.ts). */
export const PATCH_EVENT = 'patch';

/**
 * JSON never holds a raw newline, so the snapshot always fits one `data:` line.
 * The text is JSON.stringify's, made by snapshotJson (the room's parts kept between changes).
 */
export function stateEvent(snapshot: Snapshot | PublicSnapshot): string {
  return `id: ${snapshot.seq}\nevent: ${STATE_EVENT}\ndata: ${snapshotJson(snapshot)}\n\n`;
}

/** One change as a delta; `id` is the seq it makes, as for a state event. */
export function patchEvent(delta: SnapshotDelta): string {
  return `id: ${delta.seq}\nevent: ${PATCH_EVENT}\ndata: ${JSON.stringify(delta)}\n\n`;
}

/** A comment line: EventSource ignores it, but it keeps proxies and NAT tables from closing an idle stream. */
export const HEARTBEAT = ': heartbeat\n\n';

/**
 * A Buffer, not a bare Uint8Array: a Node socket takes a Buffer as it is but
 * wraps any other Uint8Array in a new Buffer at every write, which for one event
 * to 500 streams is 500 objects per change.
 */
export function encodeChunk(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

export const STORAGE_EVENT = 'storage';

/** Whether the room is being saved, for consoles: `{ saving, problem?, since? }`. */
export function storageEvent(health: { saving: true } | { saving: false; problem: string; sinceWallMs: number }): string {
  const data = health.saving ? { saving: true } : { saving: false, problem: health.problem, since: new Date(health.sinceWallMs).toISOString() };
  return `event: ${STORAGE_EVENT}\ndata: ${JSON.stringify(data)}\n\n`;
}
