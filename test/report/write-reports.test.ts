import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summaryTable } from '../../src/report/terminal-reporter.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { SAMPLE_SECRET_TOKEN, sampleReport } from './sample-report.ts';

describe('writeReports', () => {
  let dir: string;
  let savedToken: string | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-report-'));
    savedToken = process.env.CLOCKCHECK_TOKEN;
    // The secret is where a careless writer could find it: a writer must never read it.
    process.env.CLOCKCHECK_TOKEN = SAMPLE_SECRET_TOKEN;
  });

  afterEach(async () => {
    if (savedToken === undefined) delete process.env.CLOCKCHECK_TOKEN;
    else process.env.CLOCKCHECK_TOKEN = savedToken;
    await rm(dir, { recursive: true, force: true });
  });

  it('writes report.json, report.html and junit.xml into a directory it creates, and returns their paths', async () => {
    const target = join(dir, 'nested', 'reports');
    const paths = await writeReports(sampleReport(), target, { insecure: true });
    expect(paths).toEqual({ json: join(target, 'report.json'), html: join(target, 'report.html'), junit: join(target, 'junit.xml') });
    const json = JSON.parse(await readFile(paths.json, 'utf8')) as { runId: string };
    expect(json.runId).toBe(sampleReport().runId);
    expect(await readFile(paths.html, 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect(await readFile(paths.junit, 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(await readFile(paths.junit, 'utf8')).toContain('curl -sS -i -k');
  });

  it('never writes the token, in any file or in the terminal summary', async () => {
    const paths = await writeReports(sampleReport(), dir, { caFile: '/tmp/ca.pem' });
    const written = [...(await Promise.all(Object.values(paths).map((p) => readFile(p, 'utf8')))), summaryTable(sampleReport(), { color: true, paths })];
    for (const text of written) {
      expect(text).not.toContain(SAMPLE_SECRET_TOKEN);
      expect(text).not.toContain(SAMPLE_SECRET_TOKEN.slice(8, 24));
    }
  });

  it('writes the same bytes for the same report', async () => {
    const first = await writeReports(sampleReport(), join(dir, 'a'), {});
    const second = await writeReports(sampleReport(), join(dir, 'b'), {});
    for (const kind of ['json', 'html', 'junit'] as const) {
      expect(await readFile(second[kind], 'utf8')).toBe(await readFile(first[kind], 'utf8'));
    }
  });
});
