import { describe, expect, it } from 'vitest';
import { builtinCheck } from '../../src/checks/context.ts';
import { BUILTIN_CHECKS } from '../../src/checks/registry.ts';
import { plannedRequests, runScenario } from '../../src/scenarios/run-scenario.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { SharedBaselines, baselineKey } from '../../src/scenarios/shared-baselines.ts';
import { SharedSetups, setupKey } from '../../src/scenarios/shared-setups.ts';
import { RunStopped } from '../../src/errors.ts';
import { fakeSend, loadScenario, ORIGIN, profileWith, scenarioDeps, SUITE_HEAD, suiteFailure, suiteLines, urlOf, type Reply } from './support.ts';

const user = { first_name: 'Ada', last_name: 'Lovelace', email: '{{ unique.email }}', password: 'Valid-pass1' };

/** A target that accepts a valid user and rejects a password without an uppercase letter or a special character. */
function userTarget(request: TargetRequest): Reply {
  const body = (request.json ?? {}) as Record<string, unknown>;
  const password = String(body.password ?? '');
  if (request.method !== 'POST') return { status: 200, json: { items: [] } };
  if (!/[A-Z]/.test(password) || !/[^A-Za-z0-9]/.test(password) || body.first_name === undefined) return { status: 422, json: { message: 'invalid' } };
  return { status: 201, json: { id: 42, ...body } };
}

const passwordPair = {
  id: 'password-classes',
  title: 'a password missing one character class is rejected',
  rules: ['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH'],
  mutates: true,
  pair: {
    request: { method: 'POST', path: '/users', json: user },
    variants: [
      { why: 'no uppercase letter', set: { password: 'valid-pass1' } },
      { why: 'no special character', set: { password: 'ValidPass1' }, rule: 'USR-PASSWORD-LENGTH' },
    ],
  },
};

describe('runScenario: a pair baseline accepted earlier in the run is shared', () => {
  const lengthPair = {
    ...passwordPair,
    id: 'password-length',
    rules: ['USR-PASSWORD-LENGTH'],
    pair: { ...passwordPair.pair, variants: [{ why: 'five characters', set: { password: 'va-1a' } }] },
  };

  it('judges the second pair on the first one\'s accepted baseline, sends every variant, and cites the exchange', async () => {
    const { send, requests } = fakeSend(userTarget);
    const deps = { ...scenarioDeps(send).deps, baselines: new SharedBaselines() };
    const first = await runScenario(loadScenario(passwordPair), deps);
    const second = await runScenario(loadScenario(lengthPair), deps);
    expect(requests).toHaveLength(3 + 1);
    expect(second.status).toBe('passed');
    expect(second.exchanges.map((e) => e.id)).toEqual([first.exchanges[0]!.id, expect.any(Number)]);
    expect(second.notes?.join('\n')).toMatch(/the valid baseline POST \/api\/public\/users was accepted earlier in this run \(exchange \d+, demo\/password-classes\): judged on that answer, not sent again/);
  });

  it('shares only an accepted baseline: after a refusal the next pair sends its own', async () => {
    let calls = 0;
    const { send, requests } = fakeSend((request) => (++calls === 1 ? { status: 422, json: { message: 'no' } } : userTarget(request)));
    const deps = { ...scenarioDeps(send).deps, baselines: new SharedBaselines() };
    expect((await runScenario(loadScenario(passwordPair), deps)).status).toBe('failed');
    expect((await runScenario(loadScenario(lengthPair), deps)).status).toBe('passed');
    expect(requests).toHaveLength(1 + 2);
  });

  it("never shares a baseline that reads the scenario's own vars, nor one with another expectation", () => {
    const pairOf = (scenario: typeof passwordPair) => loadScenario(scenario).scenario.pair!;
    expect(baselineKey(pairOf(passwordPair))).toBe(baselineKey(pairOf(lengthPair)));
    expect(baselineKey(pairOf({ ...passwordPair, pair: { ...passwordPair.pair, request: { ...passwordPair.pair.request, json: { ...user, email: '{{ vars.email }}' } } } }))).toBeNull();
    expect(baselineKey(pairOf({ ...passwordPair, pair: { ...passwordPair.pair, accept: { status: 201 } } as typeof passwordPair.pair }))).not.toBe(baselineKey(pairOf(passwordPair)));
  });
});

