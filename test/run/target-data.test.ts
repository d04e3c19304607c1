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
 * A target whose created records carry an ID no request can carry back (CR LF, NUL, beyond
 * Latin-1): the checks that would put it in a path are errored with the value shown escaped (it is
 * no integer, ID-INTEGER), the run goes on and writes its reports (issue 24: it used to end with
 * exit 13 and no report; issue 35: the ID is refused where it is read, before any request is built).
 */
describe.each([
  ['CR LF', '7\r\nX-Injected: 1', '7\\r\\nX-Injected: 1'],
  ['NUL', '7\u0000x', '7\\u0000x'],
  ['beyond Latin-1', '7☃', '7☃'],
])('a target whose created IDs hold %s', (_, id, shown) => {
  it('errors the checks that send the ID back, names it escaped, and writes the reports', async () => {
    const tls = await generateTlsIdentity();
    const list = JSON.stringify({ items: [], meta_data: { pagination: { total: 0, count: 0, per_page: 10, current_page: 1, total_pages: 1, links: {} } } });
    const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
      req.resume();
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(req.method === 'POST' ? JSON.stringify({ items: { id }, message: 'created' }) : list);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await mkdtemp(join(tmpdir(), 'clockcheck-target-data-'));
      await writeFile(join(dir, 'ca.pem'), tls.caPem);
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runClockcheck(
        ['run', '--target', origin, '--ca', join(dir, 'ca.pem'), '--rate-limit', '600/1s', '--only', 'users/edit-valid,users/edit-rules', '--report-dir', join(dir, 'reports'), '--seed', '2'],
        { ...process.env, CLOCKCHECK_TOKEN: 'cc-target-data-token-9d0e', NO_COLOR: '1' },
      );
      expect([1, 3], result.stderr).toContain(result.code);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/internal error|at .*\.[jt]s:\d+/);
      const report = JSON.parse(await readFile((await filesUnder(join(dir, 'reports'))).find((f) => f.endsWith('report.json'))!, 'utf8')) as RunReport;
      const sentBack = report.checks.filter((c) => /which is not an integer \(ID-INTEGER\), so no request can name it/.test(c.reason ?? ''));
      expect(sentBack.map((c) => c.id).sort()).toEqual(['users/edit-rules', 'users/edit-valid']);
      for (const check of sentBack) expect(check.reason).toContain(`the ID "${shown}"`);
      for (const exchange of report.checks.flatMap((c) => c.exchanges)) expect(exchange.request.url).not.toContain(id);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
