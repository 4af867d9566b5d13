// Vitest's global setup, before any test file loads:
// - the Companion module's own dependencies (src/companion/node_modules, which
//   the module's sources and these tests import @companion-module/base from), so
//   `npx vitest run test/companion` works on a fresh clone as `npm test` does;
//   instant when they are current (scripts/companion-deps.mjs compares its stamp);
// - the module's package, built once for the sources as they are (or taken from
//   the cache), so its build never runs beside timing-sensitive tests.
import { ensureCompanionDeps } from '../../scripts/companion-deps.mjs';
import { ensurePackagedModule } from './packaged-module.js';

export default function setup(): void {
  ensureCompanionDeps();
  ensurePackagedModule();
}
