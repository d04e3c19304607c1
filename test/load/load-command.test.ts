import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { LoadReport } from '../../src/load/load-report.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { filesUnder, runClockcheck, type CliResult } from '../support/cli.ts';
import { startHoldingTarget } from './support.ts';

const TOKEN = 'sEcReT-load-token_9c2e+/=';
const FORMS = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), JSON.stringify(TOKEN).slice(1, -1)];

/** `clockcheck load ...args`, with CLOCKCHECK_TOKEN cleared unless `env` sets it. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runClockcheck(['load', ...args], { ...process.env, CLOCKCHECK_TOKEN: '', ...env });
}

async function loadJson(dir: string): Promise<LoadReport> {
  const file = (await filesUnder(dir)).find((f) => f.endsWith('load.json'));
  return JSON.parse(await readFile(file as string, 'utf8')) as LoadReport;
}

describe('clockcheck load refuses what it should not run', () => {
  it('refuses a target that is not loopback without --yes, in one line that says what it would send', async () => {
    const r = await runCli(['--target', 'https://api.example.com', '--connections', '20', '--amount', '5000']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^clockcheck: refusing to load api\.example\.com without --yes: .*GET \/breaks over 20 connections for 5000 requests.*add --yes to confirm$/m);
  });

  it('redacts a token pasted into the endpoint from the refusal', async () => {
    const r = await runCli(['--target', 'https://api.example.com', '--endpoint', `GET:/breaks?t=${TOKEN}`], { CLOCKCHECK_TOKEN: TOKEN });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('GET /breaks?t=[REDACTED] over 10 connections for 10 s');
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('goes past the refusal with --yes (and then needs the token from the environment)', async () => {
    const r = await runCli(['--target', 'https://api.example.com', '--yes', '--duration', '5s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set CLOCKCHECK_TOKEN to the target's access token/);
  });

  it.each([
    [['--duration', '10s', '--amount', '5'], /--duration and --amount exclude each other/],
    [['--connections', '300'], /--connections must be an integer from 1 to 256/],
    [['--duration', '10m'], /--duration must be from 1s to 300s/],
    [['--amount', '2000000'], /--amount must be an integer from 1 to 1000000/],
    [['--endpoint', 'DELETE:/breaks/1'], /DELETE is not offered/],
    [['--server-rate-limit', '60 per minute'], /--server-rate-limit: rate limit "60 per minute" is not of the form/],
    [['--target', 'https://127.0.0.1:9', '--fault', 'rate-limit-off'], /--fault applies to the embedded reference server only/],
    [['--fault', 'no-such-fault'], /unknown fault "no-such-fault"/],
    [['--ensure', 'p98<=500ms'], /load: --ensure "p98<=500ms": no quantity "p98" \(did you mean p99\?\); one of p50, /],
    [['--ensure', 'p99<=500ms,errors<=5ms'], /--ensure "errors<=5ms": errors is a number of requests, not a time; write errors<=10 or errors<=1%/],
    [['--ensure', 'p99=<1s'], /--ensure "p99=<1s": operator "=<" is not one of < <= > >= \(did you mean <=\?\)/],
  ])('exits 2 for %j with one line saying what to fix', async (args, message) => {
    // In process: these fail before anything starts, and a child process each would cost a second.
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(main(['load', ...args])).resolves.toBe(2);
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0]?.[0])).toMatch(message);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('clockcheck load against the embedded reference server', () => {
  it('serves 50 of 200 at --server-rate-limit 50/60s, passes, and writes load.json and load.html', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-'));
    const r = await runCli(['--amount', '200', '--connections', '4', '--server-rate-limit', '50/60s', '--report-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Statuses  200 ×50   429 ×150');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('PASSED');
    expect(r.stderr).toMatch(/^load: https:\/\/127\.0\.0\.1:\d+\/api\/public: GET \/breaks over 4 connections for 200 requests/);
    expect((await filesUnder(dir)).map((f) => f.split('/').pop()).sort()).toEqual(['load.html', 'load.json']);
    const report = await loadJson(dir);
    expect(report.statuses).toEqual([{ status: 200, count: 50 }, { status: 429, count: 150 }]);
    expect(report.options.rateLimit).toEqual({ limit: 50, windowMs: 60_000 });
    expect(report.verdict.limit).toMatchObject({ served: 50, maxServed: 50, beyondLimit: 0 });
    expect(report.target.embedded).toBe(true);
  });

  it('judges against --rate-limit when given: 50 served where 10 were said to be allowed fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-'));
    const r = await runCli(['--amount', '100', '--connections', '4', '--server-rate-limit', '50/60s', '--rate-limit', '10/60s', '--report-dir', dir, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ No call accepted beyond the limit\s+50 calls served \(2xx\) in [\d.]+ m?s; at 10\/60s at most 10 can be: 40 accepted beyond the limit/);
  });

  it('exits 1 when the limiter answers 503 (--fault rate-limit-wrong-status)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-'));
    const r = await runCli(['--amount', '200', '--connections', '4', '--server-rate-limit', '50/60s', '--fault', 'rate-limit-wrong-status', '--report-dir', dir, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/✗ No 5xx response\s+150 responses were 5xx \(503 ×150\)/);
    expect((await loadJson(dir)).verdict.status).toBe('failed');
  });
});

describe('clockcheck load judges the requests that got no answer, and --ensure', () => {
  it('fails when the target answers 1 request and holds the rest until the run stops, counting them in load.json', async () => {
    const target = await startHoldingTarget(1);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-'));
      const r = await runCli(['--target', target.origin, '--allow-http', '--duration', '2s', '--connections', '9', '--report-dir', dir, '--quiet'], { CLOCKCHECK_TOKEN: 'hold-token-4f1d9a' });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      // 9 connections each send one call; the one answered sends a second: 10 sent, 9 held.
      expect(r.stdout).toContain('Requests  10 sent   1 answered   9 unanswered (9 held until the run stopped)');
      expect(r.stdout).toMatch(/✗ Every request answered\s+9 of 10 requests got no answer \(9 still waiting when the run stopped, the target silent for [\d.]+ m?s, longer than any answer took\)/);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('FAILED');
      const report = await loadJson(dir);
      expect(report.requests).toMatchObject({ sent: 10, completed: 1, unanswered: 9, unansweredBy: { timedOut: 0, lostWithConnection: 0, heldToEnd: 9 }, cutOffAtEnd: 0 });
      expect(report.verdict.checks.find((c) => c.id === 'all-answered')?.status).toBe('failed');
      expect(target.received()).toBe(10);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('judges each --ensure threshold against the reference server: p99<=1ms fails, the others pass', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-'));
    const ensure = 'p99<=1ms,p50<=60s,errors<=0,non2xx<=0%,limited>=50%,rps>=1';
    const r = await runCli(['--amount', '200', '--connections', '4', '--server-rate-limit', '50/60s', '--ensure', ensure, '--report-dir', dir, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ p99<=1ms\s+p99 [\d.]+ ms over 50 served calls; limit <= 1 ms/);
    expect(r.stdout).toMatch(/✓ limited>=50%\s+150 answers 429, 75% of 200 sent; limit >= 50%/);
    const report = await loadJson(dir);
    expect(report.options.ensure).toEqual(ensure.split(','));
    const lines = report.verdict.checks.filter((c) => c.id === 'ensure');
    expect(lines.map((c) => [c.title, c.status])).toEqual(ensure.split(',').map((t, i) => [t, i === 0 ? 'failed' : 'passed']));
    // The latency judged is the served calls' own, as load.json gives it.
    expect(lines[0]).toMatchObject({ threshold: { quantity: 'p99', measured: report.latencyServedMs?.p99 } });
    expect(report.latencyServedMs?.count).toBe(50);
    // non2xx bounds the 5xx too, so no-5xx is left to it; every other default check still judges.
    expect(report.verdict.checks.slice(0, 3).map((c) => [c.id, c.status])).toEqual([['no-5xx', 'skipped'], ['all-answered', 'passed'], ['within-rate-limit', 'passed']]);
  }, 30_000);
});

describe('clockcheck load against a --target keeps the token secret', () => {
  let server: ReferenceServer;
  let reportDir: string;
  let result: CliResult;

  beforeAll(async () => {
    server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 30, windowMs: 60_000 }, faults: ['rate-limit-wrong-status'] });
    const work = await mkdtemp(join(tmpdir(), 'clockcheck-load-secrecy-'));
    reportDir = join(work, 'reports');
    const caFile = join(work, 'ca.pem');
    await writeFile(caFile, server.tls.caPem);
    const profile = join(work, 'profile.yaml');
    await writeFile(profile, `token_env: LOAD_TOKEN\ntls: { ca: ${caFile} }\nrate_limit: { limit: 30, window: 60s }\n`);
    // The token pasted into the query too: it must be redacted from the reports' endpoint.
    result = await runCli(
      ['--target', server.origin, '--profile', profile, '--amount', '100', '--connections', '4', '--report-dir', reportDir, '--endpoint', `GET:/breaks?echo=${encodeURIComponent(TOKEN)}`],
      { LOAD_TOKEN: TOKEN },
    );
  }, 30_000);

  afterAll(() => server.close());

  it('runs against a loopback target without --yes, with the profile\'s token_env, CA and rate_limit', async () => {
    expect(result.stderr).not.toMatch(/Error:|at .*\.[jt]s:\d+/);
    expect(result.code).toBe(1);
    const report = await loadJson(reportDir);
    expect(report.options.rateLimit).toEqual({ limit: 30, windowMs: 60_000 });
    expect(report.verdict.limit).toMatchObject({ served: 30, maxServed: 30, beyondLimit: 0 });
    expect(report.target).toEqual({ origin: server.origin, apiPrefix: '/api/public', embedded: false });
    expect(report.counts).toMatchObject({ status2xx: 30, status5xx: 70 });
    expect(report.endpoint.path).toBe('/breaks?echo=[REDACTED]');
  });

  it.each(FORMS)('never writes the token (as %s) to load.json or load.html', async (form) => {
    const files = await filesUnder(reportDir);
    expect(files).toHaveLength(2);
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(form);
  });

  it.each(FORMS)('never prints the token (as %s) on stdout or stderr', (form) => {
    expect(result.stdout).not.toContain(form);
    expect(result.stderr).not.toContain(form);
  });
});
