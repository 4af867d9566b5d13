// Every figure the bench reports, with its budget (issue 6). Figures without a
// budget are context ("context:") or Node's own floor ("Node floor:"): what
// Node itself costs here for the same work, measured the same way, to tell the
// service's own share from Node's baseline.

/**
 * @typedef {{ max?: number; below?: number; min?: number }} Budget
 * @typedef {{ id: string; label: string; unit: string; digits: number; budget?: Budget }} Figure
 */

/** @type {readonly Figure[]} */
export const FIGURES = [
  { id: 'startMs', label: 'process start to first 200 from /healthz', unit: 'ms', digits: 0, budget: { max: 150 } },
  { id: 'rssIdleMb', label: 'resident memory, idle, 60 s after start', unit: 'MB', digits: 1, budget: { max: 45 } },
  { id: 'rssPeakMb', label: 'resident memory, peak during the load', unit: 'MB', digits: 1, budget: { max: 60 } },
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
  { id: 'startCpuMs', label: 'context: CPU used by the service until that first 200', unit: 'ms', digits: 0 },
  { id: 'chromiumCpuPct', label: 'context: Chromium, all its processes, same window', unit: '% core', digits: 3 },
  { id: 'fanoutFirstP50Ms', label: 'context: a change reaching the first stream: p50', unit: 'ms', digits: 2 },
  { id: 'nodeBareRssMb', label: 'Node floor: bare node, idle, same wait', unit: 'MB', digits: 1 },
  { id: 'nodeFloorRssMb', label: 'Node floor: node:http server (bench/lib/floor-server.mjs), idle', unit: 'MB', digits: 1 },
  { id: 'nodeFloorStartMs', label: 'Node floor: that server, start to first 200', unit: 'ms', digits: 0 },
  { id: 'nodeFloorStartCpuMs', label: 'Node floor: that server, CPU used until then', unit: 'ms', digits: 0 },
  { id: 'nodeFloorPeakMb', label: 'Node floor: that server, peak during the same load', unit: 'MB', digits: 1 },
  { id: 'nodeFloorGrowthMb', label: 'Node floor: that server, growth round 2 to 10', unit: 'MB', digits: 2 },
  { id: 'nodeFloorStateRps', label: 'Node floor: that server, GET /state, 10 connections', unit: 'req/s', digits: 0 },
  { id: 'nodeFloorFanoutP99Ms', label: 'Node floor: that server, change reaching all streams: p99', unit: 'ms', digits: 2 },
  { id: 'honoFloorRssMb', label: 'Node floor: hono + @hono/node-server, one route (bench/lib/hono-floor-server.mjs), idle', unit: 'MB', digits: 1 },
  { id: 'honoFloorStartMs', label: 'Node floor: that hono server, start to first 200', unit: 'ms', digits: 0 },
  { id: 'honoFloorStartCpuMs', label: 'Node floor: that hono server, CPU used until then', unit: 'ms', digits: 0 },
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
