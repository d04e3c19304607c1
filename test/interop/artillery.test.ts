import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { LoadReport } from '../../src/load/load-report.ts';
import type { FaultName } from '../../src/reference/faults.ts';
import { startReferenceServer } from '../../src/reference/server.ts';
import { filesUnder, runClockcheck, runProcess, type CliResult } from '../support/cli.ts';
import { tool } from './tools.ts';

/**
 * `clockcheck load` and Artillery on the same endpoint of the reference server: `load --export
 * artillery` writes the script, Artillery runs it, `load --from-artillery` reads its report back, and
 * that must agree with `load`'s own run: the same verdict (and exit code, Artillery's own included,
 * from the ensure checks the script carries) and the same request mix. The server's limit (50 calls per
 * 60 s) makes the mix exact: 50 served, 150 refused, whoever sends. Runs only where
 * scripts/install-interop-tools.sh installed Artillery.
 */

const ARTILLERY = tool('artillery');
const TOKEN = 'interop-artillery-token';
const LIMIT = { limit: 50, windowMs: 60_000 } as const;
/** The run both make: load's closed loop over 4 connections, 200 calls, as the script maps it. */
const RUN = ['--amount', '200', '--connections', '4', '--rate-limit', '50/60s', '--ensure', 'p99<=2s,limited>=50%'];

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'clockcheck-interop-artillery-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function loadJson(dir: string): Promise<LoadReport> {
  const file = (await filesUnder(dir)).find((f) => f.endsWith('load.json'));
  return JSON.parse(await readFile(file as string, 'utf8')) as LoadReport;
}

/** The environment of a process: PATH and HOME, and what it is given; never this process's token. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

interface Compared {
  readonly load: { readonly cli: CliResult; readonly report: LoadReport };
  readonly script: string;
  readonly artillery: CliResult;
  readonly imported: { readonly cli: CliResult; readonly report: LoadReport };
}

/** load, then export + artillery run + --from-artillery, against one reference server with `faults`, its limiter fresh for each. */
async function loadAndArtillery(name: string, faults: readonly FaultName[]): Promise<Compared> {
  const dir = await mkdtemp(join(root, `${name}-`));
  const server = await startReferenceServer({ token: TOKEN, rateLimit: LIMIT, faults });
  try {
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, server.tls.caPem);
    const target = ['--target', server.origin, '--ca', ca];
    const loadCli = await runClockcheck(['load', ...target, ...RUN, '--report-dir', join(dir, 'load'), '--quiet'], env({ CLOCKCHECK_TOKEN: TOKEN }));
    server.setRateLimit(LIMIT); // a fresh limiter: Artillery finds the server as load did
    const script = join(dir, 'load.yml');
    // No token in the environment: the export needs none.
    const exported = await runClockcheck(['load', '--export', 'artillery', script, ...target, ...RUN, '--quiet'], env({}));
    if (exported.code !== 0) throw new Error(`load --export exited ${exported.code}: ${exported.stderr}`);
    const report = join(dir, 'report.json');
    const artillery = await runProcess(ARTILLERY!, ['run', '--output', report, script], env({ CLOCKCHECK_TOKEN: TOKEN, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ARTILLERY_DISABLE_TELEMETRY: 'true' }), dir);
    const importedCli = await runClockcheck(['load', '--from-artillery', report, ...target, ...RUN, '--report-dir', join(dir, 'artillery')], env({}));
    return { load: { cli: loadCli, report: await loadJson(join(dir, 'load')) }, script: await readFile(script, 'utf8'), artillery, imported: { cli: importedCli, report: await loadJson(join(dir, 'artillery')) } };
  } finally {
    await server.close();
  }
}

/** Responses per status class (`2xx`, `4xx`, …), the request mix a report shows. */
function classes(report: LoadReport): Record<string, number> {
  const mix: Record<string, number> = {};
  for (const { status, count } of report.statuses) mix[`${Math.floor(status / 100)}xx`] = (mix[`${Math.floor(status / 100)}xx`] ?? 0) + count;
  return mix;
}

/** The checks that failed, by ID and title: the verdict's substance. */
function failed(report: LoadReport): string[] {
  return report.verdict.checks.filter((c) => c.status === 'failed').map((c) => `${c.id} ${c.title}`);
}

function expectSameRun(c: Compared): void {
  expect(c.imported.cli.stderr).toBe('');
  expect(c.imported.report.source).toBe('artillery');
  expect(c.imported.report.endpoint).toEqual(c.load.report.endpoint);
  expect(c.imported.report.target.origin).toBe(c.load.report.target.origin);
  expect(classes(c.imported.report)).toEqual(classes(c.load.report));
  expect(c.imported.report.statuses).toEqual(c.load.report.statuses);
  expect(c.imported.report.requests.sent).toBe(c.load.report.requests.sent);
  expect(c.imported.report.verdict.status).toBe(c.load.report.verdict.status);
  expect(failed(c.imported.report)).toEqual(failed(c.load.report));
  // One exit code for the run, whoever judged it: load, Artillery's ensure checks, load --from-artillery.
  expect([c.artillery.code, c.imported.cli.code]).toEqual([c.load.cli.code, c.load.cli.code]);
}

describe.skipIf(ARTILLERY === null)('clockcheck load and Artillery on the same endpoint', () => {
  it.concurrent('agree on a server that refuses beyond its limit with 429: 50 served, 150 refused, passed', async () => {
    const c = await loadAndArtillery('limited', []);
    expect(c.load.cli.code, c.load.cli.stderr).toBe(0);
    expect(classes(c.load.report)).toEqual({ '2xx': 50, '4xx': 150 });
    const script = parse(c.script) as { config: { target: string }; scenarios: { flow: { loop: { get: { url: string } }[]; count: number }[] }[] };
    expect(script.config.target).toBe(c.load.report.target.origin);
    expect(script.scenarios[0]?.flow[0]).toMatchObject({ loop: [{ get: { url: '/api/public/breaks' } }], count: 50 });
    expect(c.script).not.toContain(TOKEN);
    expect(c.artillery.stdout).toMatch(/ok: \(http\.codes\.429 \? http\.codes\.429 : 0\) \/ http\.requests \* 100 >= 50/);
    expectSameRun(c);
  }, 60_000);

  it.concurrent('agree on a server whose limiter answers 503: failed, on no-5xx and limited>=50%', async () => {
    const c = await loadAndArtillery('wrong-status', ['rate-limit-wrong-status']);
    expect(c.load.cli.code, c.load.cli.stderr).toBe(1);
    expect(classes(c.load.report)).toEqual({ '2xx': 50, '5xx': 150 });
    expect(failed(c.load.report)).toEqual(['no-5xx No 5xx response', 'ensure limited>=50%']);
    expect(c.artillery.stdout).toMatch(/fail: \(http\.response_time\.5xx\.count \? http\.response_time\.5xx\.count : 0\) == 0/);
    expectSameRun(c);
  }, 60_000);
});
