// mdns-adapter.ts in the service bundle (scripts/build.mjs, BUNDLE_STAND_INS): the build
// makes src/mdns with @homebridge/ciao and multicast-dns a file of its own beside the
// bundle (dist/showclock-mdns.cjs), loaded here when the box advertises or browses.
// A box with venue.advertise off never loads it.
import { createRequire } from 'node:module';
import type * as FromSource from './mdns-adapter.js';

const chunk = (): typeof FromSource => createRequire(import.meta.url)('./showclock-mdns.cjs') as typeof FromSource;

export const startMdns: typeof FromSource.startMdns = (deps) => chunk().startMdns(deps);
export const browseBoxes: typeof FromSource.browseBoxes = (deps) => chunk().browseBoxes(deps);