describe('runScenario: a read-only setup made earlier in the run is shared', () => {
  // A setup that creates a user and captures its ID; the steps only read it.
  const setup = [{ name: 'create the user', request: { method: 'POST', path: '/users', json: user }, expect: { status: 'success' }, capture: { id: { from: 'created_id' } } }];
  const reader = (id: string, extra: Record<string, unknown>[] = []) => ({
    id,
    title: 'reads the user',
    rules: ['USR-CREATE-REQUIRED'],
    mutates: true,
    setup,
    steps: [{ request: { method: 'GET', path: '/users/{{ vars.id }}' }, expect: { status: 'success' } }, ...extra],
  });

  it('runs the setup once: the second scenario gets its captures, cites its exchanges and notes it', async () => {
    const { send, requests } = fakeSend(userTarget);
    const deps = { ...scenarioDeps(send).deps, setups: new SharedSetups() };
    const first = await runScenario(loadScenario(reader('first')), deps);
    const second = await runScenario(loadScenario(reader('second')), deps);
    expect([first.status, second.status]).toEqual(['passed', 'passed']);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /users', 'GET /users/42', 'GET /users/42']);
    expect(second.exchanges[0]!.id).toBe(first.exchanges[0]!.id);
    expect(second.notes?.join('\n')).toMatch(/^its setup \(1 request\) was made once in this run, by demo\/first, and only read here/m);
  });

  it('passes a setup failure on: the second scenario is errored with the same reason, and sends nothing', async () => {
    const { send, requests } = fakeSend(() => ({ status: 422, json: { message: 'no' } }));
    const deps = { ...scenarioDeps(send).deps, setups: new SharedSetups() };
    const first = await runScenario(loadScenario(reader('first')), deps);
    const second = await runScenario(loadScenario(reader('second')), deps);
    expect(first).toMatchObject({ status: 'errored', reason: expect.stringMatching(/^setup step create the user failed/) });
    expect(second).toMatchObject({ status: 'errored', reason: first.reason });
    expect(requests).toHaveLength(1);
  });

  it('is not shared with a scenario that writes, nor by one whose setup reads its own let', async () => {
    const { send, requests } = fakeSend(userTarget);
    const deps = { ...scenarioDeps(send).deps, setups: new SharedSetups() };
    await runScenario(loadScenario(reader('first')), deps);
    const writer = reader('writer', [{ request: { method: 'PUT', path: '/users/{{ vars.id }}', json: user }, expect: { status: 'success' } }]);
    await runScenario(loadScenario(writer), deps);
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(setupKey(loadScenario({ ...reader('own'), let: { tag: '{{ unique.name }}' } }), BUILTIN_CHECKS)).toBeNull();
    expect(setupKey(loadScenario(reader('a')), BUILTIN_CHECKS)).toBe(setupKey(loadScenario(reader('b')), BUILTIN_CHECKS));
  });
});

