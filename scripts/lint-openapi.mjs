// Lints the OpenAPI document the service serves (GET /api/v1/openapi.json) with
// Redocly's recommended rules (redocly.yaml) and Spectral's spectral:oas
// (.spectral.yaml). Any problem either reports fails: the configs switch off only
// what OpenAPI 3.0 cannot express, each with its reason. Part of npm test.
//
// The document is made from src as it stands (openApiDocument of build.mjs, which
// also writes the one the service serves), so the lint needs neither a build nor a
// running service. Both linters then run side by side, a few seconds in all.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './build.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

async function buildDocument(dir) {
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
  return file;
}

/** Runs a linter from node_modules/.bin; resolves with what it wrote. */
function run(name, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin', name), args, {
      cwd: root,
      // Redocly: no usage reports, no update check (the lint must not depend on the network).
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON a linter printed, or an error with all it said (a crash, a bad config). */
function parsed(name, result) {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`${name} did not report (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

async function redocly(file) {
  const report = parsed('redocly', await run('redocly', ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json']));
  return report.problems.map((p) => `redocly ${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}: ${p.message}`);
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'];

async function spectral(file) {
  const report = parsed('spectral', await run('spectral', ['lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--format', 'json', '--quiet']));
  return report.map((p) => `spectral ${SPECTRAL_SEVERITY[p.severity] ?? p.severity} ${p.code} at #/${p.path.join('/')}: ${p.message}`);
}

const dir = mkdtempSync(path.join(tmpdir(), 'showclock-openapi-'));
try {
  const started = performance.now();
  const file = await buildDocument(dir);
  const problems = (await Promise.all([redocly(file), spectral(file)])).flat();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`OpenAPI lint: ${problems.length} problem(s) in the document GET /api/v1/openapi.json serves:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(`OpenAPI lint: Redocly (recommended) and Spectral (spectral:oas) find no problems (${seconds} s)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
