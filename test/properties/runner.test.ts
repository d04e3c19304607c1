import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PropertyFamily } from '../../src/properties/family.ts';
import { familySeed, runPropertyFamily } from '../../src/properties/runner.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';

/** Cases {n}: invalid (breaks USR-EMPLOYEE-CODE, say) when n > 50. */
const family: PropertyFamily = {
  name: 'toy',
  title: 'toy family',
  request: { method: 'POST', path: '/users' },
  rules: ['USR-EMPLOYEE-CODE'],
  needs: null,
  edges: [],
  cases: () => fc.integer({ min: 0, max: 10_000 }).map((n) => (n > 50 ? { payload: { n }, breaks: 'USR-EMPLOYEE-CODE' as const, label: `n=${n} over 50` } : { payload: { n }, label: `n=${n}` })),
};

/** A fake target: answers each request with `status(payload)`; records what it was sent. */
function target(status: (payload: { n: number }) => number) {
  const sent: Array<{ n: number }> = [];
  let id = 0;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const payload = request.json as { n: number };
    sent.push(payload);
    const code = status(payload);
    return {
      id: ++id,
      startedAt: new Date(0).toISOString(),
      sentAtMs: 0,
      durationMs: 1,
      request: { method: request.method, url: `https://t.test/api/public${request.path}`, headers: {}, body: JSON.stringify(payload) },
      response: { status: code, headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false, json: {} },
    };
  };
  return { send, sent };
}

const run = (send: (r: TargetRequest) => Promise<Exchange>, extra: { path?: string; seed?: number } = {}) =>
  runPropertyFamily({
    family,
    context: { companyTimezone: 'America/Chicago', activeUserIds: [1], uniqueTag: 't' },
    numRuns: 40,
    shrinkBudget: 15,
    seed: extra.seed ?? 1234,
    ...(extra.path ? { path: extra.path } : {}),
    send,
    profile: defaultProfile(),
    replay: (seed, path) => `clockcheck run --only properties/toy --seed ${seed} --path ${path}`,
  });

