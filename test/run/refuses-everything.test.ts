import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.ts';
import { generateTlsIdentity } from '../../src/tls/certificate.ts';
import { filesUnder, runClockcheck } from '../support/cli.ts';

/**
 * A target that answers 429 to every call after the preflight (issue 24): the run stops once two
 * windows passed with nothing served, RATE-LIMIT-QUOTA fails (it served nothing while fewer than
 * the limit could count), the rest is errored or not run with that reason, and the reports are written.
 */
describe('a target that answers 429 to every call after the preflight', () => {
  it('stops within a few windows: RATE-LIMIT-QUOTA failed, the rest errored with the reason, exit 1', async () => {
    const tls = await generateTlsIdentity();
    let calls = 0;
    const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
      req.resume();
      calls++;
      if (calls === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: [], meta_data: { pagination: { total: 0, count: 0, per_page: 10, current_page: 1, total_pages: 1, links: {} } } }));
        return;
      }
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"message":"Too Many Attempts."}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await mkdtemp(join(tmpdir(), 'clockcheck-all-429-'));
      await writeFile(join(dir, 'ca.pem'), tls.caPem);
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const started = Date.now();
      const result = await runClockcheck(
        ['run', '--target', origin, '--ca', join(dir, 'ca.pem'), '--rate-limit', '60/1s', '--only', 'users,rate-limit/monitor', '--report-dir', join(dir, 'reports'), '--seed', '2'],
        { ...process.env, CLOCKCHECK_TOKEN: 'cc-all-429-token-4c2b', NO_COLOR: '1' },
      );
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
      const report = JSON.parse(await readFile((await filesUnder(join(dir, 'reports'))).find((f) => f.endsWith('report.json'))!, 'utf8')) as RunReport;
      const monitor = report.checks.find((c) => c.id === 'rate-limit/monitor')!;
      expect(monitor.status).toBe('failed');
      expect(monitor.findings.map((f) => f.ruleId)).toEqual(['RATE-LIMIT-QUOTA']);
      expect(report.notes).toContainEqual(expect.stringMatching(/^the run stopped: the target answered 429 to every call for [\d.]+ s, more than two windows of 1\.0 s/));
      const others = report.checks.filter((c) => c.id !== 'rate-limit/monitor' && c.id !== 'auth/token-form');
      expect(others.filter((c) => c.status === 'passed' || c.status === 'failed')).toEqual([]);
      expect(others.filter((c) => c.status === 'not-run')).toEqual([]);
      expect(others.some((c) => c.status === 'errored' && /answered 429 to every call/.test(c.reason ?? ''))).toBe(true);
      expect(report.stopped).toMatchObject({ by: 'target', reason: expect.stringMatching(/answered 429 to every call/) });
      expect(calls).toBeLessThan(20);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
