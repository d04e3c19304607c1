import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.ts';
import { DEV_BIN, filesUnder, runMeasured, type MeasuredResult } from '../support/cli.ts';
import { startHostileTarget, type HostileMode, type HostileTarget, type HostileTargetOptions } from '../support/hostile-target.ts';

const TOKEN = 'tok-stalled-run-51c0e9b2';
/**
 * Short deadlines (the stall budget is twice the exchange deadline: 3 s), no bursts, a raised limit:
 * each run ends within seconds of the stall, bounded by the harness, not by waiting.
 */
const PROFILE = [
  'rate_limit: { limit: 600, window: 1s, bursts: false }',
  'timeouts: { connect: 750ms, headers: 1s, body: 1s, exchange: 1500ms }',
  '',
].join('\n');

const targets: HostileTarget[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

interface StalledRun {
  readonly result: MeasuredResult;
  readonly report: RunReport;
}

async function runAgainst(mode: HostileMode, hostileOn: HostileTargetOptions['hostileOn'] = 'after-first', extra: readonly string[] = []): Promise<StalledRun> {
  const target = await startHostileTarget({ mode, token: TOKEN, hostileOn });
  targets.push(target);
  const work = await mkdtemp(join(tmpdir(), `clockcheck-stalled-${mode}-`));
  await writeFile(join(work, 'ca.pem'), target.tls.caPem);
  await writeFile(join(work, 'profile.yaml'), PROFILE);
  const reportDir = join(work, 'reports');
  // stderr into stdout, in the order the run wrote them (a pipe is written synchronously on Linux).
  const result = await runMeasured(
    '/bin/sh',
    ['-c', 'exec "$0" "$@" 2>&1', process.execPath, DEV_BIN, 'run', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--profile', join(work, 'profile.yaml'), '--report-dir', reportDir, '--budget', '22', '--seed', '5', ...extra],
    { ...process.env, CLOCKCHECK_TOKEN: TOKEN, NO_COLOR: '1' },
    90_000,
  );
  const reportFile = (await filesUnder(reportDir).catch(() => [])).find((f) => f.endsWith('report.json'));
  if (!reportFile) throw new Error(`no report.json after the run against ${mode} (exit ${result.code}):\n${result.stderr}`);
  return { result, report: JSON.parse(await readFile(reportFile, 'utf8')) as RunReport };
}

/** The lines a person reads, in order (stderr and stdout as one), each trimmed, without the progress lines. */
function outputLines(result: MeasuredResult): string[] {
  return result.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('certifying ['));
}

describe.concurrent('a target that stalls after the preflight never passes: exit 3, the checks it left errored, the cause first and last', () => {
  it.each([
    // A head with Content-Length: 100, then nothing: each body waits out its deadline.
    ['held-open', /(BODY|EXCHANGE)_TIMEOUT/],
    // A status line and one header, then silence: the head never ends.
    ['head-stall', /(HEADERS|EXCHANGE)_TIMEOUT/],
    // Every answer closes its connection; the connections after the preflight never get a TLS handshake.
    ['tls-stall', /CONNECT_TIMEOUT/],
  ] as const)('%s: the stall budget stops the run, and every check it did not judge is errored with that cause', async (mode, code) => {
    const { result, report } = await runAgainst(mode);
    expect(result.killed).toBe(false);
    expect(result.code).toBe(3);
    expect(report.exitCode).toBe(3);
    expect(report.stopped?.by).toBe('target');
    expect(report.stopped?.reason).toMatch(/^the target stalled: \d+ exchanges waited .* past the run's 3\.0 s for stalls/);
    expect(report.stopped?.reason).toMatch(code);
    // Nothing is "not run": that is for the user's choices (a budget, a signal), and none was made.
    expect(report.checks.filter((c) => c.status === 'not-run').map((c) => c.id)).toEqual([]);
    expect(report.summary.errored).toBeGreaterThan(100);
    for (const check of report.checks.filter((c) => c.status === 'errored')) expect(check.reason).toMatch(/the target stalled/);
    const lines = outputLines(result);
    expect(lines[0]).toMatch(/^clockcheck: the run stopped: the target stalled/);
    expect(lines.at(-1)).toMatch(/^clockcheck: the run stopped: the target stalled/);
    expect(result.stdout).toMatch(/^ERRORED {2}\d+ of \d+ rules judged; \d+ errored.*; the run stopped: the target stalled/m);
  }, 60_000);

  it('an endless chunked body: each answer is cut at the body cap, a finding, and the run is not green', async () => {
    const { result, report } = await runAgainst('endless-chunked', 'after-first', ['--quiet']);
    expect(result.killed).toBe(false);
    expect([1, 3]).toContain(result.code);
    expect(report.exitCode).toBe(result.code);
    expect(result.stdout).not.toMatch(/^PASSED/m);
    expect(report.summary.passed).toBeLessThan(10);
  }, 60_000);

  it('a stall inside the preflight is a run that could not be made: exit 2, the cause first and last', async () => {
    const { result, report } = await runAgainst('held-open', 'all');
    expect(result.code).toBe(2);
    expect(report.exitCode).toBe(2);
    expect(report.runError).toMatch(/BODY_TIMEOUT|body/i);
    expect(report.stopped).toBeUndefined();
    const lines = outputLines(result);
    expect(lines[0]).toMatch(/^clockcheck: /);
    expect(lines.at(-1)).toBe(lines[0]);
  }, 60_000);

  it('--max-time passing mid-run is no green either: the checks it cut are errored with the limit named, exit 3', async () => {
    const { result, report } = await runAgainst('held-open', 'after-first', ['--max-time', '2s', '--quiet']);
    expect(result.code).toBe(3);
    expect(report.stopped?.by).toBe('time-limit');
    expect(report.stopped?.reason).toMatch(/the run's time limit of 2\.0 s \(--max-time\) passed/);
    expect(report.checks.filter((c) => c.status === 'not-run')).toEqual([]);
  }, 60_000);
});