describe('runPropertyFamily', () => {
  it('passes a target that accepts valid cases and rejects invalid ones, sending each case once', async () => {
    const t = target((p) => (p.n > 50 ? 422 : 201));
    const result = await run(t.send);
    expect(result.status).toBe('passed');
    // fast-check may generate a case twice; the runner answers the repeat from its cache
    expect(t.sent.length).toBeLessThanOrEqual(40);
    expect(t.sent.length).toBeGreaterThan(30);
    expect(new Set(t.sent.map((p) => p.n)).size).toBe(t.sent.length);
    expect(result.source).toMatchObject({ kind: 'property', generator: 'toy', seed: 1234 });
  });

  it('fails a target that accepts invalid cases, on the broken rule, with the shrunk counterexample', async () => {
    const t = target(() => 201);
    const result = await run(t.send);
    expect(result.status).toBe('failed');
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ ruleId: 'USR-EMPLOYEE-CODE', actual: 'status 201' });
    expect(result.findings[0]!.expected).toMatch(/^a 4xx rejection .* for the invalid case "n=\d+ over 50"$/);
    expect(result.reason).toMatch(/smallest counterexample after \d+ shrinks/);
  });

  it('spends at most the shrink budget of extra requests', async () => {
    const t = target(() => 201);
    await run(t.send);
    expect(t.sent.length).toBeLessThanOrEqual(40 + 15);
  });

  it('fails a target that refuses valid cases on the family rule', async () => {
    const t = target(() => 422);
    const result = await run(t.send);
    expect(result.status).toBe('failed');
    expect(result.findings[0]).toMatchObject({ ruleId: 'USR-EMPLOYEE-CODE', actual: 'status 422' });
    expect(result.findings[0]!.expected).toMatch(/a 2xx success for the valid case/);
  });

  it('replays exactly the reported counterexample from its seed and path, with one request', async () => {
    const first = await run(target(() => 201).send);
    const path = first.source.kind === 'property' ? first.source.path : '';
    expect(first.replay).toBe(`clockcheck run --only properties/toy --seed 1234 --path ${path}`);
    const again = target(() => 201);
    const replayed = await run(again.send, { path });
    expect(replayed.status).toBe('failed');
    expect(again.sent[0]).toEqual(JSON.parse(/: (\{.*\})$/.exec(first.reason!)![1]!));
  });

  it('is errored, never passed or failed under its rules, when every case and the control case answer 500', async () => {
    const t = target(() => 500);
    const result = await run(t.send);
    expect(result.status).toBe('errored');
    expect(result.findings).toEqual([]);
    expect(result.reason).toMatch(/^no generated case was accepted \(500 ×\d+\) and a valid control case got status 500: the family's rules could not be tested \(\d+ generated cases sent/);
    expect(t.sent.at(-1)!.n).toBeLessThanOrEqual(50); // the control case is a valid one
  });

  it('is errored when no case gets an answer at all (transport errors)', async () => {
    let id = 0;
    const send = async (request: TargetRequest): Promise<Exchange> => ({
      id: ++id,
      startedAt: new Date(0).toISOString(),
      sentAtMs: 0,
      durationMs: 1,
      request: { method: request.method, url: `https://t.test/api/public${request.path}`, headers: {} },
      error: { code: 'CONNECTION_RESET', message: 'socket hang up' },
    });
    const result = await run(send);
    expect(result).toMatchObject({ status: 'errored', findings: [] });
    expect(result.reason).toContain('a valid control case got no response (CONNECTION_RESET)');
  });

  /** Almost only invalid cases: a run of 5 generates no valid one, so the control case is the baseline. */
  const mostlyInvalid: PropertyFamily = {
    ...family,
    cases: () =>
      fc.oneof(
        { arbitrary: fc.integer({ min: 51, max: 10_000 }).map((n) => ({ payload: { n }, breaks: 'USR-EMPLOYEE-CODE' as const, label: `n=${n} over 50` })), weight: 1000 },
        { arbitrary: fc.integer({ min: 0, max: 50 }).map((n) => ({ payload: { n }, label: `n=${n}` })), weight: 1 },
      ),
  };
  const runFew = (send: (r: TargetRequest) => Promise<Exchange>) =>
    runPropertyFamily({ family: mostlyInvalid, context: { companyTimezone: 'America/Chicago', activeUserIds: [1], uniqueTag: 't' }, numRuns: 5, shrinkBudget: 15, seed: 99, send, profile: defaultProfile(), replay: () => 'replay' });

  it('sends a valid control case when no case was accepted, and passes only when the control is accepted', async () => {
    const t = target((p) => (p.n > 50 ? 422 : 201));
    const result = await runFew(t.send);
    expect(result.status).toBe('passed');
    expect(t.sent.filter((p) => p.n <= 50)).toHaveLength(1);
    expect(t.sent.at(-1)!.n).toBeLessThanOrEqual(50);
  });

  it('fails on the family rule when every case is rejected and so is the valid control case (a refusal is a finding)', async () => {
    const result = await runFew(target(() => 422).send);
    expect(result.status).toBe('failed');
    expect(result.findings).toEqual([expect.objectContaining({ ruleId: 'USR-EMPLOYEE-CODE', actual: 'status 422' })]);
    expect(result.findings[0]!.expected).toMatch(/for the valid case .* \(a control case, sent because no generated case was accepted\)$/);
  });

  it('narrows a refused control case to the value it was refused for, against plain valid values (a family of one case names the right rule)', async () => {
    const user = { first_name: 'Clock', last_name: 'Check', password: 'Kf!x4*', role_id: 2 };
    const users: PropertyFamily = {
      ...family,
      rules: ['USR-ROLE-ID-VALUES', 'USR-PASSWORD-LENGTH'],
      cases: () =>
        fc.oneof(
          { arbitrary: fc.integer({ min: 4, max: 9 }).map((n) => ({ payload: { ...user, email: `u${n}@example.com`, role_id: n }, breaks: 'USR-ROLE-ID-VALUES' as const, label: `role_id ${n}` })), weight: 1000 },
          { arbitrary: fc.constant({ payload: { ...user, email: 'v@example.com' }, label: 'valid create with role_id' }), weight: 1 },
        ),
    };
    // A password of exactly 6 characters (the minimum) refused; everything else judged right.
    let exchangeId = 0;
    const send = async (request: TargetRequest): Promise<Exchange> => {
      const body = request.json as { password: string; role_id: number };
      const code = [...body.password].length < 7 || body.role_id > 3 ? 422 : 201;
      return { id: ++exchangeId, startedAt: new Date(0).toISOString(), sentAtMs: 0, durationMs: 1, request: { method: 'POST', url: 'https://t.test/api/public/users', headers: {}, body: JSON.stringify(body) }, response: { status: code, headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false, json: {} } };
    };
    const result = await runPropertyFamily({ family: users, context: { companyTimezone: 'America/Chicago', activeUserIds: [1], uniqueTag: 't' }, numRuns: 1, shrinkBudget: 15, seed: 99, send, profile: defaultProfile(), replay: () => 'replay' });
    expect(result.status).toBe('failed');
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ ruleId: 'USR-PASSWORD-LENGTH' });
    expect(result.findings[0]!.expected).toMatch(/\(a control case, sent because no generated case was accepted\): its password "Kf!x4\*" is valid \(USR-PASSWORD-LENGTH\)$/);
    expect(result.findings[0]!.actual).toMatch(/^status 422; the same case with password "Valid-pass1" instead was accepted/);
    // The control and the variant that narrowed it are both shown.
    expect(result.findings[0]!.exchangeIds).toHaveLength(2);
  });

  it('keeps a 500 to an invalid case as a finding when the control case is accepted (the target works, the case crashes it)', async () => {
    const result = await runFew(target((p) => (p.n > 50 ? 500 : 201)).send);
    expect(result.status).toBe('failed');
    expect(result.findings).toEqual([expect.objectContaining({ ruleId: 'USR-EMPLOYEE-CODE', actual: 'status 500' })]);
  });

  it('derives a stable, distinct seed per family from the run seed', () => {
    expect(familySeed(5, 'user-password')).toBe(familySeed(5, 'user-password'));
    expect(familySeed(5, 'user-password')).not.toBe(familySeed(5, 'timesheet-offsets'));
    expect(familySeed(5, 'x')).toBeGreaterThanOrEqual(0);
  });
});
