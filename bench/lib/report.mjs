// The bench's output: a table on the terminal, the JSON file, and (full runs)
// the results section of BENCHMARKS.md, between its two markers.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { budgetText, FIGURES, withinBudget } from './figures.mjs';
import { summary } from './stats.mjs';

export const MD_START = '<!-- bench-results:start -->';
export const MD_END = '<!-- bench-results:end -->';

/**
 * @param {Record<string, number[]>} samples figure id -> one value per run
 * @param {boolean} judge false in quick mode: the figures are shown, not judged
 */
export function figureRows(samples, judge) {
  return FIGURES.filter((f) => (samples[f.id] ?? []).length > 0).map((f) => {
    const runs = /** @type {number[]} */ (samples[f.id]);
    const s = summary(runs);
    const pass = judge ? withinBudget(f.budget, s.median) : null;
    // A ratio's parts (the service's figure and its floor's), as medians, shown beside it.
    const parts = f.of === undefined ? null : f.of.map((id) => ({ id, median: summary(samples[id] ?? []).median, digits: FIGURES.find((g) => g.id === id)?.digits ?? 2, unit: FIGURES.find((g) => g.id === id)?.unit ?? '' }));
    return { id: f.id, label: f.label, unit: f.unit, digits: f.digits, runs, ...s, budget: f.budget ?? null, pass, parts };
  });
}

/** @param {number} value @param {number} digits */
function fmt(value, digits) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** "service vs floor" for a ratio row (medians of each), empty for the others. */
function partsText(r) {
  if (r.parts === null) return '';
  const [svc, floor] = r.parts;
  return `${fmt(svc.median, svc.digits)} vs ${fmt(floor.median, floor.digits)} ${svc.unit}`;
}

/** @param {ReturnType<typeof figureRows>} rows */
export function textTable(rows) {
  const header = ['figure', 'unit', 'median', 'min', 'max', 'runs', 'service vs floor', 'budget', 'result'];
  const body = rows.map((r) => [
    r.label,
    r.unit,
    fmt(r.median, r.digits),
    fmt(r.min, r.digits),
    fmt(r.max, r.digits),
    String(r.runs.length),
    partsText(r),
    budgetText(r.budget ?? undefined),
    r.pass === null ? (r.budget === null ? '' : 'not judged') : r.pass ? 'pass' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** @param {ReturnType<typeof figureRows>} rows */
export function markdownTable(rows) {
  const out = ['| figure | median | min | max | runs | service vs floor (medians) | budget | result |', '|---|---:|---:|---:|---:|---:|---|---|'];
  for (const r of rows) {
    const unit = ` ${r.unit}`;
    const result = r.pass === null ? (r.budget === null ? '' : 'not judged') : r.pass ? 'pass' : '**miss**';
    const budget = r.budget === null ? '' : `${budgetText(r.budget)}${unit}`;
    out.push(`| ${r.label} | ${fmt(r.median, r.digits)}${unit} | ${fmt(r.min, r.digits)} | ${fmt(r.max, r.digits)} | ${r.runs.length} | ${partsText(r)} | ${budget} | ${result} |`);
  }
  return out.join('\n');
}

/**
 * @param {string} file
 * @param {unknown} data
 */
export function writeJson(file, data) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Replaces what lies between the markers in BENCHMARKS.md; leaves the file
 * alone (and says so) when the markers are missing.
 * @param {string} file
 * @param {string} section markdown
 * @returns {boolean}
 */
export function updateMarkdown(file, section) {
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(MD_START);
  const end = text.indexOf(MD_END);
  if (start < 0 || end < start) return false;
  writeFileSync(file, `${text.slice(0, start + MD_START.length)}\n${section.trim()}\n${text.slice(end)}`);
  return true;
}