describe('runScenario: a `once` setup step is sent once per run', () => {
  // A throwaway user whose ID names the scenario's own records; each scenario then creates and reads its own user.
  const anchor = { name: 'mint a number', request: { method: 'POST', path: '/users', json: user }, expect: { status: 'success' }, capture: { n: { from: 'created_id' } }, once: true };
  const owner = (id: string, name = 'mint a number') => ({
    id,
    title: 'creates a user named by the number',
    rules: ['USR-CREATE-REQUIRED'],
    mutates: true,
    setup: [{ ...anchor, name }],
    steps: [{ request: { method: 'POST', path: '/users', json: { ...user, last_name: `${id}{{ vars.n }}` } }, expect: { status: 'success' } }],
  });

  it('lends the first one\'s captures to every scenario with the same step (names aside), cites its exchange and notes it', async () => {
    const { send, requests } = fakeSend(userTarget);
    const deps = { ...scenarioDeps(send).deps, setups: new SharedSetups() };
    const first = await runScenario(loadScenario(owner('first')), deps);
    const second = await runScenario(loadScenario(owner('second', 'another name for it')), deps);
    expect([first.status, second.status]).toEqual(['passed', 'passed']);
    expect(requests.map((r) => (r.json as { last_name: string }).last_name)).toEqual(['Lovelace', 'first42', 'second42']);
    expect(second.exchanges[0]!.id).toBe(first.exchanges[0]!.id);
    expect(second.notes?.join('\n')).toMatch(/^its setup step "another name for it" was made once in this run, by demo\/first: the same captures \(exchange \d+\)$/m);
  });

  it('passes its failure on, and is sent again by a scenario run alone (no shared steps: --only)', async () => {
    const refused = fakeSend(() => ({ status: 422, json: { message: 'no' } }));
    const deps = { ...scenarioDeps(refused.send).deps, setups: new SharedSetups() };
    const first = await runScenario(loadScenario(owner('first')), deps);
    const second = await runScenario(loadScenario(owner('second')), deps);
    expect(first).toMatchObject({ status: 'errored', reason: expect.stringMatching(/^setup step mint a number failed/) });
    expect(second).toMatchObject({ status: 'errored', reason: first.reason });
    expect(refused.requests).toHaveLength(1);
    const alone = fakeSend(userTarget);
    await runScenario(loadScenario(owner('first')), scenarioDeps(alone.send).deps);
    await runScenario(loadScenario(owner('second')), scenarioDeps(alone.send).deps);
    expect(alone.requests).toHaveLength(4);
  });

  it('is refused where it cannot be shared: in steps, without a capture, or reading the scenario\'s vars', () => {
    const base = owner('x');
    const message = (scenario: Record<string, unknown>) => {
      try {
        loadScenario(scenario);
      } catch (error) {
        return (error as Error).message;
      }
      return 'loaded';
    };
    expect(message({ ...base, steps: [{ ...anchor }] })).toMatch(/`once` is for setup steps/);
    expect(message({ ...base, setup: [{ ...anchor, capture: undefined }] })).toMatch(/it needs `capture`/);
    expect(message({ ...base, let: { tag: 'x' }, setup: [{ ...anchor, request: { ...anchor.request, json: { ...user, last_name: '{{ vars.tag }}' } } }] })).toMatch(/cannot read the scenario's `vars`/);
  });
});

describe('runScenario: a step with a precondition', () => {
  const search = (reply: (request: TargetRequest) => Reply) => {
    const scenario = {
      id: 'defaults',
      title: 'the created user shows the defaults',
      rules: ['USR-ROLE-ID-DEFAULT'],
      mutates: true,
      setup: [{ request: { method: 'POST', path: '/users', json: user }, expect: { status: 'success' }, capture: { id: { from: 'created_id' } } }],
      steps: [
        {
          name: 'search for the user',
          request: { method: 'GET', path: '/users', query: { search: 'ada' } },
          precondition: { status: 'success', json: [{ path: '$.items[0].id', equals: '{{ vars.id }}', rule: 'SEARCH-MATCHES' }] },
          expect: { status: 'success', json: [{ path: '$.items[0].role_id', equals: 3 }] },
        },
      ],
    };
    const { send, requests } = fakeSend(reply);
    return { result: runScenario(loadScenario(scenario), scenarioDeps(send).deps), requests };
  };
  const listing = (first: Record<string, unknown>) => (request: TargetRequest): Reply => (request.method === 'POST' ? { status: 201, json: { id: 42 } } : { status: 200, json: { items: [first] } });

  it('judges the expectation on the same answer once the precondition holds: one request for both', async () => {
    const held = search(listing({ id: 42, role_id: 1 }));
    expect(await held.result).toMatchObject({ status: 'failed', findings: [expect.objectContaining({ ruleId: 'USR-ROLE-ID-DEFAULT' })] });
    expect(held.requests).toHaveLength(2);
    expect((await search(listing({ id: 42, role_id: 3 })).result).status).toBe('passed');
  });

  it('errors the scenario, judging nothing, when the precondition does not hold', async () => {
    const other = await search(listing({ id: 7, role_id: 1 })).result;
    expect(other).toMatchObject({ status: 'errored', findings: [], reason: expect.stringMatching(/^precondition of search for the user not met: expected/) });
  });
});

describe('runScenario: minimal pairs', () => {
  it('passes when the baseline is accepted and every variant rejected', async () => {
    const { send, requests } = fakeSend(userTarget);
    const result = await runScenario(loadScenario(passwordPair), scenarioDeps(send).deps);
    expect(result).toMatchObject({ id: 'demo/password-classes', title: passwordPair.title, status: 'passed', findings: [], source: { kind: 'scenario', file: 'suites/demo.yaml', line: 4 } });
    expect(result.replay).toBe('clockcheck run --only demo/password-classes');
    expect(requests).toHaveLength(3);
    expect(result.exchanges.map((e) => e.response?.status)).toEqual([201, 422, 422]);
  });

  it('renders the templates afresh for every send, so the baseline and each variant differ', async () => {
    const { send, requests } = fakeSend(userTarget);
    await runScenario(loadScenario(passwordPair), scenarioDeps(send).deps);
    const emails = requests.map((r) => (r.json as { email: string }).email);
    expect(new Set(emails).size).toBe(3);
    expect(requests.map((r) => (r.json as { password: string }).password)).toEqual(['Valid-pass1', 'valid-pass1', 'ValidPass1']);
    expect(requests.every((r) => r.method === 'POST' && r.path === '/users' && r.auth === 'token')).toBe(true);
  });

  it('fails on every rule of the scenario and judges no variant when the baseline is refused', async () => {
    const { send, requests } = fakeSend(() => ({ status: 422, json: { message: 'no' } }));
    const result = await runScenario(loadScenario(passwordPair), scenarioDeps(send).deps);
    expect(requests).toHaveLength(1);
    expect(result.status).toBe('failed');
    expect(result.findings).toEqual([
      { ruleId: 'USR-PASSWORD-CLASSES', expected: 'the valid baseline accepted: status a 2xx success', actual: 'status 422', exchangeIds: [result.exchanges[0]!.id] },
      { ruleId: 'USR-PASSWORD-LENGTH', expected: 'the valid baseline accepted: status a 2xx success', actual: 'status 422', exchangeIds: [result.exchanges[0]!.id] },
    ]);
  });

  it('is errored without findings, and judges no variant, when the baseline gets a 5xx, a 429 or no answer', async () => {
    const replies: Array<[Reply, RegExp]> = [
      [{ status: 500, json: { message: 'boom' } }, /^the valid baseline POST \/api\/public\/users answered 500: the rules could not be tested/],
      [{ status: 503 }, /answered 503: the rules could not be tested/],
      [{ status: 429 }, /answered 429: the rules could not be tested/],
      [{ error: 'CONNECTION_RESET' }, /got no response \(CONNECTION_RESET\): the rules could not be tested/],
    ];
    for (const [reply, reason] of replies) {
      const { send, requests } = fakeSend(() => reply);
      const result = await runScenario(loadScenario(passwordPair), scenarioDeps(send).deps);
      expect(requests).toHaveLength(1);
      expect(result.status).toBe('errored');
      expect(result.findings).toEqual([]);
      expect(result.reason).toMatch(reason);
    }
  });

  it('judges the baseline with the accept expectation when one is given', async () => {
    const { send } = fakeSend(userTarget);
    const pair = { ...passwordPair, pair: { ...passwordPair.pair, accept: { status: 200 } } };
    const result = await runScenario(loadScenario(pair), scenarioDeps(send).deps);
    expect(result.findings.map((f) => f.expected)).toEqual(['the valid baseline accepted: status 200', 'the valid baseline accepted: status 200']);
  });

  it('fails an accepted variant with the variant rule and its why in expected', async () => {
    const { send } = fakeSend((request) => (request.method === 'POST' ? { status: 201, json: { id: 1 } } : { status: 200 }));
    const result = await runScenario(loadScenario(passwordPair), scenarioDeps(send).deps);
    expect(result.status).toBe('failed');
    expect(result.findings).toEqual([
      { ruleId: 'USR-PASSWORD-CLASSES', expected: 'status a 4xx rejection (not 429) (no uppercase letter)', actual: 'status 201', exchangeIds: [result.exchanges[1]!.id] },
      { ruleId: 'USR-PASSWORD-LENGTH', expected: 'status a 4xx rejection (not 429) (no special character)', actual: 'status 201', exchangeIds: [result.exchanges[2]!.id] },
    ]);
  });

  it('uses the variant expect instead of rejected, and its rule over the variant rule', async () => {
    const { send } = fakeSend(() => ({ status: 201, json: { id: 1, password: 'x' } }));
    const scenario = {
      ...passwordPair,
      pair: {
        ...passwordPair.pair,
        variants: [
          { why: 'accepted, as it should', set: { nickname: 'x' }, expect: { status: 'success' } },
          { why: 'hidden password', set: { nickname: 'y' }, rule: 'USR-PASSWORD-LENGTH', expect: { json: [{ path: '$.password', exists: false }], rule: 'USR-FIELD-TYPES' } },
        ],
      },
    };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.findings.map((f) => [f.ruleId, f.expected])).toEqual([['USR-FIELD-TYPES', '$.password absent (hidden password)']]);
  });

  it('builds set, unset and query variants from the baseline request', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200, json: {} }));
    const scenario = {
      id: 'variants',
      title: 't',
      rules: ['SCH-TIME-FORMAT'],
      pair: {
        request: { method: 'POST', path: '/schedules', query: { keep: 'yes' }, json: { start_time: '09:00', end_time: '17:00', user_ids: '{{ fixtures.active_user_ids }}' } },
        variants: [
          { why: 'set', set: { end_time: '24:00', day: "{{ jan_ymd(1) }}" } },
          { why: 'unset', unset: ['start_time', 'not_there'] },
          { why: 'query', query: { page_size: 0, flag: true } },
        ],
      },
    };
    const profile = profileWith({ fixtures: { active_user_ids: [3, 4] } });
    await runScenario(loadScenario(scenario), scenarioDeps(send, { profile }).deps);
    const [baseline, set, unset, query] = requests;
    expect(baseline).toMatchObject({ method: 'POST', path: '/schedules', query: { keep: 'yes' }, json: { start_time: '09:00', end_time: '17:00', user_ids: [3, 4] } });
    expect(set).toMatchObject({ query: { keep: 'yes' }, json: { start_time: '09:00', end_time: '24:00', user_ids: [3, 4], day: '2015-01-02' } });
    expect(unset!.json).toEqual({ end_time: '17:00', user_ids: [3, 4] });
    expect(query).toMatchObject({ query: { keep: 'yes', page_size: 0, flag: 'true' }, json: { start_time: '09:00', end_time: '17:00', user_ids: [3, 4] } });
  });

  it('counts the baseline and each variant as planned requests', () => {
    expect(plannedRequests(loadScenario(passwordPair), () => 0)).toBe(3);
  });
});

