import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar } from '../../src/grade/har-input.ts';
import { apiTraffic } from '../../src/grade/traffic.ts';
import { tallyTraffic } from '../../src/grade/grade-report.ts';
import { passiveCoverage } from '../../src/grade/passive-rules.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import type { Profile } from '../../src/profile/profile.ts';
import { entry, har, listedBreak, page, TOKEN } from './har-fixture.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-grade-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function grade(entries: Record<string, unknown>[], profile: Profile = defaultProfile(), given = false) {
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.har`);
  await writeFile(file, har(entries));
  const recording = await readHar(file);
  const traffic = apiTraffic(recording.entries, { apiPrefix: profile.api_prefix });
  const tallies = tallyTraffic(traffic, { profile, given });
  const verdict = (rule: string) => {
    const t = tallies.get(rule as never);
    return t === undefined ? 'unseen' : t.broken > 0 ? 'failed' : 'passed';
  };
  return { traffic, tallies, verdict };
}

const schedule = { assigned_by: 1, title: 'Shift', repeat: false, all_day: false, color: 'blue', user_ids: [1], start_date: '01/12/2026', end_date: '01/12/2026', start_time: '08:00', end_time: '16:00' };

describe('readHar', () => {
  it('refuses what is not a HAR with one line naming the file (CLOCKCHECK_TRAFFIC)', async () => {
    const file = join(dir, 'not.har');
    await writeFile(file, '<html>');
    await expect(readHar(file)).rejects.toMatchObject({ code: 'CLOCKCHECK_TRAFFIC', message: expect.stringContaining(`${file}: not JSON`) });
    await writeFile(file, '{"log": {}}');
    await expect(readHar(file)).rejects.toMatchObject({ code: 'CLOCKCHECK_TRAFFIC', message: expect.stringContaining('no log.entries') });
    await expect(readHar(join(dir, 'missing.har'))).rejects.toMatchObject({ code: 'CLOCKCHECK_INPUT_FILE' });
  });

  it('counts entries it cannot read and keeps the rest, in time order', async () => {
    const file = join(dir, 'odd.har');
    await writeFile(file, har([entry({ url: '/users', status: 200, at: 50 }), { request: { url: 'chrome-extension://x' } }, entry({ url: '/breaks', status: 200, at: 10 })]));
    const read = await readHar(file);
    expect(read.unreadable).toBe(1);
    expect(read.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/api/public/breaks', '/api/public/users']);
  });
});

describe('the traffic of the API in a recording', () => {
  it('leaves out other hosts and paths, decodes base64 and gzip bodies, and knows a body left out or cut', async () => {
    const list = JSON.stringify(page([listedBreak(1)]));
    const { traffic } = await grade([
      entry({ url: 'https://cdn.example.test/app.js', status: 200 }),
      entry({ url: 'https://api.example.test/login', status: 200 }),
      entry({ url: '/breaks', status: 200, responseText: Buffer.from(list).toString('base64'), content: { encoding: 'base64', size: list.length } }),
      entry({ url: '/breaks?page=1', status: 200, responseHeaders: { 'content-encoding': 'gzip' }, responseText: gzipSync(list).toString('base64'), content: { encoding: 'base64', size: list.length } }),
      entry({ url: '/users', status: 200, content: { text: undefined, size: 5000 } }),
      entry({ url: '/timesheets', status: 200, responseText: '{"items": [', content: { size: 9000 } }),
    ]);
    expect(traffic.elsewhere).toBe(2);
    expect(traffic.observed.map((o) => o.responseBody.known)).toEqual([true, true, false, false]);
    expect(traffic.observed[0]!.responseJson).toEqual(JSON.parse(list));
    expect(traffic.observed[1]!.responseJson).toEqual(JSON.parse(list));
  });

  it("redacts the recording's own credentials everywhere, in every encoding, and groups calls by token without showing it", async () => {
    const cookie = 'sessionid=c00kie-secret-9f8e7d';
    const { traffic } = await grade([
      entry({ url: `/users?echo=${encodeURIComponent(TOKEN)}`, status: 200, headers: { cookie }, response: { note: Buffer.from(TOKEN).toString('base64'), again: 'c00kie-secret-9f8e7d' } }),
      entry({ url: '/users', status: 200, headers: { authorization: `Bearer ${TOKEN}` }, response: page([]) }),
    ]);
    const text = JSON.stringify(traffic.observed.map((o) => o.exchange));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(encodeURIComponent(TOKEN));
    expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(text).not.toContain('c00kie-secret-9f8e7d');
    expect(traffic.observed[0]!.exchange.request.headers.authorization).toBe('[REDACTED]');
    expect(traffic.observed[0]!.credential.fingerprint).toBe(traffic.observed[1]!.credential.fingerprint);
    expect(traffic.observed.map((o) => o.credential.form)).toEqual(['raw', 'scheme']);
  });
});

describe('what a recorded exchange shows', () => {
  it('fails a field rule when a body that breaks it was accepted, and passes it when that alone was refused', async () => {
    const { verdict } = await grade([entry({ method: 'POST', url: '/schedules', body: { ...schedule, start_date: '2026-01-12' }, status: 201, response: { id: 9 } })]);
    expect(verdict('SCH-DATE-FORMAT')).toBe('failed');
    const refused = await grade([entry({ method: 'POST', url: '/schedules', body: { ...schedule, start_date: '2026-01-12' }, status: 422, response: { message: 'invalid' } })]);
    expect(refused.verdict('SCH-DATE-FORMAT')).toBe('passed');
    expect(refused.verdict('ERR-VALIDATION-STATUS')).toBe('unseen'); // any 4xx holds without the profile's code
    const coded = { ...defaultProfile(), status_codes: { validation: 400 } };
    const wrongCode = await grade([entry({ method: 'POST', url: '/schedules', body: { ...schedule, start_date: '2026-01-12' }, status: 422, response: {} })], coded, true);
    expect(wrongCode.verdict('ERR-VALIDATION-STATUS')).toBe('failed');
    expect(refused.verdict('ERR-NO-SERVER-ERROR')).toBe('passed');
  });

  it('reads the user defaults in a create answer that carries the record (null is not 0), and an e-mail only as the profile declares', async () => {
    const user = { first_name: 'A', last_name: 'B', email: 'not-an-address', password: 'Valid-pass1' };
    const { verdict } = await grade([entry({ method: 'POST', url: '/users', body: user, status: 201, response: { id: 5, role_id: 3, pay_rate: null, track_location: false } })]);
    expect(verdict('USR-PAY-RATE-DEFAULT')).toBe('failed');
    expect(verdict('USR-ROLE-ID-DEFAULT')).toBe('passed');
    expect(verdict('USR-EMAIL-FORMAT')).toBe('unseen');
    const validated = await grade([entry({ method: 'POST', url: '/users', body: user, status: 201, response: { id: 5 } })], { ...defaultProfile(), user_email_format: 'validated' }, true);
    expect(validated.verdict('USR-EMAIL-FORMAT')).toBe('failed');
  });

  it('does not say which rule a refusal was for when the body breaks two', async () => {
    const { verdict } = await grade([entry({ method: 'POST', url: '/schedules', body: { ...schedule, start_date: '2026-01-12', start_time: '25:00' }, status: 422, response: {} })]);
    expect(verdict('SCH-DATE-FORMAT')).toBe('unseen');
    expect(verdict('SCH-TIME-FORMAT')).toBe('unseen');
    expect(verdict('ERR-NO-SERVER-ERROR')).toBe('passed');
  });

  it('judges a partial update by what it sends, never by a requirement the stored schedule may meet', async () => {
    const { verdict } = await grade([entry({ method: 'PUT', url: '/schedules/5', body: { event_pid: 'p1', all_day: false }, status: 200, response: {} })]);
    expect(verdict('SCH-TIMES-UNLESS-ALL-DAY')).toBe('unseen');
    const noPid = await grade([entry({ method: 'PUT', url: '/schedules/5', body: { title: 'x' }, status: 200, response: {} })]);
    expect(noPid.verdict('SCH-UPDATE-EVENT-PID')).toBe('failed');
  });

  it('fails JSON-MALFORMED-REJECTED on a 500 to a body that is not JSON (its finding, as the run attributes it)', async () => {
    const { verdict } = await grade([entry({ method: 'POST', url: '/users', rawBody: '{"first_name": ', status: 500, responseText: 'oops', responseHeaders: { 'content-type': 'text/html' } })]);
    expect(verdict('JSON-MALFORMED-REJECTED')).toBe('failed');
    expect(verdict('ERR-NO-SERVER-ERROR')).toBe('unseen');
  });

  it('reads a break list: the shape, formats and durations of each break, and the block with its items', async () => {
    const good = await grade([entry({ url: '/breaks', status: 200, response: page([listedBreak(1), listedBreak(2)]) })]);
    for (const rule of ['BRK-LIST-RESPONSE', 'BRK-LIST-SHAPE', 'BRK-DATETIME-FORMAT', 'BRK-TIMESTAMP-FORMAT', 'BRK-DURATION', 'PAG-BLOCK-FIELDS', 'PAG-BLOCK-CONSISTENT', 'PAG-LINKS', 'PAG-PAGE-DEFAULT', 'PAG-PAGE-SIZE-DEFAULT', 'JSON-RESPONSE']) {
      expect(good.verdict(rule), rule).toBe('passed');
    }
    const bad = await grade([entry({ url: '/breaks', status: 200, response: page([listedBreak(1, { duration_in_seconds: 30, created_at: '2026-10-01T12:31:00Z' })], { total: 7 }) })]);
    expect(bad.verdict('BRK-DURATION')).toBe('failed');
    expect(bad.verdict('BRK-TIMESTAMP-FORMAT')).toBe('failed');
    expect(bad.verdict('PAG-BLOCK-CONSISTENT')).toBe('failed');
    // A listed break may be one stored with a fraction of a second its whole-second start and end do not show: within a second passes, two do not.
    const fraction = await grade([entry({ url: '/breaks', status: 200, response: page([listedBreak(1, { duration_in_seconds: 1801 })]) })]);
    expect(fraction.verdict('BRK-DURATION')).toBe('passed');
    const twoOff = await grade([entry({ url: '/breaks', status: 200, response: page([listedBreak(1, { duration_in_seconds: 1802 })]) })]);
    expect(twoOff.verdict('BRK-DURATION')).toBe('failed');
  });

  it('fails a page_size over 100 served in full, and a sort the page does not follow', async () => {
    const many = Array.from({ length: 101 }, (_, i) => listedBreak(i + 1));
    const { verdict } = await grade([
      entry({ url: '/breaks?page_size=101', status: 200, response: page(many, { per_page: 101, to: 101, total: 101 }) }),
      entry({ url: '/users?sort=firstName', status: 200, response: { ...page([]), items: [{ id: 1, first_name: 'Zed' }, { id: 2, first_name: 'Abe' }] } }),
    ]);
    expect(verdict('PAG-PAGE-SIZE-MAX')).toBe('failed');
    expect(verdict('SORT-ASCENDING')).toBe('failed');
  });

  it('fails AUTH-REQUIRED on a call without a token that was served, and says nothing of a call with a session cookie', async () => {
    const { verdict } = await grade([entry({ url: '/users', status: 200, headers: { authorization: '' }, response: page([]) })]);
    expect(verdict('AUTH-REQUIRED')).toBe('failed');
    const cookie = await grade([entry({ url: '/users', status: 200, headers: { authorization: '', cookie: 'session=abcdef123' }, response: page([]) })]);
    expect(cookie.verdict('AUTH-REQUIRED')).toBe('unseen');
  });

  it("fails AUTH-HEADER-RAW when the raw token was refused and the same token served as Bearer, redacted as clockcheck's HAR keeps it", async () => {
    const { verdict } = await grade([
      entry({ url: '/users', status: 401, headers: { authorization: '[REDACTED]' }, response: { message: 'Unauthenticated.' } }),
      entry({ url: '/users', at: 10, status: 200, headers: { authorization: 'Bearer [REDACTED]' }, response: page([]) }),
    ]);
    expect(verdict('AUTH-HEADER-RAW')).toBe('failed');
    const raw = await grade([entry({ url: '/users', status: 200, response: page([]) })]);
    expect(raw.verdict('AUTH-HEADER-RAW')).toBe('passed');
  });

  it('fails RATE-LIMIT-CAP when more than the limit were served inside one window, and passes it when the call beyond was refused', async () => {
    const calls = (lastStatus: number) => Array.from({ length: 61 }, (_, i) => entry({ url: '/users', at: i * 500, status: i === 60 ? lastStatus : 200, response: page([]) }));
    expect((await grade(calls(200))).verdict('RATE-LIMIT-CAP')).toBe('failed');
    expect((await grade(calls(429))).verdict('RATE-LIMIT-CAP')).toBe('passed');
    // Spread over more than a window: nothing shown.
    const spread = Array.from({ length: 61 }, (_, i) => entry({ url: '/users', at: i * 1100, status: 200, response: page([]) }));
    expect((await grade(spread)).verdict('RATE-LIMIT-CAP')).toBe('unseen');
  });

  it('fails HTTPS-ONLY on data over plain HTTP, passes a redirect to HTTPS, and reads nothing into a refusal there', async () => {
    const http = 'http://api.example.test/api/public/users';
    expect((await grade([entry({ url: http, status: 200, response: page([]) })])).verdict('HTTPS-ONLY')).toBe('failed');
    expect((await grade([entry({ url: http, status: 301, responseHeaders: { location: 'https://api.example.test/api/public/users' } })])).verdict('HTTPS-ONLY')).toBe('passed');
    expect((await grade([entry({ url: http, status: 401, response: { message: 'Unauthenticated.' } })])).verdict('HTTPS-ONLY')).toBe('unseen');
  });

  it('compares HEAD with the GET of the same URL', async () => {
    const { verdict } = await grade([
      entry({ url: '/users/zzz', status: 404, response: { message: 'not found' } }),
      entry({ method: 'HEAD', url: '/users/zzz', status: 200, responseText: '', content: { size: 0 } }),
    ]);
    expect(verdict('HEAD-PARITY')).toBe('failed');
  });
});

describe('secrets an answer never carries (SEC-TOKEN-NOT-RETURNED, SEC-PASSWORD-NOT-RETURNED)', () => {
  it('fails an answer that sends back the token a request was served with, at its place and without the token; a refused token sent back is no leak', async () => {
    const leak = await grade([
      entry({ url: '/users', status: 200, response: page([]) }),
      entry({ method: 'POST', url: '/users', body: { first_name: 'A' }, status: 422, response: { message: 'invalid', debug: { headers: { authorization: TOKEN } } } }),
    ]);
    expect(leak.verdict('SEC-TOKEN-NOT-RETURNED')).toBe('failed');
    const finding = JSON.stringify(leak.tallies.get('SEC-TOKEN-NOT-RETURNED'));
    expect(finding).toContain('body at /debug/headers/authorization of the 422 answer to POST /api/public/users');
    expect(finding).not.toContain(TOKEN);
    const refused = await grade([
      entry({ url: '/users', status: 200, response: page([]) }),
      entry({ url: '/users', headers: { authorization: 'never-issued-9f2c' }, status: 401, response: { message: 'bad token never-issued-9f2c' } }),
    ]);
    expect(refused.verdict('SEC-TOKEN-NOT-RETURNED')).toBe('passed');
  });

  it('fails a user create whose answer carries the password it sent, and a user list that carries a password', async () => {
    const user = { first_name: 'Ada', last_name: 'L', email: 'ada@example.test', password: 'Sekr3t!x' };
    expect((await grade([entry({ method: 'POST', url: '/users', body: user, status: 201, response: { id: 5, ...user } })])).verdict('SEC-PASSWORD-NOT-RETURNED')).toBe('failed');
    expect((await grade([entry({ url: '/users', status: 200, response: page([{ id: 5, first_name: 'Ada', password: '$2y$10$abc' }]) })])).verdict('SEC-PASSWORD-NOT-RETURNED')).toBe('failed');
    const { password: _, ...shown } = user;
    expect((await grade([entry({ method: 'POST', url: '/users', body: user, status: 201, response: { id: 5, ...shown } })])).verdict('SEC-PASSWORD-NOT-RETURNED')).toBe('passed');
  });
});

it('judges at least 30 rules from traffic alone', () => {
  expect(passiveCoverage().passive).toBeGreaterThanOrEqual(30);
});
