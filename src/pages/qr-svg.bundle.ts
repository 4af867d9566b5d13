// qr-svg.ts in the service bundle (scripts/build.mjs, BUNDLE_STAND_INS): the build
// makes qr-svg.ts and the qrcode package a file of their own beside the bundle
// (dist/showclock-qr.cjs), loaded here at the first QR code, which a box draws
// only when a console or a screen with the audience link asks. About 23 KB of
// bundle that V8 would otherwise keep in memory from the start (BENCHMARKS.md).
import { createRequire } from 'node:module';
import type * as FromSource from './qr-svg.js';

let chunk: typeof FromSource | undefined;
const loaded = (): typeof FromSource => (chunk ??= createRequire(import.meta.url)('./showclock-qr.cjs') as typeof FromSource);

export const qrModules: typeof FromSource.qrModules = (text) => loaded().qrModules(text);
export const qrSvg: typeof FromSource.qrSvg = (text, label) => loaded().qrSvg(text, label);
