import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      // The Companion module is its own package (src/companion/package.json, installed by
      // scripts/companion-deps.mjs); its tests use the same copy of the module API as its sources.
      '@companion-module/base': fileURLToPath(new URL('./src/companion/node_modules/@companion-module/base', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/companion/deps.global-setup.ts'],
    // The booted box (a virtual machine, minutes) has a command of its own: npm run test:box.
    exclude: ['test/box/**', '**/node_modules/**'],
    // Browser and child-process tests start real servers; keep the 2-core CI machine unhurried.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    // Boxes the tests start never advertise themselves over mDNS on the machine's network (tests talk to
    // loopback and to network namespaces they make); the mDNS tests turn it on inside their namespaces.
    env: { SHOWCLOCK_VENUE_ADVERTISE: 'false' },
  },
});
