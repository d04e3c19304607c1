import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTlsIdentity } from '../../src/tls/certificate.ts';
import { runClockcheck } from '../support/cli.ts';

/** Text from the target reaches the terminal without the escape sequences it holds (issue 24): a 401 whose body would retitle the window, clear the screen and reset the terminal. */
describe('a target whose refusal holds terminal escape sequences', () => {
  it('gets a one-line cause, exit 2, with the body quoted and no escape or control byte on the terminal', async () => {
    const tls = await generateTlsIdentity();
    const body = '{"message":"\u001b]0;pwned\u0007\u001b[2J\u001bcdenied\u009b31m here"}';
    const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await mkdtemp(join(tmpdir(), 'clockcheck-escapes-'));
      await writeFile(join(dir, 'ca.pem'), tls.caPem);
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runClockcheck(['run', '--target', origin, '--ca', join(dir, 'ca.pem'), '--report-dir', join(dir, 'reports')], { ...process.env, CLOCKCHECK_TOKEN: 'cc-escapes-token-5e1f0a', NO_COLOR: '1' });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^clockcheck: the token was refused: .*denied here/m);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(result.stderr).not.toContain('pwned');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
