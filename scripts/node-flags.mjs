// The Node flags the service runs with, everywhere it runs: `npm start`
// (scripts/start.mjs), the box (ExecStart in systemd/showclock.service, which
// must list the same flags; the bench refuses to run when they differ) and
// `npm run bench`. BENCHMARKS.md has the measurements behind them.
//   --max-semi-space-size=2    V8's young generation stays at 2 x 2 MB instead
//                              of growing to 2 x 16 MB under load.
//   --heap-growing-percent=20  after each full collection the old generation may
//                              grow by 20 % before the next one, instead of up to
//                              4x: the live heap is small (about 20 MB with 500
//                              screens), so garbage is collected sooner.
// Together: peak memory under the bench's load 118 -> 82 MB, throughput unchanged.
// Neither is a hard limit: nothing can run out of heap because of them.
export const NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=20'];

// The process environment the service runs with beside those flags, everywhere the
// flags go (the unit lists it as Environment= lines; the bench refuses to run when
// they differ, and starts every subject, floors included, with it).
//   MALLOC_ARENA_MAX=2         glibc gives each thread that allocates its own
//                              malloc arena (up to 8 per core), and V8's compiler
//                              threads allocate megabytes while they optimise;
//                              memory freed in an arena is mostly kept. Two arenas
//                              shared by all threads: peak memory under the bench's
//                              load 83.3 -> 78.7 MB, the node:http floor unchanged.
//   MALLOC_MMAP_THRESHOLD_=131072, MALLOC_TRIM_THRESHOLD_=131072
//                              glibc's defaults, fixed: by default each large block
//                              freed raises both (up to 32 MB), after which large
//                              blocks come from the heap and stay there once freed.
//                              Fixed, blocks of 128 KB and more are mapped and given
//                              back when freed, and so is free memory at the heap's
//                              top: peak 85.1 -> 83.3 MB, the floor's 70.5 -> 70.0
//                              (medians of 3 load runs; BENCHMARKS.md).
export const NODE_ENVIRONMENT = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