describe('runScenario: steps', () => {
  it('captures values into vars for later steps, by path and by created id', async () => {
    const { send, requests } = fakeSend((request) => {
      if (request.method === 'POST') return { status: 201, json: { items: { id: 77 }, message: 'created' } };
      return { status: 200, json: { items: [{ id: 5, user: { id: 9 } }] } };
    });
    const scenario = {
      id: 'captures',
      title: 't',
      rules: ['BRK-IDS-FILTER'],
      steps: [
        { request: { method: 'POST', path: '/timesheets', json: {} }, capture: { timesheet_id: { from: 'created_id' } } },
        { request: { method: 'GET', path: '/breaks', query: { timesheet_id: '{{ vars.timesheet_id }}' } }, capture: { user_id: { path: '$.items[0].user.id' } } },
        { request: { method: 'PUT', path: '/timesheets/{{ vars.timesheet_id }}', json: { user_id: '{{ vars.user_id }}', note: 'u{{ vars.user_id }}' } } },
      ],
    };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('passed');
    expect(requests[1]!.query).toEqual({ timesheet_id: 77 });
    expect(requests[2]).toMatchObject({ method: 'PUT', path: '/timesheets/77', json: { user_id: 9, note: 'u9' } });
  });

  it('is errored with the reason when a capture finds nothing', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200, json: { items: [] } }));
    const scenario = { id: 'capture-miss', title: 't', rules: ['PAG-WALK'], steps: [{ request: { method: 'GET', path: '/breaks' }, capture: { first_id: { path: '$.items[0].id' } } }, { request: { method: 'GET', path: '/breaks/{{ vars.first_id }}' } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('errored');
    expect(result.reason).toBe(`could not capture first_id ($.items[0].id) from the response to GET ${ORIGIN}/api/public/breaks`);
    expect(requests).toHaveLength(1);
  });

  it('is failed, not errored, when a capture misses after a finding', async () => {
    const { send } = fakeSend(() => ({ status: 422, json: {} }));
    const scenario = { id: 'capture-after', title: 't', rules: ['PAG-WALK'], steps: [{ request: { method: 'POST', path: '/timesheets', json: {} }, expect: { status: 'success' }, capture: { id: { from: 'created_id' } } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/^could not capture id \(the created resource ID\)/);
  });

  it('is errored, without a finding, when a step that should succeed (a create to capture) answers 500 or nothing', async () => {
    for (const reply of [{ status: 500, json: {} }, { error: 'CONNECTION_RESET' as const }]) {
      const { send, requests } = fakeSend(() => reply);
      const scenario = {
        id: 'create-crashes',
        title: 't',
        rules: ['USR-ROLE-ID-DEFAULT'],
        steps: [
          { name: 'create a user', request: { method: 'POST', path: '/users', json: {} }, expect: { status: 'success' }, capture: { id: { from: 'created_id' } } },
          { request: { method: 'GET', path: '/users/{{ vars.id }}' }, expect: { status: 'success' } },
        ],
      };
      const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
      expect(result.status).toBe('errored');
      expect(result.findings).toEqual([]);
      expect(result.reason).toMatch(/^create a user: POST \/api\/public\/users (answered 500|got no response \(CONNECTION_RESET\)), where a 2xx was needed: the step's behaviour was not shown$/);
      expect(requests).toHaveLength(1);
    }
  });

  it('keeps the findings of earlier steps when a later step needing a 2xx answers 500 (failed)', async () => {
    const { send } = fakeSend((request) => (request.method === 'POST' ? { status: 201, json: { id: 1 } } : { status: 500, json: {} }));
    const scenario = {
      id: 'finding-then-crash',
      title: 't',
      rules: ['USR-PASSWORD-LENGTH'],
      steps: [
        { request: { method: 'POST', path: '/users', json: { password: 'a' } }, expect: { status: 'rejected' } },
        { request: { method: 'GET', path: '/users' }, expect: { status: 'success' } },
      ],
    };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.ruleId)).toEqual(['USR-PASSWORD-LENGTH']);
    expect(result.reason).toContain('GET /api/public/users answered 500');
  });

  it('is errored, never passed or failed, when a setup step fails, and runs no further step', async () => {
    const { send, requests } = fakeSend(() => ({ status: 500, json: {} }));
    const scenario = {
      id: 'setup-fails',
      title: 't',
      rules: ['BRK-DURATION'],
      setup: [{ name: 'create the timesheet', request: { method: 'POST', path: '/timesheets', json: {} }, expect: { status: 'success' } }],
      steps: [{ request: { method: 'GET', path: '/breaks' } }],
    };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('errored');
    expect(result.findings).toEqual([]);
    expect(result.reason).toBe('setup step create the timesheet failed: expected status a 2xx success, got status 500');
    expect(requests).toHaveLength(1);
  });

  it('is errored, with no findings, when a setup check reports a finding', async () => {
    const { send } = fakeSend(() => ({ status: 200, json: {} }));
    const failing = builtinCheck(BUILTIN_CHECKS.sorted.args, async (ctx) => ctx.fail('PAG-WALK', 'x', 'y'));
    const scenario = { id: 'setup-check', title: 't', rules: ['PAG-WALK'], setup: [{ check: 'sorted', args: { path: '/users', keys: [{ field: 'id' }] } }], steps: [{ request: { method: 'GET', path: '/breaks' } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send, { builtins: { ...BUILTIN_CHECKS, sorted: failing } }).deps);
    expect(result).toMatchObject({ status: 'errored', reason: 'setup check sorted failed: expected x, got y', findings: [] });
  });

  it('is errored, with the message the loader gives for the argument, when check args render to the wrong kind at run time', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200, json: {} }));
    const scenario = { id: 'late-args', title: 't', rules: ['PAG-WALK'], let: { size: 'many' }, steps: [{ check: 'pagination-walk', args: { path: '/breaks', page_size: '{{ vars.size }}' } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result).toMatchObject({ status: 'errored', findings: [], reason: 'check pagination-walk: args.page_size: Invalid input: expected number, received string' });
    expect(requests).toEqual([]);
    expect(suiteFailure(suiteLines(...SUITE_HEAD, '    steps:', '      - check: pagination-walk', '        args: { path: /breaks, page_size: many }')).message).toBe(
      'suites/demo.yaml:9: scenarios[0].steps[0].args.page_size: Invalid input: expected number, received string',
    );
  });

  it('is errored when a template cannot be rendered', async () => {
    const { send } = fakeSend(() => ({ status: 200, json: {} }));
    const scenario = { id: 'bad-template', title: 't', rules: ['PAG-WALK'], steps: [{ request: { method: 'GET', path: '/breaks/{{ vars.never_captured }}' } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result).toMatchObject({ status: 'errored', reason: '"vars.never_captured" is not set (missing "never_captured")' });
  });

  it('records a finding per broken expectation with the exchange that shows it', async () => {
    const { send } = fakeSend(() => ({ status: 200, json: { items: [{ id: 'x' }] } }));
    const scenario = { id: 'findings', title: 't', rules: ['BRK-LIST-SHAPE'], steps: [{ request: { method: 'GET', path: '/breaks' } }, { request: { method: 'GET', path: '/breaks' }, expect: { json: [{ path: '$.items[*].id', type: 'integer' }] } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('failed');
    expect(result.findings).toEqual([{ ruleId: 'BRK-LIST-SHAPE', expected: 'every $.items[*].id of type integer', actual: '$.items[*].id = "x"', exchangeIds: [result.exchanges[1]!.id] }]);
  });

  it('runs check steps with the real built-ins and ends errored with the check reason when its precondition fails', async () => {
    const { send } = fakeSend(() => ({ status: 200, json: { items: [{ id: 1 }] } }));
    const scenario = { id: 'sorted', title: 't', rules: ['SORT-ASCENDING'], steps: [{ check: 'sorted', args: { path: '/users', keys: [{ field: 'first_name' }] } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result).toMatchObject({ status: 'errored', reason: 'GET /users with sort=firstName listed 1 item: an order needs at least 2 items to compare', findings: [] });
  });

  it('renders check args with vars before the check runs', async () => {
    const { send, requests } = fakeSend((request) => (request.method === 'POST' ? { status: 201, json: { id: 12 } } : { status: 200, json: { items: [{ id: 12 }] } }));
    const scenario = {
      id: 'membership',
      title: 't',
      rules: ['SEARCH-MATCHES'],
      steps: [
        { request: { method: 'POST', path: '/users', json: {} }, capture: { user_id: { from: 'created_id' } } },
        { check: 'list-membership', args: { path: '/users', include: ['{{ vars.user_id }}'] } },
      ],
    };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.status).toBe('passed');
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/users' });
  });

  it('sends the prefix, headers, raw body and auth of a request', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200, json: {} }));
    const scenario = {
      id: 'request-parts',
      title: 't',
      rules: ['VER-VERSIONED-PATH'],
      requires: ['versioned_prefix'],
      steps: [
        { request: { method: 'GET', path: '/users?page=2', prefix: '{{ profile.versioned_prefix }}', headers: { 'x-trace': '{{ unique.token }}' }, auth: 'none' } },
        { request: { method: 'POST', path: '/users', raw_body: '{"broken": ', auth: { raw: 'tok-{{ unique.token }}' } } },
      ],
    };
    await runScenario(loadScenario(scenario), scenarioDeps(send, { profile: profileWith({ versioned_prefix: '/api/v2' }) }).deps);
    const [versioned, raw] = requests;
    expect(versioned).toMatchObject({ method: 'GET', url: `${ORIGIN}/api/v2/users?page=2`, auth: 'none', headers: { 'x-trace': expect.stringMatching(/^t-\d+$/) } });
    expect(versioned!.path).toBeUndefined();
    expect(raw).toMatchObject({ method: 'POST', path: '/users', rawBody: '{"broken": ', auth: { raw: expect.stringMatching(/^tok-t-\d+$/) } });
    expect(raw!.json).toBeUndefined();
  });
});

describe('runScenario: skips', () => {
  it('skips a scenario whose required profile value is missing, without sending', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200 }));
    const scenario = { id: 'needs-inactive', title: 't', rules: ['SCH-USER-IDS-ACTIVE'], requires: ['fixtures.inactive_user_id'], steps: [{ request: { method: 'GET', path: '/users' } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^needs an inactive user \(fixtures\.inactive_user_id\): the API cannot deactivate a user/), findings: [], exchanges: [] });
    expect(requests).toEqual([]);
    const present = await runScenario(loadScenario(scenario), scenarioDeps(send, { profile: profileWith({ fixtures: { inactive_user_id: 3 } }) }).deps);
    expect(present.status).toBe('passed');
  });

  it('runs a scenario conditional on a reading only when the profile declares that reading', async () => {
    const { send, requests } = fakeSend(userTarget);
    const scenario = { ...passwordPair, rules: ['USR-EMAIL-FORMAT'], when: { user_email_format: 'validated' } };
    const undeclared = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(undeclared).toMatchObject({ status: 'skipped', reason: 'certifies user_email_format: validated; the profile declares user_email_format: either (no reading: both pass)' });
    const other = await runScenario(loadScenario(scenario), scenarioDeps(send, { profile: profileWith({ user_email_format: 'not-validated' }) }).deps);
    expect(other).toMatchObject({ status: 'skipped', reason: 'certifies user_email_format: validated; the profile declares user_email_format: not-validated' });
    expect(requests).toEqual([]);
    const declared = await runScenario(loadScenario(scenario), scenarioDeps(send, { profile: profileWith({ user_email_format: 'validated' }) }).deps);
    expect(declared.status).toBe('passed');
    expect(requests).toHaveLength(3);
  });

  it('skips a mutating scenario with --read-only, and runs a read-only one', async () => {
    const { send, requests } = fakeSend(userTarget);
    const result = await runScenario(loadScenario(passwordPair), scenarioDeps(send, { readOnly: true }).deps);
    expect(result).toMatchObject({ status: 'skipped', reason: 'changes data on the target (--read-only)' });
    expect(requests).toEqual([]);
    const reading = { id: 'reads', title: 't', rules: ['PAG-WALK'], steps: [{ request: { method: 'GET', path: '/users' } }] };
    expect((await runScenario(loadScenario(reading), scenarioDeps(send, { readOnly: true }).deps)).status).toBe('passed');
  });

  it('skips a scenario whose templates read a fixture the profile lacks, naming it without the index', async () => {
    const { send, requests } = fakeSend(() => ({ status: 200 }));
    const scenario = { id: 'fixture', title: 't', rules: ['TS-USER-EXISTS'], steps: [{ request: { method: 'GET', path: '/users/{{ fixtures.active_user_ids[0] }}' } }] };
    expect(await runScenario(loadScenario(scenario), scenarioDeps(send).deps)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^needs an active user \(fixtures\.active_user_ids\)/) });
    const inPair = { ...passwordPair, pair: { ...passwordPair.pair, request: { method: 'POST', path: '/users', json: { ...user, job: '{{ fixtures.job_id }}' } } } };
    expect(await runScenario(loadScenario(inPair), scenarioDeps(send).deps)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^needs a job \(fixtures\.job_id\): the API neither creates nor lists jobs/) });
    expect(requests).toEqual([]);
  });
});

