import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';
import { defaultWorkload } from '../../src/workload/default-workload.ts';
import type { WorkloadReport } from '../../src/workload/workload-report.ts';
import { runWorkloadLoad } from '../../src/workload/workload-run.ts';
import { writeWorkloadReports } from '../../src/workload/write-workload-reports.ts';
import { NO_BROWSER, openReportPage } from '../support/report-page.ts';

const SCREENSHOT = '/tmp/clockcheck-workload.png';

describe.skipIf(NO_BROWSER)('load.html of a workload run in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  let report: WorkloadReport;
  let requests: string[];
  let pageErrors: string[];

  beforeAll(async () => {
    const server = await startReferenceServer({ rateLimit: null });
    try {
      const workload = { ...defaultWorkload(), arrival: { model: 'open' as const, phases: [{ durationMs: 2_000, rate: 15, rampTo: null }], maxInFlight: 20 } };
      report = await runWorkloadLoad({
        origin: server.origin,
        apiPrefix: '/api/public',
        token: server.token,
        tls: { caPem: server.tls.caPem, insecure: false },
        profile: embeddedProfile({ ...server, rateLimit: null }),
        workload,
        seed: 3,
        readOnly: false,
        ensure: [],
        rateLimit: null,
        embedded: true,
        toolVersion: '0.0.0-test',
        runId: 'browser',
        replay: 'clockcheck load --workload default --seed 3',
      });
    } finally {
      await server.close();
    }
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-workload-html-'));
    const { html } = await writeWorkloadReports(report, dir);
    ({ browser, page, requests, pageErrors } = await openReportPage(html));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the verdict, and a row per operation with the total', async () => {
    await expect(page.getByTestId('verdict').textContent()).resolves.toBe(report.verdict.status === 'passed' ? 'PASSED' : 'FAILED');
    const rows = page.getByTestId('operations').locator('tbody tr');
    await expect(rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-operation')))).resolves.toEqual([...report.operations.map((o) => o.operation), 'total']);
  });

  it('draws, per operation, its responses per second and its p50 and p99 lines, coloured by the page\'s own stylesheet', async () => {
    const sections = page.getByTestId('operation');
    await expect(sections.count()).resolves.toBe(report.operations.length);
    for (const o of report.operations) {
      const section = page.locator(`[data-testid="operation"][data-operation="${o.operation}"]`);
      await expect(section.locator('[data-testid="timeline-chart"] rect.bar').count()).resolves.toBeGreaterThan(0);
      const p99 = section.locator('[data-testid="latency-per-second"] polyline[data-line="p99"]');
      await expect(p99.getAttribute('points')).resolves.toMatch(/^\d/);
    }
    // The CSP admits the stylesheet by hash: had it been blocked, the lines would have no stroke colour of ours.
    const strokes = await page.locator('polyline[data-line="p50"]').first().evaluate((l) => (globalThis as unknown as { getComputedStyle(e: unknown): { stroke: string } }).getComputedStyle(l).stroke);
    expect(strokes).toBe('rgb(9, 105, 218)');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('loads nothing but the file itself and runs no script', () => {
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
