import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, EXIT_CODE_OF_ERROR } from '../../src/cli/exit-codes.ts';
import { ClockcheckError } from '../../src/errors.ts';
import { discoverProfile } from '../../src/init/discover-profile.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import type { RunReport } from '../../src/report/model.ts';
import { DEV_BIN, filesUnder, runMeasured, type MeasuredResult } from '../support/cli.ts';
import { startHostileTarget, type HostileMode, type HostileTarget } from '../support/hostile-target.ts';
import { secretFindings } from '../support/secret-scan.ts';

/**
 * Issue 24: every connection a run opens holds the target to the same bounds: each run ends by
 * itself, under 300 MB, with a report, an exit code from the table and the token in no form in
 * anything it wrote. The profile sets a fast rate limit and short deadlines (an exchange 4 s, so a
 * stall budget of 8 s), so each run ends in seconds; what the DEFAULT deadlines give (every stalling
 * run ends within two minutes) is pinned in run-guard.test.ts and measured end to end by
 * `npm run bench -- --only hostile`. The runs wait on their deadlines, not on CPU, so they run at once.
 */
const TOKEN = 'tok-conn+/=%<&-3f8a61c2';
const EXCHANGE_S = 4;
const PROFILE = `rate_limit: { limit: 5, window: 1s }\ntimeouts: { connect: 3s, headers: 3s, body: 3s, exchange: ${EXCHANGE_S}s }\n`;
/** The stall budget (twice the exchange deadline), the last stalled exchange, start-up and the rate-limit phase, with room for a busy machine. */
const WALL_MS = 45_000;
const PEAK_RSS_BYTES = 300 * 2 ** 20;
const TEST_MS = WALL_MS + 30_000;

interface Outcome {
  readonly result: MeasuredResult;
  readonly report: { exitCode: number; notes?: string[]; checks?: RunReport['checks'] } & Record<string, unknown>;
  readonly files: readonly string[];
  readonly target: HostileTarget;
}

