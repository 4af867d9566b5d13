// `?heartbeat=N` on a push stream: the API's (/api/v1/{api_key}/events) and the
// viewer's (/view/{key}/events, which the venue's other boxes read). One reading of it.
import { HEARTBEAT_MS } from '../push/push-hub.js';

const MAX_HEARTBEAT_SECONDS = HEARTBEAT_MS / 1000;

/**
 * `?heartbeat=N`: a heartbeat every N whole seconds (1 to 15) on this stream, for a
 * client that must see a dead link within seconds; its words when it is not one.
 */
export function heartbeatSeconds(text: string | undefined): number | undefined | string {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d{1,2}$/.test(text) || value < 1 || value > MAX_HEARTBEAT_SECONDS) {
    return `heartbeat must be whole seconds from 1 to ${MAX_HEARTBEAT_SECONDS} (the default is ${MAX_HEARTBEAT_SECONDS}), not "${text.slice(0, 32)}"`;
  }
  return value;
}
