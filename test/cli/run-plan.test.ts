import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlanDocument } from '../../src/plan/plan-text.ts';
import type { RunReport } from '../../src/report/model.ts';
import { filesUnder, runClockcheck } from '../support/cli.ts';

const withoutToken = () => {
  const env = { ...process.env };
  delete env.CLOCKCHECK_TOKEN;
  return env;
};

describe('clockcheck run --plan', () => {
  it('plans the embedded run without starting anything, and the run sends exactly what it planned', async () => {
    const planned = await runClockcheck(['run', '--plan', '--format', 'json', '--only', 'auth'], withoutToken());
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanDocument;
    expect(plan.target).toBe('the embedded reference server');
    expect(plan.checks.map((c) => c.id)).toContain('auth/token-form');
    expect(plan.checks.every((c) => c.id.startsWith('auth/'))).toBe(true);
    expect(plan.requests).toBe(plan.checks.reduce((n, c) => n + c.requests, 0));
    expect(plan.rateLimitPhase).toBeNull();

    const reportDir = await mkdtemp(join(tmpdir(), 'clockcheck-plan-'));
    const run = await runClockcheck(['run', '--only', 'auth', '--quiet', '--seed', '7', '--report-dir', reportDir], process.env);
    expect(run.code).toBe(0);
    const reportFile = (await filesUnder(reportDir)).find((f) => f.endsWith('report.json'))!;
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as RunReport;
    expect(report.requests.planned).toBe(plan.requests);
    expect(report.requests.made).toBe(plan.requests);
  }, 120_000);

  it('plans a run against a target without a token and without contacting it, with the rate-limit phase in windows', async () => {
    // Port 9 (discard) on loopback: nothing answers there, and --plan must not try.
    const planned = await runClockcheck(['run', '--plan', '--target', 'https://127.0.0.1:9', '--rate-limit', '60/60s'], withoutToken());
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/^plan: https:\/\/127\.0\.0\.1:9, at 60 calls per 1 min 00 s \(nothing sent\)/);
    expect(planned.stdout).toMatch(/rate-limit phase\s+4 checks, \d+(\.\d)? windows/);
    const total = /^(\d+) requests: (\d+) paced at 60 calls per 1 min 00 s, (\d+) in the rate-limit phase, (\d+) in the closing bursts; ETA (\d+) min/m.exec(planned.stdout);
    expect(total).not.toBeNull();
    const [, requests, paced, phase, closing, minutes] = total!.map(Number);
    expect(paced! + phase! + closing!).toBe(requests);
    // At 60 calls a minute the paced part alone takes at least paced / 60 minutes.
    expect(minutes).toBeGreaterThanOrEqual(Math.floor(paced! / 60));
  }, 60_000);

  it('refuses --format without --plan, and an unknown format', async () => {
    expect((await runClockcheck(['run', '--format', 'json'], withoutToken())).code).toBe(2);
    expect((await runClockcheck(['run', '--plan', '--format', 'xml'], withoutToken())).code).toBe(2);
  });

  it('fits --plan and the run into --max-requests: the run never exceeds it, and says what it left out', async () => {
    const planned = await runClockcheck(['run', '--plan', '--format', 'json', '--max-requests', '120'], withoutToken());
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanDocument & { budget: { note: string; leftOut: string[] } };
    expect(plan.requests).toBeLessThanOrEqual(120);
    expect(plan.budget.leftOut.length).toBeGreaterThan(0);
    expect(plan.budget.note).toMatch(/^--max-requests 120: \d+ checks planned/);

    const reportDir = await mkdtemp(join(tmpdir(), 'clockcheck-budget-'));
    const run = await runClockcheck(['run', '--max-requests', '120', '--quiet', '--seed', '7', '--report-dir', reportDir], process.env);
    expect(run.code).toBe(0);
    const reportFile = (await filesUnder(reportDir)).find((f) => f.endsWith('report.json'))!;
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as RunReport;
    expect(report.options.maxRequests).toBe(120);
    expect(report.requests.planned).toBe(plan.requests);
    expect(report.requests.made).toBeLessThanOrEqual(120);
    const overBudget = report.checks.filter((c) => c.status === 'not-run' && c.reason?.startsWith('not run: budget (--max-requests 120): a full run sends it'));
    expect(overBudget.map((c) => c.id).sort()).toEqual([...plan.budget.leftOut].sort());
    expect(report.notes.join('\n')).toContain(plan.budget.note);
  }, 120_000);
});
