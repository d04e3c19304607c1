import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { Redactor } from '../../src/client/redaction.ts';
import { RETAINED_BODY_CHARS, retainExchange } from '../../src/client/retained.ts';
import { harOf, harOfReport, renderHar, type Har, type HarEntry } from '../../src/report/har.ts';
import type { CheckResult, RunReport } from '../../src/report/model.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { secretFindings } from '../support/secret-scan.ts';
import { SAMPLE_BASE_URL, sampleReport, sampleReportOf, sampleReportWithDelivery } from './sample-report.ts';

const schema = JSON.parse(readFileSync(new URL('../fixtures/har-1.2.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/** The schema's complaints about `har` as its file holds it, '' when none. */
function schemaErrors(har: Har): string {
  return validate(JSON.parse(renderHar(har))) ? '' : JSON.stringify(validate.errors, null, 2);
}

const API = `${SAMPLE_BASE_URL}/api/public`;
const START_MS = Date.UTC(2026, 9, 1, 9, 0, 0);

function exchange(id: number, request: Exchange['request'], rest: Partial<Exchange> = {}): Exchange {
  const sentAtMs = START_MS + id * 100;
  return { id, startedAt: new Date(sentAtMs).toISOString(), sentAtMs, durationMs: 12.5, request, ...rest };
}

const ok = (body = '{}'): NonNullable<Exchange['response']> => ({ status: 200, headers: { 'content-type': 'application/json' }, body, bodyBytes: Buffer.byteLength(body), bodyTruncated: false });

function check(id: string, exchanges: readonly Exchange[]): CheckResult {
  return { id, title: id, rules: ['ERR-SUCCESS-STATUS'], source: { kind: 'builtin', name: id }, status: 'passed', findings: [], exchanges, durationMs: 1, replay: `clockcheck run --only ${id}` };
}

function entryOf(har: Har, exchangeId: number): HarEntry {
  const entry = har.log.entries.find((e) => e._clockcheck.exchangeId === exchangeId);
  if (!entry) throw new Error(`no entry for exchange ${exchangeId}`);
  return entry;
}

describe('the HAR of a run (exchanges.har)', () => {
  it('validates against the HAR 1.2 schema, for a run with every kind of exchange', () => {
    for (const report of [sampleReport(), sampleReportWithDelivery()]) expect(schemaErrors(harOfReport(report))).toBe('');
  });

  it('is a log of version 1.2 by clockcheck, whose comment names the run and says the token is redacted', () => {
    const report = sampleReport();
    const { log } = harOfReport(report);
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual({ name: 'clockcheck', version: report.tool.version });
    expect(log.comment).toContain(`clockcheck run ${report.runId}`);
    expect(log.comment).toMatch(/token is redacted/);
  });

  it('holds each exchange once, however many checks share it, with every check that does, in the order sent', () => {
    const setup = exchange(1, { method: 'POST', url: `${API}/users`, headers: {}, body: '{"first_name":"A"}' }, { response: ok() });
    const readBack = exchange(2, { method: 'GET', url: `${API}/users/7`, headers: {} }, { response: ok() });
    const later = exchange(3, { method: 'GET', url: `${API}/users`, headers: {} }, { response: ok() });
    const report = sampleReportOf([check('users/a', [setup, readBack]), check('users/b', [later, setup]), check('users/c', [setup])]);
    const har = harOfReport(report);
    const distinct = new Set(report.checks.flatMap((c) => c.exchanges.map((e) => e.id)));
    expect(har.log.entries).toHaveLength(distinct.size);
    expect(har.log.entries.map((e) => e._clockcheck)).toEqual([
      { exchangeId: 1, checkIds: ['users/a', 'users/b', 'users/c'] },
      { exchangeId: 2, checkIds: ['users/a'] },
      { exchangeId: 3, checkIds: ['users/b'] },
    ]);
  });

  it('has as many entries as the distinct exchanges of the sample report, a cleanup\'s included', () => {
    const base = sampleReportWithDelivery();
    const unsubscribe = exchange(40, { method: 'DELETE', url: `${API}/webhooks/subscription/unsubscribe`, headers: { authorization: '[REDACTED]' } }, { response: ok() });
    const report: RunReport = { ...base, status: 'interrupted', cleanup: { outcome: 'removed', detail: 'removed the webhook subscription', exchanges: [unsubscribe] } };
    const har = harOfReport(report);
    const distinct = new Set([...report.checks.flatMap((c) => c.exchanges), unsubscribe].map((e) => e.id));
    expect(har.log.entries).toHaveLength(distinct.size);
    expect(entryOf(har, 40)._clockcheck).toEqual({ exchangeId: 40, checkIds: [], cleanup: true });
    expect(schemaErrors(har)).toBe('');
  });

  it('parses the query string from the URL, decoded as a browser does', () => {
    const har = harOfReport(sampleReport());
    expect(entryOf(har, 6).request.queryString).toEqual([
      { name: 'page', value: '2' },
      { name: 'sort', value: '-firstName,lastName' },
    ]);
    const encoded = exchange(1, { method: 'GET', url: `${API}/users?q=a%20b+c&e=%C3%BC&flag&e=2`, headers: {} }, { response: ok() });
    const { request } = harOf({ version: '1', comment: '', exchanges: [{ exchange: encoded, checkIds: [] }] }).log.entries[0]!;
    expect(request.queryString).toEqual([
      { name: 'q', value: 'a b c' },
      { name: 'e', value: 'ü' },
      { name: 'flag', value: '' },
      { name: 'e', value: '2' },
    ]);
    expect(entryOf(har, 1).request.queryString).toEqual([]);
  });

  it('carries postData for a POST and a PUT, with the body and its MIME type, and none for a request without a body', () => {
    const put = exchange(1, { method: 'PUT', url: `${API}/users/3`, headers: { 'content-type': 'application/json' }, body: '{"first_name":"Zoë"}' }, { response: ok() });
    const har = harOf({ version: '1', comment: '', exchanges: [{ exchange: put, checkIds: ['users/edit'] }] });
    expect(har.log.entries[0]!.request.postData).toEqual({ mimeType: 'application/json', text: '{"first_name":"Zoë"}' });
    expect(har.log.entries[0]!.request.bodySize).toBe(Buffer.byteLength('{"first_name":"Zoë"}'));

    const sample = harOfReport(sampleReport());
    const post = entryOf(sample, 1).request;
    expect(post.method).toBe('POST');
    expect(post.postData?.mimeType).toBe('application/json');
    expect(JSON.parse(post.postData!.text)).toMatchObject({ title: 'Morning shift' });
    const get = entryOf(sample, 2).request;
    expect(get).not.toHaveProperty('postData');
    expect(get.bodySize).toBe(0);
  });

  it('gives a transport error without a response a status-0 response naming the error code', () => {
    const entry = entryOf(harOfReport(sampleReport()), 5);
    expect(entry.response).toMatchObject({ status: 0, statusText: '', headers: [], content: { size: 0 }, _error: 'CONNECTION_RESET' });
    expect(entry.response.comment).toBe('no response: CONNECTION_RESET: socket hang up (read ECONNRESET)');
    expect(entry.time).toBe(30_000);
  });

  it('keeps the status of a response whose body did not complete, with the error beside it', () => {
    const cut = exchange(1, { method: 'GET', url: `${API}/breaks`, headers: {} }, {
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"items":[', bodyBytes: 10, bodyTruncated: true },
      error: { code: 'BODY_TIMEOUT', message: 'no byte of the body for 10000 ms' },
    });
    const { response } = harOf({ version: '1', comment: '', exchanges: [{ exchange: cut, checkIds: [] }] }).log.entries[0]!;
    expect(response).toMatchObject({ status: 200, statusText: 'OK', _error: 'BODY_TIMEOUT' });
    expect(response.comment).toMatch(/^the body did not complete: BODY_TIMEOUT: /);
  });

  it('says in content.comment when the kept body was truncated, and gives the size received', () => {
    const { content, bodySize } = entryOf(harOfReport(sampleReport()), 4).response;
    expect(content.size).toBe(96_000);
    expect(bodySize).toBe(96_000);
    expect(content.mimeType).toBe('text/html; charset=utf-8');
    expect(content.comment).toMatch(/^truncated: text holds the first \d+ characters of the body \(96000 bytes received\)$/);
    expect(entryOf(harOfReport(sampleReport()), 1).response.content).not.toHaveProperty('comment');
  });

  it('says when a kept request body may have been cut at the keeping cap', () => {
    const long = retainExchange(exchange(1, { method: 'POST', url: `${API}/users`, headers: {}, body: 'x'.repeat(RETAINED_BODY_CHARS + 10) }, { response: ok() }));
    const { request } = harOf({ version: '1', comment: '', exchanges: [{ exchange: long, checkIds: [] }] }).log.entries[0]!;
    expect(request.postData?.text).toHaveLength(RETAINED_BODY_CHARS);
    expect(request.comment).toMatch(/first 8192 characters/);
  });

  it('has timings whose sum (without the -1 ones) is the entry\'s time', () => {
    for (const entry of harOfReport(sampleReportWithDelivery()).log.entries) {
      const sum = Object.entries(entry.timings)
        .filter(([name, value]) => name !== 'comment' && value !== -1)
        .reduce((total, [, value]) => total + value, 0);
      expect(sum, `exchange ${entry._clockcheck.exchangeId}`).toBe(entry.time);
      expect(entry.timings).toMatchObject({ blocked: -1, dns: -1, connect: -1, send: 0, receive: 0 });
    }
  });

  it('marks a webhook notification the sink received as inbound', () => {
    const entry = entryOf(harOfReport(sampleReportWithDelivery()), 9);
    expect(entry._clockcheck).toEqual({ exchangeId: 9, checkIds: ['webhooks/notifications-stop'], inbound: true });
    expect(entry.request.method).toBe('POST');
    expect(entry.comment).toMatch(/webhook notification/);
    expect(entryOf(harOfReport(sampleReportWithDelivery()), 8)._clockcheck).not.toHaveProperty('inbound');
  });

  it('lists headers as name/value pairs, Authorization as kept ([REDACTED]), and the Location of a redirect as redirectURL', () => {
    const moved = exchange(1, { method: 'GET', url: `${API}/users`, headers: { authorization: '[REDACTED]', accept: 'application/json' } }, {
      response: { status: 301, headers: { location: 'https://elsewhere.example/api/public/users' }, body: '', bodyBytes: 0, bodyTruncated: false },
    });
    const created = exchange(2, { method: 'POST', url: `${API}/users`, headers: {}, body: '{}' }, { response: { ...ok(), status: 201, headers: { location: `${API}/users/9` } } });
    const [redirect, create] = harOf({ version: '1', comment: '', exchanges: [moved, created].map((e) => ({ exchange: e, checkIds: [] })) }).log.entries;
    expect(redirect!.request.headers).toEqual([
      { name: 'authorization', value: '[REDACTED]' },
      { name: 'accept', value: 'application/json' },
    ]);
    expect(redirect!.response).toMatchObject({ status: 301, statusText: 'Moved Permanently', redirectURL: 'https://elsewhere.example/api/public/users', content: { mimeType: 'x-unknown' } });
    expect(create!.response.redirectURL).toBe('');
  });

  it('renders as JSON with a trailing newline, the same for the same report', () => {
    const text = renderHar(harOfReport(sampleReport()));
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(harOfReport(sampleReport()))));
    expect(renderHar(harOfReport(sampleReport()))).toBe(text);
  });

  it('is refused by the schema when a required field is missing or a field is unknown (the schema checks something)', () => {
    const har = JSON.parse(renderHar(harOfReport(sampleReport()))) as { log: { entries: Record<string, unknown>[] } };
    const entry = har.log.entries[0]!;
    delete entry.cache;
    expect(validate(har)).toBe(false);
    entry.cache = {};
    entry.timing = {};
    expect(validate(har)).toBe(false);
    delete entry.timing;
    expect(validate(har)).toBe(true);
  });
});

describe('the HAR keeps the token secret', () => {
  const TOKEN = 'Hx+/=%<&tok-??>>~~-9c1e5a7b3d';
  const redactor = new Redactor(TOKEN);
  const b64 = Buffer.from(TOKEN).toString('base64');

  /** An exchange whose every part echoes the token in some form, as a hostile target's would, kept as the client keeps it (redacted). */
  function echoing(id: number): Exchange {
    const raw = exchange(
      id,
      {
        method: 'POST',
        url: `${API}/users?t=${encodeURIComponent(TOKEN)}&b=${encodeURIComponent(b64)}&f=${new URLSearchParams({ x: TOKEN }).toString().slice(2)}`,
        headers: { authorization: TOKEN, 'content-type': 'application/json', 'x-echo': b64 },
        body: JSON.stringify({ password: TOKEN, b: b64 }),
      },
      {
        response: {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer realm="${TOKEN}"`, 'x-token-b64url': Buffer.from(TOKEN).toString('base64url') },
          body: JSON.stringify({ message: `bad token ${TOKEN}`, hex: Buffer.from(TOKEN).toString('hex'), html: TOKEN.replace(/&/g, '&amp;').replace(/</g, '&lt;') }),
          bodyBytes: 200,
          bodyTruncated: false,
        },
      },
    );
    return retainExchange(redactor.exchange(raw));
  }

  it('in no form: raw, base64, percent-encoded or any other the decoding checker knows', () => {
    const report = sampleReportOf([check('auth/echo', [echoing(1), echoing(2)])]);
    const text = renderHar(harOfReport(report, { redact: (t) => redactor.text(t) }));
    expect(schemaErrors(JSON.parse(text) as Har)).toBe('');
    for (const form of [TOKEN, b64, Buffer.from(TOKEN).toString('base64url'), encodeURIComponent(TOKEN), encodeURIComponent(b64), JSON.stringify(TOKEN).slice(1, -1)]) {
      expect(text).not.toContain(form);
    }
    expect(secretFindings(text, TOKEN)).toEqual([]);
    expect(text).toContain('[REDACTED]');
  });

  it('redacts again what it decodes from a URL, when given the run\'s redaction', () => {
    // A URL the first redaction missed (it never does: this stands for a form it might not know).
    const missed = exchange(1, { method: 'GET', url: `${API}/users?t=${encodeURIComponent(TOKEN)}`, headers: {} }, { response: ok() });
    const plain = harOf({ version: '1', comment: '', exchanges: [{ exchange: missed, checkIds: [] }] });
    expect(plain.log.entries[0]!.request.queryString).toEqual([{ name: 't', value: TOKEN }]);
    const redacted = harOf({ version: '1', comment: '', exchanges: [{ exchange: missed, checkIds: [] }] }, { redact: (t) => redactor.text(t) });
    expect(redacted.log.entries[0]!.request.queryString).toEqual([{ name: 't', value: '[REDACTED]' }]);
  });
});

describe('writeReports with a HAR', () => {
  it('writes exchanges.har beside report.json when asked, and no HAR otherwise', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-har-'));
    try {
      const withHar = await writeReports(sampleReport(), join(dir, 'a'), {}, { har: {} });
      expect(withHar.har).toBe(join(dir, 'a', 'exchanges.har'));
      const har = JSON.parse(await readFile(withHar.har!, 'utf8')) as Har;
      expect(validate(har)).toBe(true);
      expect(har.log.entries).toHaveLength(new Set(sampleReport().checks.flatMap((c) => c.exchanges.map((e) => e.id))).size);
      const without = await writeReports(sampleReport(), join(dir, 'b'), {});
      expect(without).not.toHaveProperty('har');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
