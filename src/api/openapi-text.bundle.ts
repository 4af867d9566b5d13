// openapi-text.ts in the service bundle (scripts/build.mjs, BUNDLE_STAND_INS): the
// document the build made from the same src and wrote beside the bundle
// (dist/openapi.json), so that a box does not carry its generator. openapi.ts and
// zod's JSON Schema code are about 40 KB of bundle, and V8 keeps the whole text of
// a bundle in memory for the life of the process (BENCHMARKS.md).
import { readFile } from 'node:fs/promises';
import type * as FromSource from './openapi-text.js';

export const openApiText: typeof FromSource.openApiText = () => readFile(new URL('openapi.json', import.meta.url), 'utf8');