const targets: HostileTarget[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

/** Calls the target `count` times as any client would, before the run (a `cert-swap` target swaps at its second). */
async function prime(target: HostileTarget, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = httpsRequest(`${target.origin}/api/public/users`, { rejectUnauthorized: false, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  }
}

async function against(mode: HostileMode, hostileOn: 'bursts' | 'after-first', args: readonly string[], primed = 0): Promise<Outcome> {
  const target = await startHostileTarget({ mode, token: TOKEN, hostileOn });
  targets.push(target);
  await prime(target, primed);
  const work = await mkdtemp(join(tmpdir(), `clockcheck-conn-${mode}-`));
  await writeFile(join(work, 'ca.pem'), target.tls.caPem);
  await writeFile(join(work, 'profile.yaml'), PROFILE);
  const reportDir = join(work, 'reports');
  const [command, ...rest] = args;
  const common = ['--target', target.origin, '--report-dir', reportDir, ...(rest.includes('--insecure') ? [] : ['--ca', join(work, 'ca.pem')])];
  const full = command === 'load' ? ['load', ...common, ...rest] : ['run', ...common, '--profile', join(work, 'profile.yaml'), '--quiet', ...rest];
  const result = await runMeasured(process.execPath, [DEV_BIN, ...full], { ...process.env, CLOCKCHECK_TOKEN: TOKEN }, WALL_MS + 30_000);
  const files = await filesUnder(reportDir).catch(() => []);
  const json = files.find((f) => f.endsWith('report.json') || f.endsWith('load.json'));
  if (!json) throw new Error(`no report after ${full.join(' ')} against ${mode} (exit ${result.code}):\n${result.stderr}`);
  return { result, report: JSON.parse(await readFile(json, 'utf8')), files, target };
}

async function expectBounded(outcome: Outcome, exitCodes: readonly number[]): Promise<void> {
  const { result } = outcome;
  expect(result.killed).toBe(false);
  expect(result.wallMs).toBeLessThan(WALL_MS);
  expect(exitCodes).toContain(result.code);
  expect(result.stderr).not.toMatch(/at .*\.[jt]s:\d+|heap out of memory|RangeError/);
  if (result.peakRssBytes > 0) expect(result.peakRssBytes).toBeLessThan(PEAK_RSS_BYTES);
  expect(secretFindings(result.stdout + result.stderr, TOKEN)).toEqual([]);
  for (const file of outcome.files) expect(secretFindings(await readFile(file, 'utf8'), TOKEN), file).toEqual([]);
}

function reasons(outcome: Outcome): string {
  return [...(outcome.report.notes ?? []), ...(outcome.report.checks ?? []).map((c) => c.reason ?? '')].join('\n');
}

describe.concurrent('bursts: every answer a burst gets is bounded like the client\'s, and a broken one stops the burst', () => {
  it.each([
    ['endless-headers', /the response head exceeded 16384 bytes/],
    ['negative-length', /Content-Length is not one number of bytes: "-1"/],
    ['interim-flood', /more than 16 interim \(1xx\) responses/],
    ['endless-chunked', /the response body exceeded \d+ bytes/],
    ['held-open', new RegExp(`no complete answer within ${EXCHANGE_S} s`)],
  ] as const)('%s', async (mode, reason) => {
    const outcome = await against(mode, 'bursts', ['run', '--only', 'rate-limit/boundary']);
    await expectBounded(outcome, [3]);
    expect(reasons(outcome)).toMatch(reason);
  }, TEST_MS);

  it.each([
    ['--insecure', /presented another certificate .* than the one it presented first in this run/],
    ['--ca', /certificate no longer verified/],
  ] as const)('a certificate that changes after the preflight (%s): the run stops, nothing more is sent', async (trust, reason) => {
    const outcome = await against('cert-swap', 'after-first', ['run', '--only', 'rate-limit/boundary', ...(trust === '--insecure' ? ['--insecure'] : [])]);
    await expectBounded(outcome, [3]);
    expect(reasons(outcome)).toMatch(reason);
    // The preflight's calls and the one that swapped: none after it reached the new certificate's server.
    expect(outcome.target.received.length).toBeLessThanOrEqual(4);
  }, TEST_MS);
});

describe.concurrent('stalls: the run spends at most its stall budget waiting, in a row or not', () => {
  it.each([
    ['stalls-alternate', /the target stalled: \d exchanges waited \d+\.\d s in all without a complete answer, past the run's 8\.0 s for stalls, twice the exchange deadline/],
    ['trickle', /the target stalled: \d exchanges waited \d+\.\d s in all without a complete answer, past the run's 8\.0 s for stalls/],
  ] as const)('%s', async (mode, reason) => {
    const outcome = await against(mode, 'after-first', ['run']);
    await expectBounded(outcome, [1, 3]);
    expect(reasons(outcome)).toMatch(reason);
  }, TEST_MS);
});

describe('init: the same bounds as a run', () => {
  it('a target that stalls every other call: init stops at the stall budget with one reason (the command then writes nothing and exits 2)', async () => {
    const target = await startHostileTarget({ mode: 'stalls-alternate', token: TOKEN, hostileOn: 'after-first' });
    targets.push(target);
    const startedAt = Date.now();
    const init = discoverProfile({
      origin: target.origin,
      token: TOKEN,
      caPem: target.tls.caPem,
      insecure: false,
      rateLimit: { limit: 600, windowMs: 60_000 },
      probeWrites: false,
      progress: null,
      timeouts: parseProfile(PROFILE, 'test profile').timeouts,
    });
    const error = await init.then(() => null, (e: unknown) => e);
    expect(Date.now() - startedAt).toBeLessThan(WALL_MS);
    expect(error).toBeInstanceOf(ClockcheckError);
    expect(EXIT_CODE_OF_ERROR[(error as ClockcheckError).code]).toBe(EXIT_CODES.usage);
    expect((error as ClockcheckError).message).toMatch(/^init stopped, no profile was written: the target stalled: \d exchanges waited \d+\.\d s in all without a complete answer, past the run's 8\.0 s for stalls/);
    expect(secretFindings((error as ClockcheckError).message, TOKEN)).toEqual([]);
  }, TEST_MS);
});

describe.concurrent('load: the same bounds, and a load that nothing answers ends', () => {
  it.each([
    ['endless-headers', ['--duration', '3']],
    ['interim-flood', ['--duration', '3']],
  ] as const)('%s %s', async (mode, args) => {
    const outcome = await against(mode, 'bursts', ['load', ...args]);
    await expectBounded(outcome, [1]);
  }, TEST_MS);

  it('a certificate that changes mid-load: the run stops at the first connection it fails on, and fails with the reason', async () => {
    const outcome = await against('cert-swap', 'bursts', ['load', '--duration', '5']);
    await expectBounded(outcome, [1]);
    const checks = outcome.report.verdict as { checks: Array<{ id: string; status: string; detail: string }> };
    expect(checks.checks.find((c) => c.id === 'ran-to-end')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/certificate did not verify/) });
  }, TEST_MS);

  it.each([['--ca'], ['--insecure']] as const)('a certificate that changed before the load (%s): --ca refuses it before sending, exit 2 with one line; --insecure pins what it sees first', async (trust) => {
    const target = await startHostileTarget({ mode: 'cert-swap', token: TOKEN, hostileOn: 'after-first' });
    targets.push(target);
    await prime(target, 1);
    const work = await mkdtemp(join(tmpdir(), 'clockcheck-conn-swapped-'));
    await writeFile(join(work, 'ca.pem'), target.tls.caPem);
    const trustArgs = trust === '--ca' ? ['--ca', join(work, 'ca.pem')] : ['--insecure'];
    const result = await runMeasured(process.execPath, [DEV_BIN, 'load', '--target', target.origin, ...trustArgs, '--duration', '2', '--report-dir', join(work, 'r')], { ...process.env, CLOCKCHECK_TOKEN: TOKEN }, 60_000);
    // Under --insecure the load's first connection is its pin: a swapped certificate is all it ever sees, so the load runs.
    expect(result.code).toBe(trust === '--ca' ? 2 : 0);
    if (trust === '--ca') expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^clockcheck: TLS error talking to .*unable to verify/);
    if (trust === '--ca') expect(target.received).toHaveLength(1);
  }, TEST_MS);
});
