// Preloaded into the service by `bench/profile.mjs --heap` (node -r): the first
// SIGUSR2 starts V8's sampling heap profiler, counting objects that die young too
// (all that is allocated, garbage included), and counts GCs; the second writes the
// profile and the counts to $HEAP_PROF_OUT(.heapprofile, .gc.json). Not shipped.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { PerformanceObserver } = require('node:perf_hooks');

const out = process.env.HEAP_PROF_OUT;
const session = new inspector.Session();
session.connect();
let running = false;
let gcs = { minor: 0, major: 0, other: 0, ms: 0 };
const observer = new PerformanceObserver((list) => {
  if (!running) return;
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind ?? entry.kind;
    if (kind === 1) gcs.minor += 1;
    else if (kind === 4) gcs.major += 1;
    else gcs.other += 1;
    gcs.ms += entry.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    gcs = { minor: 0, major: 0, other: 0, ms: 0 };
    session.post('HeapProfiler.startSampling', {
      samplingInterval: Number(process.env.HEAP_PROF_INTERVAL ?? 256),
      includeObjectsCollectedByMajorGC: true,
      // HEAP_PROF_PROMOTED=1: only what survived the young generation (promoted to the old one, dead or alive).
      includeObjectsCollectedByMinorGC: process.env.HEAP_PROF_PROMOTED !== '1',
    });
    return;
  }
  running = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) throw error;
    writeFileSync(`${out}.heapprofile`, JSON.stringify(result.profile));
    writeFileSync(`${out}.gc.json`, JSON.stringify(gcs));
  });
});
