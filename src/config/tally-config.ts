// The `tally` section of the config file (issue 32, README "Tally in"): a TSL UMD
// listener, off unless a port is given (which display index (TSL 5.0) or address
// (TSL 3.1) is this room's, and which tally means on air), and OBS over
// obs-websocket v5, off unless an address is given (which output means on air). Every rule that can be
// checked at start is checked here, so a mistake stops the service with the
// field's path instead of a lamp that never lights during a show.
import * as z from '../schema/zod.js';

/** Which tally of the room's displays means on air: red (program, the usual), green (preview), or either. */
export const TSL_TALLY_ON = ['program', 'preview', 'both'] as const;
export type TslTallyOn = (typeof TSL_TALLY_ON)[number];

/** TSL 5.0 indices are 16 bits; 0xFFFF is the broadcast index, which every display takes. */
export const TSL_INDEX_MAX = 65534;
/** More indices than displays in a rack is a list pasted twice. */
export const TSL_INDICES_MAX = 64;

export interface TslConfig {
  /** UDP and TCP, the same number; undefined: off. */
  readonly port: number | undefined;
  readonly host: string;
  /** The room's display indices (TSL 5.0) or addresses (TSL 3.1): the room is on air while any of them is. */
  readonly indices: readonly number[];
  readonly on: TslTallyOn;
}

/** Which OBS output means on air: streaming (the usual), recording, or either. */
export const OBS_TALLY_ON = ['stream', 'record', 'both'] as const;
export type ObsTallyOn = (typeof OBS_TALLY_ON)[number];

export interface ObsConfig {
  /** obs-websocket v5 (OBS 28 and later, Tools > WebSocket Server Settings): `ws://host:4455`; undefined: off. */
  readonly url: string | undefined;
  /** Undefined when OBS asks for none. Never logged. */
  readonly password: string | undefined;
  readonly on: ObsTallyOn;
}

export interface TallyConfig {
  readonly tsl: TslConfig;
  readonly obs: ObsConfig;
}

export function tallyConfigured(tally: TallyConfig): boolean {
  return tally.tsl.port !== undefined || tally.obs.url !== undefined;
}

/** `ws://` or `wss://` with a host: what obs-websocket listens on. */
export function obsUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'expected a WebSocket address such as ws://127.0.0.1:4455';
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return `expected ws:// or wss:// (OBS's WebSocket server), got ${url.protocol}//`;
  if (url.hostname === '') return 'expected a host, such as ws://127.0.0.1:4455';
  return null;
}

export const obsUrlSchema = () =>
  z.string({ error: 'expected a string' }).check(
    z.superRefine((raw, ctx) => {
      const problem = obsUrlProblem(raw);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: raw });
    }),
  );

export const indexSchema = () =>
  z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.gte(0, `expected 0 to ${TSL_INDEX_MAX}`), z.lte(TSL_INDEX_MAX, `expected 0 to ${TSL_INDEX_MAX}`));

export const indicesSchema = () =>
  z
    .array(indexSchema(), { error: 'expected a list of display indices, such as [1] or [1, 2]' })
    .check(
      z.minLength(1, 'expected at least one display index'),
      z.maxLength(TSL_INDICES_MAX, `expected at most ${TSL_INDICES_MAX} indices`),
      z.refine((list) => new Set(list).size === list.length, { error: 'expected each index once' }),
    );

/** The `tally` section; `port` is the same schema as every other port of the file. */
export function tallyConfigSchema(port: z.ZodMiniNumber, host: z.ZodMiniString) {
  const TslSchema = z
    .strictObject({
      port: z.optional(port),
      host: z.optional(host),
      indices: z.optional(indicesSchema()),
      on: z.optional(z.enum(TSL_TALLY_ON, { error: `expected one of ${TSL_TALLY_ON.join(', ')}` })),
    });
  const ObsSchema = z.strictObject({
    url: z.optional(obsUrlSchema()),
    password: z.optional(z.string({ error: 'expected a string' })),
    on: z.optional(z.enum(OBS_TALLY_ON, { error: `expected one of ${OBS_TALLY_ON.join(', ')}` })),
  });
  return z.strictObject({ tsl: z.optional(TslSchema), obs: z.optional(ObsSchema) });
}
