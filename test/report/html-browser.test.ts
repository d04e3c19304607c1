import { RULES } from '../../src/contract/rules.ts';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../src/report/write-reports.ts';
import { HOSTILE_TITLE, sampleReport } from './sample-report.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = '/tmp/clockcheck-report.png';
const FAILED_CHECK = 'schedules/date-format-rejects-feb-30';

// In CI the browser must be there (.ci/run installs it); elsewhere its absence only skips.
describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')('report.html in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const requests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-html-'));
    const { html } = await writeReports(sampleReport(), dir, { caFile: '/tmp/ca.pem' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1800 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(pathToFileURL(html).href);
  });

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the verdict and the counts in the summary', async () => {
    await expect(page.getByTestId('verdict').textContent()).resolves.toBe('FAILED');
    const summary = (await page.getByTestId('summary').innerText()).replace(/\s+/g, ' ');
    for (const count of ['2 passed', '2 failed', '1 errored', '1 skipped', '0 not run', '1 waived', `9 of ${RULES.length} rules judged`]) expect(summary).toContain(count);
  });

  it('lists the rules in the coverage table, uncovered ones marked', async () => {
    const coverage = page.getByTestId('coverage');
    await expect(coverage.locator('tr[data-rule-id]').count()).resolves.toBe(RULES.length);
    await expect(coverage.locator('tr[data-rule-id="SCH-DATE-FORMAT"]').innerText()).resolves.toContain('FAILED');
    await expect(coverage.locator('tr[data-rule-id="PAG-WALK"]').innerText()).resolves.toContain('UNCOVERED');
  });

  it('opens with the failed and errored checks expanded to their findings and every curl command; a click folds one', async () => {
    await page.screenshot({ path: SCREENSHOT });
    for (const id of [FAILED_CHECK, 'timesheets/offset-matches-zone', 'breaks/list-by-ids']) {
      const check = page.locator(`[data-check-id="${id}"]`);
      await expect(check.getAttribute('open'), id).resolves.toBe('');
      const curls = check.getByTestId('curl');
      await expect(curls.count(), id).resolves.toBeGreaterThan(0);
      for (const curl of await curls.all()) await expect(curl.isVisible(), id).resolves.toBe(true);
    }
    const check = page.locator(`[data-check-id="${FAILED_CHECK}"]`);
    const finding = check.getByTestId('finding').first();
    await expect(finding.isVisible()).resolves.toBe(true);
    await expect(finding.innerText()).resolves.toContain('SCH-DATE-FORMAT');
    await expect(check.getByTestId('evidence').first().innerText()).resolves.toBe('finding: SCH-DATE-FORMAT, ERR-VALIDATION-STATUS');
    await expect(check.getByTestId('curl').first().innerText()).resolves.toContain('-H "authorization: $CLOCKCHECK_TOKEN"');
    await check.locator(':scope > summary').click();
    await expect(finding.isVisible()).resolves.toBe(false);
    await check.locator(':scope > summary').click();
    await expect(finding.isVisible()).resolves.toBe(true);
  });

  it('keeps waived and passed checks folded until asked', async () => {
    const waived = page.locator('[data-check-id="transport/head-parity-users"]');
    await expect(waived.getAttribute('open')).resolves.toBeNull();
    await expect(waived.getByTestId('curl').first().isVisible()).resolves.toBe(false);
  });

  it('shows the hostile body as text: no script ran, no dialog opened, nothing was injected', async () => {
    const check = page.locator(`[data-check-id="${FAILED_CHECK}"]`);
    await expect(check.locator('.exchange pre').nth(1).innerText()).resolves.toContain(`"title": "${HOSTILE_TITLE.replace(/"/g, '\\"')}"`);
    await expect(page.locator('main img, main script').count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('opens a check when a coverage link points at it', async () => {
    const waived = page.locator('[data-check-id="transport/head-parity-users"]');
    await expect(waived.getAttribute('open')).resolves.toBeNull();
    await page.getByTestId('coverage').locator('a[href="#check-transport/head-parity-users"]').first().click();
    // hashchange is dispatched asynchronously: wait for the script to open the check.
    await page.waitForSelector('[data-check-id="transport/head-parity-users"][open]', { timeout: 5_000 });
    await expect(waived.getByTestId('curl').first().isVisible()).resolves.toBe(true);
  });

  it('loads nothing but the file itself', () => {
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  });

  it('parses junit.xml as well-formed XML in the browser too', async () => {
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    // A string expression: the test's TypeScript has no DOM types, the page has a DOMParser.
    const problem = await page.evaluate<string | null>(
      `new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml').querySelector('parsererror')?.textContent ?? null`,
    );
    expect(problem).toBeNull();
  });
});
