import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, type RateLimiter } from '../../src/reference/rate-limiter.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { DEV_BIN, ROOT, type CliResult } from '../support/cli.ts';
import { writeServerProfile } from '../support/profile-file.ts';

/**
 * `clockcheck run` interrupted by a signal, as a user does it: the CLI (a process of its own) against
 * a running reference server whose limiter notes when each call arrived. The first signal stops the
 * run: nothing more is sent, the reports are written with status `interrupted` and what was judged,
 * the terminal ends with what the run left on the target, and the exit code is 128 + the signal's
 * number. One cleanup attempt removes the webhook subscription the run made; a second signal skips it.
 */
const TOKEN = 'cc-interrupt-token-never-printed-77a2';
const SECRET = 'cc-interrupt-webhook-secret-0b5e';
const env = { ...process.env, CLOCKCHECK_TOKEN: TOKEN, CLOCKCHECK_WEBHOOK_SECRET: SECRET, NO_COLOR: '1' };

/** A limiter that lets every call through and notes when it arrived. */
class ArrivalLog implements RateLimiter {
  readonly at: number[] = [];
  readonly #inner = new SlidingWindowLimiter(10_000, 1_000);
  attempt(key: string, now: number) {
    this.at.push(Date.now());
    return this.#inner.attempt(key, now);
  }
}

let server: ReferenceServer;
let arrivals: ArrivalLog;
let dir: string;

/** The profile of the running server (its fixtures, its webhook extension and a sink), paced at `rateLimit`, without bursts. */
function profileFile(name: string, rateLimit: { limit: number; window: number }): Promise<string> {
  return writeServerProfile(join(dir, name), server, join(dir, 'ca.pem'), { ...rateLimit, bursts: false });
}

/** `clockcheck run ...args` started, with its end to await. */
function startRun(args: readonly string[]): { readonly child: ReturnType<typeof spawn>; readonly done: Promise<CliResult> } {
  const child = spawn(process.execPath, [DEV_BIN, 'run', '--target', server.origin, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

async function onlyReport(reportDir: string): Promise<{ report: RunReport; html: string; junit: string }> {
  const [runId, ...others] = await readdir(reportDir);
  expect(others).toEqual([]);
  const read = (file: string) => readFile(join(reportDir, runId!, file), 'utf8');
  return { report: JSON.parse(await read('report.json')) as RunReport, html: await read('report.html'), junit: await read('junit.xml') };
}

beforeAll(async () => {
  arrivals = new ArrivalLog();
  server = await startReferenceServer({ token: TOKEN, limiter: arrivals });
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-interrupt-'));
  await writeFile(join(dir, 'ca.pem'), server.tls.caPem);
});
afterAll(async () => {
  await server?.close();
});

describe('clockcheck run interrupted by a signal', () => {
  it.each([
    ['SIGINT', 130, 'Ctrl-C'],
    ['SIGTERM', 143, 'SIGTERM'],
  ] as const)('%s mid-run: nothing sent after it, the reports written as interrupted with what was judged, exit %i', async (signal, code, again) => {
    const profile = await profileFile(`paced-${signal}.yaml`, { limit: 600, window: 10_000 });
    const reportDir = await mkdtemp(join(dir, 'reports-'));
    const startedWith = arrivals.at.length;
    const run = startRun(['--profile', profile, '--skip', 'webhooks', '--report-dir', reportDir, '--seed', '5']);
    await until(() => arrivals.at.length >= startedWith + 60, '60 calls of the run');
    const signalledAt = Date.now();
    run.child.kill(signal);
    const result = await run.done;
    // Nothing of the run arrives after the signal (a call already on the wire may land within a few ms).
    expect(arrivals.at.filter((t) => t > signalledAt + 100)).toEqual([]);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toContain(`clockcheck: ${signal}: stopping; nothing more is sent, the reports are written with what was judged (${again} again skips the cleanup)`);
    const { report, html, junit } = await onlyReport(reportDir);
    expect(report).toMatchObject({ status: 'interrupted', exitCode: code, cleanup: { outcome: 'nothing', exchanges: [] } });
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.summary.notRun).toBeGreaterThan(0);
    expect(report.checks.filter((c) => c.status === 'errored' || c.status === 'failed')).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'not-run').every((c) => /^not run: interrupted by SIG(INT|TERM)/.test(c.reason ?? ''))).toBe(true);
    expect(report.notes).toContainEqual(expect.stringMatching(new RegExp(`^interrupted by ${signal} after \\d+ requests: nothing of the run was sent after it`)));
    // Every call that arrived is counted, but one still in flight when the run stopped waiting for it.
    expect(arrivals.at.length - startedWith - report.requests.made).toBeGreaterThanOrEqual(0);
    expect(arrivals.at.length - startedWith - report.requests.made).toBeLessThanOrEqual(1);
    expect(html).toContain('interrupted');
    expect(junit).toMatch(/interrupted/);
    // The terminal ends with the verdict, the reports and what the run left on the target.
    expect(result.stdout).toMatch(new RegExp(`^INTERRUPTED  ${report.summary.rulesCovered} of ${report.summary.rulesTotal} rules judged`, 'm'));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^(created on the target and left there \(the spec has no delete\): .*|left nothing it created on the target); removed nothing$/);
    expect(`${result.stdout}${result.stderr}${JSON.stringify(report)}${html}${junit}`).not.toContain(TOKEN);
  }, 120_000);

  /** The webhook check alone, paced so slowly that the run waits with the subscription made: the moment to interrupt it. */
  async function interruptSubscribed(signals: number): Promise<{ result: CliResult; report: RunReport }> {
    // 2 calls per 4 s: the subscribe and the first create go at once, the rest wait for the window.
    const profile = await profileFile(`slow-${signals}.yaml`, { limit: 3, window: 4_000 });
    const reportDir = await mkdtemp(join(dir, 'reports-'));
    server.context.webhook = null; // the seed's, or the one an earlier test left
    const run = startRun(['--profile', profile, '--only', 'webhooks/notifications', '--report-dir', reportDir]);
    await until(() => server.context.webhook?.url.startsWith('http://127.0.0.1:') === true, 'the run to subscribe');
    run.child.kill('SIGINT');
    if (signals > 1) {
      await delay(500); // the cleanup's DELETE waits for its turn at 2 calls per 4 s
      run.child.kill('SIGINT');
    }
    const result = await run.done;
    return { result, report: (await onlyReport(reportDir)).report };
  }

  it('removes the webhook subscription it made (one attempt, paced like the run), and says so', async () => {
    const { result, report } = await interruptSubscribed(1);
    expect(result.code, result.stderr).toBe(130);
    expect(report.cleanup).toMatchObject({ outcome: 'removed', detail: expect.stringMatching(/^removed the webhook subscription the run made \(DELETE \/webhooks\/subscription\/unsubscribe → 200\)/) });
    expect(report.cleanup!.exchanges.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(['DELETE /api/public/webhooks/subscription/unsubscribe']);
    expect(server.context.webhook).toBeNull();
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/; removed: the webhook subscription$/);
  }, 60_000);

  it('a second SIGINT skips the cleanup, and the run says what it left', async () => {
    const { result, report } = await interruptSubscribed(2);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain('clockcheck: SIGINT again: the cleanup is skipped; the reports say what was left on the target');
    expect(report.cleanup).toMatchObject({ outcome: 'skipped', detail: expect.stringMatching(/^a second SIGINT skipped the cleanup: the webhook subscription the run made is left/) });
    expect(server.context.webhook?.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^created on the target and left there \(the spec has no delete\): .*the webhook subscription; removed nothing$/);
  }, 60_000);
});
