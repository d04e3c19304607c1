import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/client/redaction.ts';
import { generateTlsIdentity } from '../../src/tls/certificate.ts';
import { filesUnder, runClockcheck, type CliResult } from '../support/cli.ts';
import { secretFindings } from '../support/secret-scan.ts';
import { echoForms, startEchoTarget } from './echo-target.ts';

/**
 * A target that echoes the token in every form a careless or hostile server might (echo-target.ts),
 * in a response header's name, in header values and in the body. The token then appears in no form
 * in the reports or the output, as a checker that decodes (test/support/secret-scan.ts) finds,
 * written apart from the redactor. artifact-secrecy.test.ts covers every other file and command.
 */
const CANARY = 'Cc+/=%<&tok-7f3a9b2e41d0';
const ALNUM = 'clockcheckEchoCanary7f3a9b2e41d0';

/** A canary whose base64 holds + and / at every offset (percent-encoded in a query, `\/` in PHP's JSON). */
const SLASHED = 'Cc+/=%<&tok-??>>~~-7f3a9b2e41d0';

it.each([CANARY, ALNUM, SLASHED])('the redactor leaves no form of %s the checker finds, of the token or of `Bearer <token>`', (token) => {
  const redactor = new Redactor(token);
  const left: string[] = [];
  for (const value of [token, `Bearer ${token}`]) {
    for (const [name, form] of Object.entries(echoForms(value))) {
      // As it comes, and inside a JSON text written the PHP way (every slash escaped).
      for (const text of [`x ${form} y`, JSON.stringify({ form }).replace(/\//g, '\\/')]) {
        for (const how of secretFindings(redactor.text(text), token)) left.push(`${name} of ${value === token ? 'the token' : 'Bearer <token>'}: ${how}`);
      }
    }
  }
  expect(left).toEqual([]);
});

it('hides the token in a header name in every form, base64 too, though HTTP lower-cases the name', () => {
  for (const token of [CANARY, SLASHED]) {
    const name = `x-echo-${Buffer.from(`xy${token}`).toString('base64url')}`.toLowerCase();
    const names = Object.keys(new Redactor(token).headers({ [name]: '1', [`x-${encodeURIComponent(token).toLowerCase()}`]: '2' }));
    // Only the characters that mix in the bytes around the token are left of the base64.
    expect(names).toEqual([expect.stringMatching(/^x-echo-[a-z0-9_-]{0,4}\[REDACTED\][a-z0-9_-]?$/), 'x-[REDACTED]']);
  }
});

it('a short token inside ordinary words, escapes and entities is left alone; alone, it is redacted in any escape', () => {
  const redactor = new Redactor('tok');
  const ordinary = 'tokens in stock, a tok3n, Tokyo; &amp; %20 \\n &#116;oken stock%20tok2 {"stok":"\\u0074oken"}';
  expect(redactor.text(ordinary)).toBe(ordinary);
  expect(redactor.text('a tok, %74%6F%6B, &#116;ok; "\\u0074ok" (TOK)')).toBe('a [REDACTED], [REDACTED], [REDACTED]; "[REDACTED]" ([REDACTED])');
});

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
