// Every figure the bench reports, with its budget. Issue 17 judges the
// service against floors measured in the same run, interleaved with it (A B A B):
// such a ratio (or a difference, where Node's own share is a fixed cost) holds
// on any machine, a Pi included, where absolute figures do not. A ratio row names
// the absolute rows it is made of (`of`: service, floor), which the table shows
// beside it. Issue 6's other budgets stay. Figures without a budget are context
// ("context:") or a floor ("floor:").

/**
 * @typedef {{ max?: number; below?: number; min?: number }} Budget
 * @typedef {{ id: string; label: string; unit: string; digits: number; budget?: Budget; of?: readonly [string, string] }} Figure
 */

/** @type {readonly Figure[]} */
export const FIGURES = [
  // Issue 17: each against its floor, per interleaved pair, median of the pairs.
  { id: 'fanoutLastRatio', label: 'a change reaching the last of 500 push streams (p50), x node:http floor', unit: 'x', digits: 2, budget: { max: 0.8 }, of: ['fanoutLastP50Ms', 'nodeFloorFanoutLastP50Ms'] },
  { id: 'fanoutCpuRatio', label: 'server CPU per change pushed to 500 streams, x node:http floor', unit: 'x', digits: 2, budget: { max: 0.8 }, of: ['fanoutCpuMs', 'nodeFloorFanoutCpuMs'] },
  { id: 'fanoutFirstRatio', label: 'a change reaching the first of 500 push streams (p50), x node:http floor', unit: 'x', digits: 2, budget: { max: 1 }, of: ['fanoutFirstP50Ms', 'nodeFloorFanoutFirstP50Ms'] },
  { id: 'stateCpuRatio', label: 'server CPU per GET /state (autocannon, 10 connections), x node:http floor', unit: 'x', digits: 2, budget: { max: 1.7 }, of: ['stateCpuUs', 'nodeFloorStateCpuUs'] },
  { id: 'cmdCpuRatio', label: 'server CPU per command in series (/adjust), x node:http floor', unit: 'x', digits: 2, budget: { max: 1.5 }, of: ['cmdCpuUs', 'nodeFloorCmdCpuUs'] },
  { id: 'cmdP99Ratio', label: 'command in series (/adjust): p99, x node:http floor', unit: 'x', digits: 2, budget: { max: 1.5 }, of: ['adjustCmdP99Ms', 'nodeFloorAdjustP99Ms'] },
  { id: 'startCpuOverMs', label: 'start: CPU used until the first 200, over the hono floor', unit: 'ms', digits: 0, budget: { max: 25 }, of: ['startCpuMs', 'honoFloorStartCpuMs'] },
  { id: 'anonIdleOverMb', label: 'private memory (RssAnon) idle 30 s after start, over the hono floor', unit: 'MiB', digits: 2, budget: { max: 2 }, of: ['anonIdleMb', 'honoFloorAnonMb'] },
  { id: 'rssPeakRatio', label: 'resident memory, peak after the load, x node:http floor', unit: 'x', digits: 2, budget: { max: 1.15 }, of: ['rssPeakMb', 'nodeFloorPeakMb'] },
  // Issue 6, unchanged.
  { id: 'rssGrowthMb', label: 'memory growth, round 2 to round 10', unit: 'MB', digits: 2, budget: { below: 5 } },
  { id: 'serviceCpuPct', label: 'service CPU, timer running, one kiosk stream', unit: '% core', digits: 3, budget: { max: 0.2 } },
  { id: 'stateRps', label: 'GET /state, 10 connections: throughput', unit: 'req/s', digits: 0, budget: { min: 8000 } },
  { id: 'stateP99Ms', label: 'GET /state, 10 connections: p99 latency', unit: 'ms', digits: 0, budget: { max: 5 } },
  { id: 'startCmdP50Ms', label: '/start, one client in series: p50', unit: 'ms', digits: 3, budget: { max: 0.5 } },
  { id: 'adjustCmdP50Ms', label: '/adjust, one client in series: p50', unit: 'ms', digits: 3, budget: { max: 0.5 } },
  { id: 'fanoutP99Ms', label: 'a change reaching all push streams: p99 of the last', unit: 'ms', digits: 2, budget: { max: 20 } },
  { id: 'largestFanoutP99Ms', label: 'largest room (100 timers, full-length text): a change reaching all push streams, p99 of the last', unit: 'ms', digits: 2 },
  { id: 'largestBlockMaxMs', label: 'largest room: longest wait of another request during a fan-out (the event loop held up)', unit: 'ms', digits: 2, budget: { max: 10 } },
  { id: 'usualBlockMaxMs', label: 'context: the same wait in the usual one-timer room', unit: 'ms', digits: 2 },
  { id: 'largestStateKb', label: 'context: largest room, snapshot size', unit: 'KB', digits: 0 },
  { id: 'kioskCpuPct', label: 'kiosk page CPU in Chromium (renderer)', unit: '% core', digits: 3, budget: { max: 1 } },
  { id: 'bundleKb', label: 'server bundle, minified', unit: 'KB', digits: 1, budget: { max: 600 } },
  { id: 'displayKb', label: 'display page transferred', unit: 'KB', digits: 1, budget: { max: 50 } },
  // The absolute figures the ratios are made of (the service's, then its floor's), and context.
  { id: 'fanoutLastP50Ms', label: 'context: a change reaching the last stream: p50', unit: 'ms', digits: 2 },
  { id: 'nodeFloorFanoutLastP50Ms', label: 'floor: node:http, the same', unit: 'ms', digits: 2 },
  { id: 'nodeFloorFanoutP99Ms', label: 'floor: node:http, change reaching all streams: p99', unit: 'ms', digits: 2 },
  { id: 'fanoutFirstP50Ms', label: 'context: a change reaching the first stream: p50', unit: 'ms', digits: 2 },
  { id: 'nodeFloorFanoutFirstP50Ms', label: 'floor: node:http, the same', unit: 'ms', digits: 2 },
  { id: 'fanoutCpuMs', label: 'context: server CPU per change to 500 streams', unit: 'ms', digits: 2 },
  { id: 'nodeFloorFanoutCpuMs', label: 'floor: node:http, the same', unit: 'ms', digits: 2 },
  { id: 'stateCpuUs', label: 'context: server CPU per GET /state', unit: 'µs', digits: 1 },
  { id: 'nodeFloorStateCpuUs', label: 'floor: node:http, the same', unit: 'µs', digits: 1 },
  { id: 'nodeFloorStateRps', label: 'floor: node:http, GET /state, 10 connections', unit: 'req/s', digits: 0 },
  { id: 'cmdCpuUs', label: 'context: server CPU per /adjust in series', unit: 'µs', digits: 1 },
  { id: 'nodeFloorCmdCpuUs', label: 'floor: node:http, the same', unit: 'µs', digits: 1 },
  { id: 'adjustCmdP99Ms', label: 'context: /adjust in series: p99', unit: 'ms', digits: 3 },
  { id: 'nodeFloorAdjustP99Ms', label: 'floor: node:http, the same', unit: 'ms', digits: 3 },
  { id: 'nodeFloorAdjustP50Ms', label: 'floor: node:http, /adjust in series: p50', unit: 'ms', digits: 3 },
  { id: 'startMs', label: 'context: process start to first 200 from /healthz', unit: 'ms', digits: 0 },
  { id: 'startCpuMs', label: 'context: CPU used by the service until that first 200', unit: 'ms', digits: 0 },
  { id: 'honoFloorStartMs', label: 'floor: hono + @hono/node-server, one route (bench/lib/hono-floor-server.mjs), start to first 200', unit: 'ms', digits: 0 },
  { id: 'honoFloorStartCpuMs', label: 'floor: that hono server, CPU used until then', unit: 'ms', digits: 0 },
  { id: 'nodeFloorStartMs', label: 'floor: node:http (bench/lib/floor-server.mjs), start to first 200', unit: 'ms', digits: 0 },
  { id: 'nodeFloorStartCpuMs', label: 'floor: that node:http server, CPU used until then', unit: 'ms', digits: 0 },
  { id: 'anonIdleMb', label: 'context: private memory (RssAnon), idle 30 s after start', unit: 'MiB', digits: 2 },
  { id: 'honoFloorAnonMb', label: 'floor: hono, the same', unit: 'MiB', digits: 2 },
  { id: 'rssIdleMb', label: 'context: resident memory (VmRSS), idle 30 s after start', unit: 'MB', digits: 1 },
  { id: 'honoFloorRssMb', label: 'floor: hono, the same', unit: 'MB', digits: 1 },
  { id: 'nodeFloorRssMb', label: 'floor: node:http, the same', unit: 'MB', digits: 1 },
  { id: 'nodeBareRssMb', label: 'floor: bare node, the same', unit: 'MB', digits: 1 },
  { id: 'rssPeakMb', label: 'context: resident memory, peak during the load', unit: 'MB', digits: 1 },
  { id: 'nodeFloorPeakMb', label: 'floor: node:http, peak during the same load', unit: 'MB', digits: 1 },
  { id: 'nodeFloorGrowthMb', label: 'floor: node:http, growth round 2 to 10', unit: 'MB', digits: 2 },
  { id: 'chromiumCpuPct', label: 'context: Chromium, all its processes, same window', unit: '% core', digits: 3 },
];

/**
 * @param {Budget | undefined} budget
 * @param {number} value
 * @returns {boolean | null} null when there is no budget
 */
export function withinBudget(budget, value) {
  if (budget === undefined) return null;
  if (!Number.isFinite(value)) return false;
  if (budget.max !== undefined) return value <= budget.max;
  if (budget.below !== undefined) return value < budget.below;
  if (budget.min !== undefined) return value >= budget.min;
  return null;
}

/** @param {Budget | undefined} budget */
export function budgetText(budget) {
  if (budget === undefined) return '';
  if (budget.max !== undefined) return `<= ${budget.max}`;
  if (budget.below !== undefined) return `< ${budget.below}`;
  if (budget.min !== undefined) return `>= ${budget.min}`;
  return '';
}
