import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/client/redaction.ts';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import { filesUnder, runClockcheck, type CliResult } from '../support/cli.ts';
import { secretFindings } from '../support/secret-scan.ts';

/**
 * A target that echoes the Authorization value it received in every form a careless or hostile
 * server might (issue 24): in a response header's name, and in header values and the body raw,
 * upper-cased, percent-encoded, hex, as HTML character references, as JSON escapes, as base64 and
 * base64url after prefixes of 0, 1 and 2 bytes, base64 of `Authorization: <value>`, line-wrapped
 * base64, and base64 twice. The token then appears in no form in anything the run wrote or printed,
 * as a checker that decodes (test/support/secret-scan.ts) finds, written apart from the redactor.
 */
const CANARY = 'Cc+/=%<&tok-7f3a9b2e41d0';
const ALNUM = 'clockcheckEchoCanary7f3a9b2e41d0';

function echoForms(value: string): Record<string, string> {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const wrapped = b64(`${'padding '.repeat(12)}${value}${' tail'.repeat(12)}`).replace(/.{76}/g, '$&\r\n');
  return {
    raw: value,
    upper: value.toUpperCase(),
    percent: encodeURIComponent(value),
    percentEveryByte: [...Buffer.from(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    hex: Buffer.from(value).toString('hex'),
    hexUpper: Buffer.from(value).toString('hex').toUpperCase(),
    htmlDecimal: [...value].map((c) => `&#${c.codePointAt(0)};`).join(''),
    htmlHex: [...value].map((c) => `&#X${c.codePointAt(0)!.toString(16).toUpperCase()};`).join(''),
    htmlSpecial: value.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
    jsonUnicode: value.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    base64: b64(value),
    base64After1: b64(`x${value}`),
    base64After2: b64(`xy${value}`),
    base64Url: Buffer.from(`x${value}`).toString('base64url'),
    base64OfAuthorization: b64(`Authorization: ${value}`),
    base64Wrapped: wrapped,
    base64Twice: b64(b64(value)),
  };
}

/** Serves `GET /users` to the token (an empty list, with every echo) and 401 to anything else, echoing what it got. */
async function startEchoTarget(token: string, tls: TlsIdentity): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    req.resume();
    const got = req.headers.authorization ?? '';
    const forms = echoForms(got);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // A header's name, when the value can be one (the alphanumeric canary).
    if (/^[A-Za-z0-9 -]+$/.test(got) && got.length > 0) headers[`x-echo-${got.replace(/ /g, '-').toLowerCase()}`] = '1';
    for (const [name, form] of Object.entries(forms)) if (!/[\r\n]/.test(form) && /^[\x20-\x7e]*$/.test(form)) headers[`x-echo-${name.toLowerCase()}`] = form;
    const body = JSON.stringify({ items: [], meta_data: { pagination: { total: 0, count: 0, per_page: 10, current_page: 1, total_pages: 1, links: {} } }, message: `received ${got}`, echo: forms })
      // JSON.stringify would turn the \u escapes back into plain text: the body carries them escaped.
      .replace(JSON.stringify(forms.jsonUnicode).slice(1, -1), () => forms.jsonUnicode!);
    res.writeHead(got.includes(token) && req.url?.startsWith('/api/public/users') ? 200 : 401, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `https://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each([
  ['a canary with + / = % < &', CANARY],
  ['an alphanumeric canary, echoed in a header name too', ALNUM],
])('a target that echoes the token in every form (%s)', (_, token) => {
  let work: string;
  let result: CliResult;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const tls = await generateTlsIdentity();
    const target = await startEchoTarget(token, tls);
    close = target.close;
    work = await mkdtemp(join(tmpdir(), 'clockcheck-echo-'));
    await writeFile(join(work, 'ca.pem'), tls.caPem);
    result = await runClockcheck(
      ['run', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--rate-limit', '600/1s', '--only', 'auth,transport/error-responses-are-json', '--report-dir', join(work, 'reports'), '--seed', '3'],
      { ...process.env, CLOCKCHECK_TOKEN: token, NO_COLOR: '1' },
    );
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it('the checker finds every form in what the target sent (it is not blind)', () => {
    for (const [name, form] of Object.entries(echoForms(token))) {
      expect(secretFindings(`x ${form} y`, token), name).not.toEqual([]);
      expect(secretFindings(JSON.stringify({ form }), token), `${name} in JSON`).not.toEqual([]);
    }
    expect(new Redactor(token).reveals(JSON.stringify(echoForms(token)))).toBe(true);
  });

  it('writes the reports, and the token is in no form in any file or output', async () => {
    const files = await filesUnder(join(work, 'reports'));
    expect(files.map((f) => f.split('/').pop())).toEqual(expect.arrayContaining(['report.json', 'report.html', 'junit.xml']));
    const leaks: string[] = [];
    for (const file of files) for (const how of secretFindings(await readFile(file, 'utf8'), token)) leaks.push(`${file.split('/').slice(-1)[0]}: ${how}`);
    for (const how of secretFindings(result.stdout, token)) leaks.push(`stdout: ${how}`);
    for (const how of secretFindings(result.stderr, token)) leaks.push(`stderr: ${how}`);
    expect(leaks).toEqual([]);
    // The echoes were kept (redacted), so the test saw them arrive.
    const report = await readFile(files.find((f) => f.endsWith('report.json'))!, 'utf8');
    expect(report).toContain('x-echo-base64after2');
  });
});
