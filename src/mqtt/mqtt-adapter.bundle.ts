// mqtt-adapter.ts in the service bundle (scripts/build.mjs, BUNDLE_STAND_INS): the
// build makes src/mqtt's adapter with the mqtt package (MQTT.js) a file of its own
// beside the bundle (dist/showclock-mqtt.cjs), loaded here when a box with
// `mqtt.url` configured starts it, so a box without MQTT never loads the client.
import { createRequire } from 'node:module';
import type * as FromSource from './mqtt-adapter.js';

export const startMqtt: typeof FromSource.startMqtt = (deps) =>
  (createRequire(import.meta.url)('./showclock-mqtt.cjs') as typeof FromSource).startMqtt(deps);
