// What the kernel still holds for each TCP connection: bytes sent but not yet
// acknowledged by the peer (Linux: /proc/net/tcp and /proc/net/tcp6). Node sees
// only its own buffer, and that stays empty while the kernel takes every
// heartbeat: a peer whose cable was pulled, or one whose receive window is full
// because it never reads, looks healthy to Node for the 15 minutes TCP keeps
// retransmitting. TCP keepalive does not help either: Linux sends no keepalive
// probe while data waits to be acknowledged, and the heartbeat sees to it that
// some does on a dead connection. The kernel's count tells: a peer that
// acknowledges nothing for the stall limit is one to drop.
import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { endianness } from 'node:os';

/** Unacknowledged bytes per connection, keyed by connectionKey(). */
export type SendQueues = ReadonlyMap<string, number>;

/** What is read of the socket under a stream (a net.Socket). */
export interface StreamSocket {
  readonly localPort?: number;
  readonly remoteAddress?: string;
  readonly remotePort?: number;
  /** Bytes handed to the socket so far, those still in Node's buffer included. */
  readonly bytesWritten: number;
  /** Bytes still in Node's buffer (not yet taken by the kernel). */
  readonly writableLength: number;
}

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
/** Connection states whose queue says nothing about a live stream: TIME_WAIT and LISTEN. */
const SKIPPED_STATES = new Set(['06', '0A']);
/** The tables print each 32-bit word of an address as the machine holds it. */
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Reads the kernel's tables; null where there are none (not Linux), so the
 * caller can stop asking. Any other failure (too many open files) is thrown:
 * it may pass.
 */
export async function readSendQueues(): Promise<SendQueues | null> {
  const texts = await Promise.allSettled(TABLES.map((table) => readFile(table, 'latin1')));
  const queues = new Map<string, number>();
  let found = false;
  for (const text of texts) {
    if (text.status === 'fulfilled') {
      found = true;
      parseTcpTable(text.value, queues);
    } else if ((text.reason as { code?: unknown } | null)?.code !== 'ENOENT') {
      throw text.reason;
    }
  }
  return found ? queues : null;
}

/**
 * Adds the connections of one table (the text of /proc/net/tcp or tcp6) to
 * `into`. A line is `sl: local rem st tx_queue:rx_queue ...`; it is read by
 * position rather than split into fields: a box with a thousand streams has a
 * thousand lines, read at every heartbeat on the event loop.
 */
export function parseTcpTable(text: string, into: Map<string, number>): void {
  // The first line names the columns.
  let start = text.indexOf('\n') + 1;
  while (start > 0 && start < text.length) {
    const next = text.indexOf('\n', start);
    const end = next < 0 ? text.length : next;
    const localStart = text.indexOf(': ', start) + 2;
    const localEnd = text.indexOf(' ', localStart);
    const remoteEnd = text.indexOf(' ', localEnd + 1);
    start = end + 1;
    if (localStart < 2 || localEnd < 0 || remoteEnd < 0 || remoteEnd + 12 > end) continue;
    const state = text.slice(remoteEnd + 1, remoteEnd + 3);
    if (SKIPPED_STATES.has(state)) continue;
    const tx = Number.parseInt(text.slice(remoteEnd + 4, remoteEnd + 12), 16);
    const localPort = text.slice(text.lastIndexOf(':', localEnd) + 1, localEnd);
    if (!Number.isNaN(tx)) into.set(`${localPort}|${text.slice(localEnd + 1, remoteEnd)}`, tx);
  }
}

/** The connection as the kernel's tables name it; null when the socket no longer says (it is gone). */
export function connectionKey(socket: StreamSocket): string | null {
  const { localPort, remoteAddress, remotePort } = socket;
  if (localPort === undefined || remoteAddress === undefined || remotePort === undefined) return null;
  const bytes = addressBytes(remoteAddress);
  if (bytes === null) return null;
  let address = '';
  for (let word = 0; word < bytes.length; word += 4) {
    const group = bytes.slice(word, word + 4);
    if (LITTLE_ENDIAN) group.reverse();
    address += group.map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  return `${portHex(localPort)}|${address.toUpperCase()}:${portHex(remotePort)}`;
}

function portHex(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/** The 4 or 16 bytes of an address as Node prints it ("10.0.0.5", "::ffff:10.0.0.5", "fe80::1%eth0"). */
function addressBytes(address: string): number[] | null {
  const plain = address.replace(/%.*$/, '');
  if (isIPv4(plain)) return plain.split('.').map(Number);
  if (!isIPv6(plain)) return null;
  // An IPv4 tail (::ffff:10.0.0.5) is two more groups.
  const lastColon = plain.lastIndexOf(':');
  const tail = plain.slice(lastColon + 1);
  const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
  const text = isIPv4(tail) ? `${plain.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}` : plain;
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  const groups = [...headGroups, ...zeros, ...restGroups];
  if (groups.length !== 8) return null;
  return groups.flatMap((g) => {
    const value = Number.parseInt(g, 16);
    return [value >> 8, value & 0xff];
  });
}
