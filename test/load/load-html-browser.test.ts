import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLoadOptions } from '../../src/load/load-options.ts';
import { LATENCY_PERCENTILES, type LoadReport } from '../../src/load/load-report.ts';
import { runLoad } from '../../src/load/load-run.ts';
import { writeLoadReports } from '../../src/load/write-load-reports.ts';
import { startReferenceServer } from '../../src/reference/server.ts';
import { NO_BROWSER, openReportPage } from '../support/report-page.ts';

const SCREENSHOT = '/tmp/clockcheck-load.png';

describe.skipIf(NO_BROWSER)('load.html in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  let report: LoadReport;
  let requests: string[];
  let pageErrors: string[];

  beforeAll(async () => {
    const server = await startReferenceServer({ rateLimit: { limit: 50, windowMs: 60_000 } });
    try {
      report = await runLoad({
        origin: server.origin,
        apiPrefix: '/api/public',
        token: server.token,
        tls: { caPem: server.tls.caPem, insecure: false },
        options: resolveLoadOptions({ amount: '200', connections: '4' }),
        rateLimit: { limit: 50, windowMs: 60_000 },
        embedded: true,
        toolVersion: '0.0.0-test',
      });
    } finally {
      await server.close();
    }
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-load-html-'));
    const { html } = await writeLoadReports(report, dir);
    ({ browser, page, requests, pageErrors } = await openReportPage(html));
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the verdict and the counts at the top', async () => {
    await expect(page.getByTestId('verdict').textContent()).resolves.toBe('PASSED');
    await expect(page.getByTestId('count-2xx').innerText()).resolves.toBe('50 2xx');
    await expect(page.getByTestId('count-429').innerText()).resolves.toBe('150 429');
    await expect(page.locator('[data-check-id="within-rate-limit"]').innerText()).resolves.toMatch(/PASSED.*50 calls served/s);
  });

  it('draws the percentile chart: one bar per percentile and max, longer for the higher percentiles', async () => {
    const chart = page.getByTestId('latency-chart');
    await expect(chart.isVisible()).resolves.toBe(true);
    const bars = chart.locator('rect[data-percentile]');
    await expect(bars.count()).resolves.toBe(LATENCY_PERCENTILES.length + 1);
    const keys = await bars.evaluateAll((rects) => rects.map((r) => r.getAttribute('data-percentile')));
    expect(keys).toEqual([...LATENCY_PERCENTILES.map((p) => p.key), 'max']);
    const widths = await bars.evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
    expect(widths.at(-1)).toBeGreaterThan(100);
    await expect(chart.locator('text').allTextContents()).resolves.toEqual(expect.arrayContaining(['p99', `${report.latencyMs.p99} ms`, 'max']));
  });

  it('draws the status histogram to scale, coloured by the page\'s own stylesheet', async () => {
    const chart = page.getByTestId('status-chart');
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.isVisible()).resolves.toBe(true);
    const bars = chart.locator('rect[data-status]');
    await expect(bars.evaluateAll((rects) => rects.map((r) => r.getAttribute('data-status')))).resolves.toEqual(['200', '429']);
    const [ok, limited] = await bars.evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    expect(limited! / ok!).toBeCloseTo(3, 1);
    // The CSP admits the stylesheet by hash: had it been blocked, the bars would be black.
    // The test's TypeScript has no DOM types; the page has getComputedStyle.
    const fills = await bars.evaluateAll((rects) => rects.map((r) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(r).fill));
    expect(fills).toEqual(['rgb(26, 127, 55)', 'rgb(130, 80, 223)']);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('loads nothing but the file itself and runs no script', () => {
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
