// Is the box new enough for this module? Read from its OpenAPI document
// (`GET /api/v1/openapi.json`, no key, not counted against the key's quota):
// `info.version` is the API version the module shows, and every operation the
// module sends must be listed. A box without the document predates it, so it
// lacks the push channel too.
export const REQUIRED_OPERATIONS = [
  'v1_events',
  'v1_getState',
  'v1_start',
  'v1_pause',
  'v1_stop',
  'v1_toggle',
  'v1_reset',
  'v1_next',
  'v1_previous',
  'v1_adjust',
  'v1_setMessage',
  'v1_clearMessage',
  'v1_blackout',
  'v1_toggle_blackout',
  'v1_onair',
  'v1_toggle_onair',
  'v1_settings',
  'v1_createTimer',
  'v1_selectTimer',
  'v1_updateTimer',
  'v1_deleteTimer',
  'v1_moveTimer',
] as const;

export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * `ownHeartbeat`: the box offers a push stream with a heartbeat of its own
 * (`/events?heartbeat=N`), so the module can tell a dead link within seconds;
 * an older box beats every 15 s.
 */
export type Verdict = { readonly ok: true; readonly apiVersion: string; readonly ownHeartbeat: boolean } | { readonly ok: false; readonly reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function operationIds(paths: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue;
    for (const op of Object.values(item)) if (isRecord(op) && typeof op.operationId === 'string') ids.add(op.operationId);
  }
  return ids;
}

/** Judges the answer to GET /api/v1/openapi.json: its status and JSON body. */
export function judgeOpenApi(status: number, body: unknown): Verdict {
  if (status === 404) return { ok: false, reason: 'it has no API description (/api/v1/openapi.json), so it predates the push channel' };
  if (status !== 200 || !isRecord(body) || !isRecord(body.info) || !isRecord(body.paths)) {
    return { ok: false, reason: `its API description could not be read (HTTP ${status})` };
  }
  const apiVersion = typeof body.info.version === 'string' ? body.info.version : 'unknown';
  const major = Number(apiVersion.split('.')[0]);
  if (!(major >= 1)) return { ok: false, reason: `its API version is ${apiVersion}; this module needs 1.0.0 or newer` };
  const offered = operationIds(body.paths);
  const missing = REQUIRED_OPERATIONS.filter((id) => !offered.has(id));
  if (missing.length > 0) return { ok: false, reason: `API ${apiVersion} lacks ${missing.map((id) => id.replace(/^v1_/, '')).join(', ')}` };
  return { ok: true, apiVersion, ownHeartbeat: offersHeartbeat(body.paths) };
}

function offersHeartbeat(paths: Record<string, unknown>): boolean {
  const events = paths['/api/v1/{api_key}/events'];
  const get = isRecord(events) ? events.get : undefined;
  const parameters = isRecord(get) && Array.isArray(get.parameters) ? (get.parameters as unknown[]) : [];
  return parameters.some((p) => isRecord(p) && p.name === 'heartbeat' && p.in === 'query');
}
