// The hono types every route of the HTTP side shares (src/api, src/pages/*.ts,
// src/http/app.ts): what a request carries between the middleware and its handler.
import type { RoomKeys } from '../keys/key-file.js';

/** The room's three keys (keys/key-file.ts): API, viewer, audience. */
export type Keys = RoomKeys;

export type AppEnv = {
  Variables: {
    route: string;
    answerHeaders: Record<string, string>;
    /** Set when the request was counted per client address (address-quota.ts): its log line is throttled. */
    countedAddress: string;
    /** Set by a route that only reads (state, timers, health, the OpenAPI document, preflights): its line is at debug level. */
    read: boolean;
  };
};
