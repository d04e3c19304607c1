import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { Redactor } from '../../src/client/redaction.ts';
import { passwordVerdicts, tokenVerdicts } from '../../src/records/secrets-returned.ts';
import { PASSWORDS_NOT_RETURNED_CHECK_ID, SecretsWatch, TOKENS_NOT_RETURNED_CHECK_ID } from '../../src/records/secrets-watch.ts';
import { defaultProfile } from '../../src/profile/profile.ts';

const TOKEN = 'tok-0f3c9a7e51b2d4';
const URL_BASE = 'https://target.test/api/public';

/** An exchange as the client keeps it: the raw one, redacted by a Redactor of TOKEN (which marks `tokensShown`). */
function exchange(spec: { method?: string; path: string; requestBody?: unknown; status?: number; headers?: Record<string, string>; body?: unknown; bodyText?: string; id?: number }, redactor = new Redactor(TOKEN)): Exchange {
  const text = spec.bodyText ?? JSON.stringify(spec.body ?? {});
  const raw: Exchange = {
    id: spec.id ?? 1,
    startedAt: '2026-11-29T08:00:00.000Z',
    sentAtMs: 0,
    durationMs: 5,
    request: { method: (spec.method ?? 'GET') as Exchange['request']['method'], url: `${URL_BASE}${spec.path}`, headers: { authorization: TOKEN }, ...(spec.requestBody === undefined ? {} : { body: JSON.stringify(spec.requestBody) }) },
    response: { status: spec.status ?? 200, headers: { 'content-type': 'application/json', ...spec.headers }, body: text, bodyBytes: Buffer.byteLength(text), bodyTruncated: false },
  };
  const redacted = redactor.exchange(raw);
  let json: unknown;
  try {
    json = JSON.parse(redacted.response!.body);
  } catch {
    json = undefined;
  }
  return { ...redacted, response: { ...redacted.response!, ...(json === undefined ? {} : { json }) } };
}

describe('Redactor.tokenSightings: where an answer carried the token, before redaction', () => {
  it('names the header, the JSON pointer of the first string that holds it, or the body', () => {
    const debug = exchange({ method: 'POST', path: '/users', status: 422, body: { message: 'invalid', debug: { headers: { authorization: TOKEN } } }, headers: { 'x-echo': `seen ${TOKEN}` } });
    expect(debug.tokensShown).toEqual([
      { token: 'the token', where: 'header x-echo' },
      { token: 'the token', where: 'body /debug/headers/authorization' },
    ]);
    expect(JSON.stringify(debug)).not.toContain(TOKEN);
    expect(exchange({ path: '/users', bodyText: `<pre>Authorization: ${TOKEN}</pre>` }).tokensShown).toEqual([{ token: 'the token', where: 'body' }]);
  });

  it('finds the token in the encodings the Redactor knows (base64 inside a string) and in a header name, never showing it', () => {
    const encoded = Buffer.from(`Authorization: ${TOKEN}`).toString('base64');
    expect(exchange({ path: '/users', body: { trace: encoded } }).tokensShown).toEqual([{ token: 'the token', where: 'body /trace' }]);
    const named = exchange({ path: '/users', headers: { [`x-${TOKEN}`]: '1' } });
    expect(named.tokensShown).toEqual([{ token: 'the token', where: 'header x-[REDACTED]' }]);
  });

  it('marks nothing when only another secret (the webhook secret) or nothing showed', () => {
    const redactor = new Redactor(TOKEN, ['whsec-abcdef123456']);
    expect(exchange({ method: 'POST', path: '/webhooks/subscription', body: { secret: 'whsec-abcdef123456' } }, redactor).tokensShown).toBeUndefined();
    expect(exchange({ path: '/users', body: { items: [] } }).tokensShown).toBeUndefined();
  });

  it('looks at the target\'s request of an inbound exchange (a webhook notification)', () => {
    const redactor = new Redactor(TOKEN);
    const inbound: Exchange = { id: 9, direction: 'inbound', startedAt: '', sentAtMs: 0, durationMs: 0, request: { method: 'POST', url: 'https://sink.test/hook', headers: { 'x-forwarded-authorization': TOKEN }, body: '{}' }, response: { status: 200, headers: {}, body: TOKEN, bodyBytes: 1, bodyTruncated: false } };
    expect(redactor.tokenSightings(inbound)).toEqual([{ token: 'the token', where: 'header x-forwarded-authorization' }]);
  });
});

