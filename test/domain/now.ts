// One reading of both clocks for engine tests that only count running time: the
// wall clock runs in step with the monotonic one from a fixed epoch, so no
// wall-clock instant ever moves.
import type { Now } from '../../src/domain/types.js';

export const WALL_EPOCH_MS = 1_700_000_000_000;

export function at(monoMs: number): Now {
  return { monoMs, wallMs: WALL_EPOCH_MS + monoMs };
}
