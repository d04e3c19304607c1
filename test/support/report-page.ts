import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (CONTRIBUTING.md: nothing downloads a browser). */
export const CHROMIUM = '/usr/bin/chromium';

/** In CI the browser must be there (.ci/run installs it); elsewhere its absence only skips. */
export const NO_BROWSER = !existsSync(CHROMIUM) && process.env.CI !== 'true';

/** A report page opened from its file in headless Chromium, with every request it made and every script error it raised. */
export interface ReportPage {
  readonly browser: Browser;
  readonly page: Page;
  readonly requests: string[];
  readonly pageErrors: string[];
}

/** Opens `htmlFile` at 1100 × 1400 in headless Chromium with no network services of its own; close `browser` after. */
export async function openReportPage(htmlFile: string): Promise<ReportPage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  const requests: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(pathToFileURL(htmlFile).href);
  return { browser, page, requests, pageErrors };
}
