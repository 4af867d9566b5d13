import { defineConfig } from 'vitest/config';

// npm run test:box: the box booted in a virtual machine (scripts/box-vm.sh), one
// machine for the whole file, its checks in order.
export default defineConfig({
  test: {
    include: ['test/box/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 1_200_000,
    maxWorkers: 1,
  },
});
