import { describe, expect, it } from 'vitest';
import { RunError } from '../../src/needs/run-error.ts';
import { preflight } from '../../src/needs/preflight.ts';
import type { TargetRequest, TokenScheme } from '../../src/client/client.ts';
import { exchangeFor, ORIGIN, profileWith, type Reply } from '../scenarios/support.ts';

/** A client whose answers depend on the Authorization form of the request. */
function fakeClient(answer: (auth: TargetRequest['auth']) => Reply) {
  const sent: TargetRequest[] = [];
  let scheme: TokenScheme = 'raw';
  return {
    sent,
    scheme: () => scheme,
    client: {
      send: async (request: TargetRequest) => {
        sent.push(request);
        return exchangeFor(request, answer(request.auth));
      },
      useScheme: (s: TokenScheme) => {
        scheme = s;
      },
    },
  };
}
const profile = profileWith();
const run = (answer: (auth: TargetRequest['auth']) => Reply) => {
  const fake = fakeClient(answer);
  return { fake, result: preflight(fake.client, ORIGIN, profile, 'clockcheck run --only auth') };
};

describe('preflight: is the token accepted, and in which form?', () => {
  it('goes on with the raw token (§5.2) when it is served, in one request, and passes auth/token-form', async () => {
    const { fake, result } = run(() => ({ status: 200, json: { items: [] } }));
    const pre = await result;
    expect(fake.sent).toEqual([{ method: 'GET', path: '/users', query: {}, auth: 'raw-token' }]);
    expect(pre).toMatchObject({ scheme: 'raw', note: null, check: { id: 'auth/token-form', status: 'passed', rules: ['AUTH-HEADER-RAW'] } });
    expect(fake.scheme()).toBe('raw');
  });

  it('switches the run to Bearer when only Bearer is served, and fails AUTH-HEADER-RAW with both exchanges as evidence', async () => {
    const { fake, result } = run((auth) => (auth === 'bearer-token' ? { status: 200, json: { items: [] } } : { status: 401, json: { message: 'Unauthenticated.' } }));
    const pre = await result;
    expect(fake.sent.map((r) => r.auth)).toEqual(['raw-token', 'bearer-token']);
    expect(fake.scheme()).toBe('bearer');
    expect(pre.scheme).toBe('bearer');
    expect(pre.check.status).toBe('failed');
    expect(pre.check.findings).toEqual([
      {
        ruleId: 'AUTH-HEADER-RAW',
        expected: 'GET /users served with Authorization: <token>, the raw token (§5.2)',
        actual: '401 with the raw token; 200 with Authorization: Bearer <token>',
        exchangeIds: pre.check.exchanges.map((e) => e.id),
      },
    ]);
    expect(pre.note).toMatch(/refused the token as §5.2 sends it .*401.* served Authorization: Bearer <token> \(200\): AUTH-HEADER-RAW fails, and every other check ran with Bearer/);
  });

  it('ends the run (exit 2) with one line when no form is accepted: the statuses, a body excerpt and what to check', async () => {
    const { result } = run(() => ({ status: 401, json: { message: 'Unauthenticated.' } }));
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    const message = (error as RunError).message;
    expect(message).not.toContain('\n');
    expect(message).toBe(
      `the token was refused: GET ${ORIGIN}/api/public/users answered 401 {"message":"Unauthenticated."} to Authorization: <token> (§5.2) and 401 to Authorization: Bearer <token>. ` +
        'Check that CLOCKCHECK_TOKEN holds a current token of this target (a token is valid until it is revoked, §5.4) and that --target is that server.',
    );
  });

  it('takes 403 and the profile unauthenticated status for refusals too', async () => {
    await expect(run(() => ({ status: 403 })).result).rejects.toThrow(/answered 403/);
    const custom = fakeClient(() => ({ status: 419 }));
    await expect(preflight(custom.client, ORIGIN, profileWith({ status_codes: { unauthenticated: 419 } }), 'r')).rejects.toThrow(/answered 419/);
  });

  it('leaves a server error to the checks: the run goes on raw and auth/token-form is errored, not passed', async () => {
    const { fake, result } = run(() => ({ status: 500, body: 'Server Error' }));
    const pre = await result;
    expect(fake.sent).toHaveLength(1);
    expect(pre.scheme).toBe('raw');
    expect(pre.check).toMatchObject({ status: 'errored', reason: 'GET /users answered 500 Server Error: neither served nor refused, so the token form cannot be judged' });
  });

  it('ends the run with one line when the target cannot be reached', async () => {
    await expect(run(() => ({ error: 'CONNECTION_REFUSED' })).result).rejects.toThrow(`nothing listens at ${ORIGIN} (connection refused)`);
    await expect(run(() => ({ error: 'TLS_ERROR', message: 'self-signed certificate' })).result).rejects.toThrow(/Trust its CA with --ca FILE/);
  });
});
