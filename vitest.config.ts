import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The booted box (a virtual machine, minutes) has a command of its own: npm run test:box.
    exclude: ['test/box/**', '**/node_modules/**'],
    // Browser and child-process tests start real servers; keep the 2-core CI machine unhurried.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});