describe('runScenario: created resources', () => {
  it('hands every resource a POST created to onCreated, with its kind and id', async () => {
    const { send } = fakeSend((request) => {
      const path = request.path ?? '';
      if (path.startsWith('/breaks')) return { status: 201, json: { items: [{ id: 'b-1' }], message: 'created' } };
      if (path.startsWith('/nothing')) return { status: 201, json: { id: 9 } };
      if (path.startsWith('/schedules')) return { status: 422, json: { id: 8 } };
      return { status: 200, json: { id: 5 } };
    });
    const scenario = {
      id: 'creates',
      title: 't',
      rules: ['BRK-CREATE-RESPONSE'],
      steps: ['/users', '/timesheets?x=1', '/breaks', '/webhooks', '/nothing', '/schedules'].map((path) => ({ request: { method: 'POST', path, json: {} }, expect: { status: 'any' } })).concat([{ request: { method: 'PUT', path: '/users/5', json: {} }, expect: { status: 'any' } }]),
    };
    const { deps, created } = scenarioDeps(send);
    await runScenario(loadScenario(scenario), deps);
    expect(created).toEqual([
      { kind: 'user', id: '5', checkId: 'demo/creates' },
      { kind: 'timesheet', id: '5', checkId: 'demo/creates' },
      { kind: 'break', id: 'b-1', checkId: 'demo/creates' },
      { kind: 'webhook', id: '5', checkId: 'demo/creates' },
    ]);
  });

  it('counts a 201 to a pair baseline as created', async () => {
    const { send } = fakeSend(userTarget);
    const { deps, created } = scenarioDeps(send);
    await runScenario(loadScenario(passwordPair), deps);
    expect(created).toEqual([{ kind: 'user', id: '42', checkId: 'demo/password-classes' }]);
  });

  it('records the absolute URL of each exchange', async () => {
    const { send } = fakeSend(() => ({ status: 200, json: {} }));
    const scenario = { id: 'urls', title: 't', rules: ['PAG-WALK'], steps: [{ request: { method: 'GET', path: '/users', query: { page: 2 } } }] };
    const result = await runScenario(loadScenario(scenario), scenarioDeps(send).deps);
    expect(result.exchanges.map((e) => e.request.url)).toEqual([urlOf({ method: 'GET', path: '/users', query: { page: 2 } })]);
  });
});

describe('runScenario: the run stops while a scenario runs', () => {
  /** A target that answers the first call and then stops the run, for `cause`. */
  const stoppingAfterOne = (cause: 'budget' | 'interrupted' | 'target' | 'time-limit') => {
    let calls = 0;
    const { send: answer } = fakeSend(userTarget);
    return async (request: TargetRequest) => {
      if (++calls === 1) return answer(request);
      throw new RunStopped(cause === 'budget' ? 'budget (--within 16.0 s) spent' : `stopped (${cause})`, cause);
    };
  };

  it.each([
    ['budget', 'not-run', 'not run: budget (--within 16.0 s) spent'],
    ['interrupted', 'not-run', 'not run: stopped (interrupted) while it ran'],
    ['target', 'errored', 'stopped (target)'],
    ['time-limit', 'errored', 'stopped (time-limit)'],
  ] as const)('stopped by %s: %s, never a verdict, with the cause', async (cause, status, reason) => {
    const result = await runScenario(loadScenario(passwordPair), scenarioDeps(stoppingAfterOne(cause)).deps);
    expect(result).toMatchObject({ status, reason, findings: [] });
  });
});