describe('SEC-TOKEN-NOT-RETURNED, one exchange at a time', () => {
  it('fails once per place, naming the route with its IDs generalized, and passes a clean answer', () => {
    const leak = tokenVerdicts(exchange({ method: 'PUT', path: '/users/42', status: 422, body: { debug: { authorization: TOKEN } } }));
    expect(leak).toMatchObject([{ ruleId: 'SEC-TOKEN-NOT-RETURNED', ok: false, actual: 'the token in the body at /debug/authorization of the 422 answer to PUT /api/public/users/{id} (shown redacted)' }]);
    expect(tokenVerdicts(exchange({ path: '/users' }))).toMatchObject([{ ok: true }]);
  });
});

describe('SEC-PASSWORD-NOT-RETURNED, one exchange at a time', () => {
  const write = { first_name: 'Ada', last_name: 'L', email: 'ada@x.test', password: 'Qz9!pass' };

  it('fails an accepted write whose answer carries the password it sent, as written or encoded, and passes one that does not', () => {
    const echoed = passwordVerdicts(exchange({ method: 'POST', path: '/users', requestBody: write, status: 201, body: { items: { id: 7, ...write } } }), defaultProfile());
    expect(echoed).toMatchObject([{ ok: false, actual: 'the password the write sent in the body at /items/password of the 201 answer to POST /api/public/users (shown redacted)' }]);
    expect(JSON.stringify(echoed)).not.toContain('Qz9!pass');
    const base64 = Buffer.from('Qz9!pass').toString('base64');
    expect(passwordVerdicts(exchange({ method: 'PUT', path: '/users/7', requestBody: { password: 'Qz9!pass' }, body: { id: 7, token: base64 } }), defaultProfile())).toMatchObject([{ ok: false }]);
    const { password: _, ...shown } = write;
    expect(passwordVerdicts(exchange({ method: 'POST', path: '/users', requestBody: write, status: 201, body: { items: { id: 7, ...shown } } }), defaultProfile()).map((v) => v.ok)).toEqual([true]);
  });

  it('does not judge a refused write (a password the target did not accept is no secret of its own)', () => {
    expect(passwordVerdicts(exchange({ method: 'POST', path: '/users', requestBody: write, status: 422, body: { errors: { password: [`${write.password} is weak`] } } }), defaultProfile())).toEqual([]);
  });

  it('fails every user record that carries a non-null password (a hash too), in a list or a write answer; a null one passes', () => {
    const list = passwordVerdicts(exchange({ path: '/users', body: { items: [{ id: 1, password: 'scrypt$ab$cd' }, { id: 2, password: null }, { id: 3 }] } }), defaultProfile());
    expect(list).toMatchObject([{ ok: false, actual: 'the user record 1 in the 200 answer to GET /api/public/users carries `password` (a string of 12 characters, not shown)' }]);
    expect(passwordVerdicts(exchange({ path: '/users', body: { items: [{ id: 2, password: null }] } }), defaultProfile())).toMatchObject([{ ok: true }]);
    expect(passwordVerdicts(exchange({ path: '/breaks', body: { items: [{ id: 2, password: 'x' }] } }), defaultProfile())).toEqual([]);
  });
});

describe('the run-wide watch of secrets', () => {
  it('reports one finding per route and place with its count, and skips a rule nothing showed', () => {
    const watch = new SecretsWatch(defaultProfile());
    for (let id = 1; id <= 4; id++) watch.observe(exchange({ id, method: 'POST', path: '/users', status: 422, body: { debug: { authorization: TOKEN } } }));
    watch.observe(exchange({ id: 5, path: '/breaks' }));
    const tokens = watch.check(TOKENS_NOT_RETURNED_CHECK_ID, 'replay');
    expect(tokens).toMatchObject({ status: 'failed', rules: ['SEC-TOKEN-NOT-RETURNED'], reason: '5 verdicts on the run\'s answers: 4 showed a secret' });
    expect(tokens.findings).toHaveLength(1);
    expect(tokens.findings[0]).toMatchObject({ actual: expect.stringContaining('; 4 times'), exchangeIds: [1, 2, 3] });
    expect(watch.check(PASSWORDS_NOT_RETURNED_CHECK_ID, 'replay')).toMatchObject({ status: 'skipped', reason: 'no accepted user write sent a password and no answer carried a user record' });
  });
});
