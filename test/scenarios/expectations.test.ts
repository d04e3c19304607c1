import { describe, expect, it } from 'vitest';
import type { Assertion, Expectation, ExpectedStatus } from '../../src/scenarios/format.ts';
import { judge, judgeAssertion, matchStatus, operationOf } from '../../src/scenarios/expectations.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { exchangeFor, profileWith, type Reply } from './support.ts';

const plain = profileWith();
const strict = profileWith({ status_codes: { create: 201, update: 200, list: 200, delete: 204, validation: 422, unauthenticated: 401 } });

const ok = (expected: ExpectedStatus, status: number, method = 'GET', profile = plain) => matchStatus(expected, status, profile, operationOf(method)).ok;

const GET: TargetRequest = { method: 'GET', path: '/breaks' };
const POST: TargetRequest = { method: 'POST', path: '/breaks', json: {} };
const exchange = (reply: Reply, request: TargetRequest = GET) => exchangeFor(request, reply);

const breakCreated = {
  id: 1,
  timesheet_id: 2,
  start: '2015-01-01T12:00:00-06:00',
  end: '2015-01-01T12:30:00-06:00',
  break_rule_id: 3,
  duration: 1800,
  created_at: '2015-01-01T18:30:00',
  updated_at: '2015-01-01T18:30:00',
};
const { duration: _duration, timesheet_id: _timesheet, ...listedBase } = breakCreated;
const breakListed = { ...listedBase, duration_in_seconds: 1800 };
const pagination = {
  current_page: 1,
  first_page_url: 'https://t/api/public/breaks?page=1',
  from: 1,
  last_page: 1,
  last_page_url: 'https://t/api/public/breaks?page=1',
  next_page_url: null,
  path: 'https://t/api/public/breaks',
  per_page: 10,
  prev_page_url: null,
  to: 1,
  total: 1,
  options: false,
};

describe('operationOf', () => {
  it('maps POST to create, PUT to update, DELETE to delete and the rest to list', () => {
    expect(['POST', 'PUT', 'DELETE', 'GET', 'HEAD'].map(operationOf)).toEqual(['create', 'update', 'delete', 'list', 'list']);
  });
});

describe('matchStatus', () => {
  it('passes an exact code only on that code', () => {
    expect(ok(201, 201)).toBe(true);
    expect(ok(201, 200)).toBe(false);
    expect(matchStatus(404, 200, plain, 'list').wanted).toBe('404');
  });

  it('passes success on any 2xx without profile codes', () => {
    expect([200, 201, 204, 299].map((s) => ok('success', s, 'POST'))).toEqual([true, true, true, true]);
    expect([199, 300, 302, 422].map((s) => ok('success', s, 'POST'))).toEqual([false, false, false, false]);
    expect(matchStatus('success', 500, plain, 'create').wanted).toBe('a 2xx success');
  });

  it('makes success exact per operation with the profile status_codes', () => {
    const createOnly = profileWith({ status_codes: { create: 201 } });
    expect(ok('success', 200, 'POST', createOnly)).toBe(false);
    expect(ok('success', 201, 'POST', createOnly)).toBe(true);
    expect(ok('success', 200, 'PUT', createOnly)).toBe(true);
    expect(ok('success', 204, 'DELETE', strict)).toBe(true);
    expect(ok('success', 200, 'DELETE', strict)).toBe(false);
    expect(ok('success', 200, 'GET', strict)).toBe(true);
    expect(matchStatus('success', 200, createOnly, 'create').wanted).toBe('201 (profile)');
  });

  it('passes rejected on a 4xx but never on 429 or a 5xx', () => {
    expect([400, 404, 409, 422, 499].map((s) => ok('rejected', s))).toEqual([true, true, true, true, true]);
    expect([429, 500, 503, 200, 302].map((s) => ok('rejected', s))).toEqual([false, false, false, false, false]);
  });

  it('makes rejected exact with status_codes.validation, and still never passes 429', () => {
    expect(ok('rejected', 422, 'POST', strict)).toBe(true);
    expect(ok('rejected', 400, 'POST', strict)).toBe(false);
    expect(ok('rejected', 429, 'POST', profileWith({ status_codes: { validation: 400 } }))).toBe(false);
  });

  it('passes refused on a 4xx but never on 429 or a 5xx, exact with status_codes.unauthenticated', () => {
    expect(ok('refused', 401)).toBe(true);
    expect(ok('refused', 403)).toBe(true);
    expect(ok('refused', 429)).toBe(false);
    expect(ok('refused', 500)).toBe(false);
    expect(ok('refused', 401, 'GET', strict)).toBe(true);
    expect(ok('refused', 403, 'GET', strict)).toBe(false);
  });

  it('passes a class on its hundred only, whatever the profile says', () => {
    expect(ok('2xx', 204, 'POST', strict)).toBe(true);
    expect(ok('3xx', 301)).toBe(true);
    expect(ok('4xx', 429)).toBe(true);
    expect(ok('5xx', 503)).toBe(true);
    expect(ok('5xx', 499)).toBe(false);
    expect(ok('2xx', 300)).toBe(false);
  });

  it('passes any status with any', () => {
    expect([100, 200, 429, 599].every((s) => ok('any', s))).toBe(true);
  });
});

describe('judgeAssertion operators', () => {
  const json = { items: [{ id: 1, name: 'Ada', tags: ['x', 'y'], at: '2015-01-01T09:00:00-06:00' }, { id: 2, name: 'Bo', tags: [], at: '2015-01-01T09:00:00' }], total: 2, ratio: 0.5, flag: true, none: null, obj: {} };
  const holds = (a: Omit<Assertion, 'path'> & { path: string }) => judgeAssertion(json, a as Assertion) === null;

  const table: ReadonlyArray<[string, Omit<Assertion, 'path'> & { path: string }, boolean]> = [
    ['exists true on a present value', { path: '$.total', exists: true }, true],
    ['exists true on a missing value', { path: '$.nope', exists: true }, false],
    ['exists false on a missing value', { path: '$.nope', exists: false }, true],
    ['exists false on a present null', { path: '$.none', exists: false }, false],
    ['equals a deep value', { path: '$.items[0].tags', equals: ['x', 'y'] }, true],
    ['equals a different value', { path: '$.total', equals: 3 }, false],
    ['equals does not coerce', { path: '$.total', equals: '2' }, false],
    ['not_equals a different value', { path: '$.total', not_equals: 3 }, true],
    ['not_equals the same value', { path: '$.total', not_equals: 2 }, false],
    ['type integer on an integer', { path: '$.total', type: 'integer' }, true],
    ['type number on an integer', { path: '$.total', type: 'number' }, true],
    ['type integer on a fraction', { path: '$.ratio', type: 'integer' }, false],
    ['type number on a fraction', { path: '$.ratio', type: 'number' }, true],
    ['type boolean', { path: '$.flag', type: 'boolean' }, true],
    ['type null', { path: '$.none', type: 'null' }, true],
    ['type object on null', { path: '$.none', type: 'object' }, false],
    ['type object', { path: '$.obj', type: 'object' }, true],
    ['type array', { path: '$.items', type: 'array' }, true],
    ['type array on an object', { path: '$.obj', type: 'array' }, false],
    ['type string on a number', { path: '$.total', type: 'string' }, false],
    ['matches a string', { path: '$.items[0].name', matches: '^A' }, true],
    ['matches a string that differs', { path: '$.items[0].name', matches: '^B' }, false],
    ['matches a number', { path: '$.total', matches: '2' }, false],
    ['one_of with the value', { path: '$.total', one_of: [1, 2] }, true],
    ['one_of without the value', { path: '$.total', one_of: [3, 4] }, false],
    ['length of an array', { path: '$.items', length: 2 }, true],
    ['length off by one', { path: '$.items', length: 3 }, false],
    ['length of a string', { path: '$.items[0].name', length: 3 }, false],
    ['max_length within', { path: '$.items', max_length: 2 }, true],
    ['max_length over', { path: '$.items', max_length: 1 }, false],
    ['every_in with all values listed', { path: '$.items[*].id', every_in: [1, 2, 3] }, true],
    ['every_in with one value missing', { path: '$.items[*].id', every_in: [1] }, false],
    ['contains_all with all present', { path: '$.items[*].id', contains_all: [2, 1] }, true],
    ['contains_all with one absent', { path: '$.items[*].id', contains_all: [1, 3] }, false],
    ['excludes with none listed', { path: '$.items[*].id', excludes: [3] }, true],
    ['excludes with one listed', { path: '$.items[*].id', excludes: [2] }, false],
    ['format offset-datetime', { path: '$.items[0].at', format: 'offset-datetime' }, true],
    ['format offset-datetime on a naive one', { path: '$.items[1].at', format: 'offset-datetime' }, false],
    ['format naive-datetime', { path: '$.items[1].at', format: 'naive-datetime' }, true],
    ['format on a number', { path: '$.total', format: 'ymd-date' }, false],
    ['several operators that all hold', { path: '$.total', type: 'integer', one_of: [2], not_equals: 0 }, true],
    ['several operators, one broken', { path: '$.total', type: 'integer', one_of: [5] }, false],
  ];
  it.each(table)('%s → %s', (_name, assertion, expected) => {
    expect(holds(assertion)).toBe(expected);
  });

  it('checks every format name of the spec model', () => {
    const values = { o: '2015-01-01T09:00:00+01:00', n: '2015-01-01T09:00:00', u: '01/31/2015', y: '2015-01-31', c: '23:59', z: 'Europe/London' };
    const pairs = [['$.o', 'offset-datetime'], ['$.n', 'naive-datetime'], ['$.u', 'us-date'], ['$.y', 'ymd-date'], ['$.c', 'clock-time'], ['$.z', 'timezone-name']] as const;
    for (const [path, format] of pairs) {
      expect(judgeAssertion(values, { path, format }), format).toBeNull();
      expect(judgeAssertion({ ...values, [path.slice(2)]: 'nonsense' }, { path, format }), format).not.toBeNull();
    }
  });

  it('says what was expected and what was found', () => {
    expect(judgeAssertion(json, { path: '$.total', equals: 3 })).toEqual({ expected: '$.total equal to 3', actual: '$.total = 2' });
    expect(judgeAssertion(json, { path: '$.nope', type: 'string' })).toEqual({ expected: '$.nope present', actual: '$.nope missing' });
    expect(judgeAssertion(json, { path: '$.total', exists: false })).toEqual({ expected: '$.total absent', actual: '$.total = 2' });
  });
});

describe('judgeAssertion with [*]', () => {
  const json = { items: [{ id: 1, ok: true }, { id: 2, ok: false }], empty: [] };

  it('requires the operators of every value and names the first one that breaks them', () => {
    expect(judgeAssertion(json, { path: '$.items[*].id', type: 'integer' })).toBeNull();
    expect(judgeAssertion(json, { path: '$.items[*].ok', equals: true })).toEqual({ expected: 'every $.items[*].ok equal to true', actual: '$.items[*].ok = false' });
  });

  it('requires at least one value', () => {
    expect(judgeAssertion(json, { path: '$.empty[*].id', type: 'integer' })).toEqual({ expected: '$.empty[*].id present', actual: '$.empty[*].id missing' });
    expect(judgeAssertion(json, { path: '$.empty[*]', every_in: [1] })).not.toBeNull();
  });

  it('with exists: false, requires that no value exists', () => {
    expect(judgeAssertion(json, { path: '$.empty[*].id', exists: false })).toBeNull();
    expect(judgeAssertion(json, { path: '$.items[*].id', exists: false })).not.toBeNull();
  });

  it('with contains_all, reports the missing values among those found', () => {
    expect(judgeAssertion(json, { path: '$.items[*].id', contains_all: [1, 5, 6] })).toEqual({ expected: '$.items[*].id to include [1,5,6]', actual: 'missing [5,6] in [1,2]' });
  });
});

describe('judgeAssertion on records the spec does not show ($record, $list)', () => {
  const laravelUser = { items: { id: '41', first_name: 'Clock', pay_rate: '0.00', active: 1, track_mileage: '0', role_id: '3', phone: null } };
  const camelUser = { data: { id: 41, firstName: 'Clock', payRate: 15, trackMileage: true } };

  it('compares values by meaning: "0.00" is 0, 1 is true, "3" is 3, a string id is its number', () => {
    expect(judgeAssertion(laravelUser, { path: '$record.pay_rate', equals: 0 })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.active', equals: true })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.track_mileage', equals: false })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.role_id', equals: 3, type: 'integer' })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.id', equals: 41 })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.role_id', one_of: [1, 2, 3] })).toBeNull();
  });

  it('still fails a value that means something else, and says it compared by meaning', () => {
    expect(judgeAssertion(laravelUser, { path: '$record.pay_rate', equals: 15 })).toEqual({
      expected: '$record.pay_rate equal to 15 (compared by meaning)',
      actual: '$record.pay_rate = "0.00"',
    });
    expect(judgeAssertion(laravelUser, { path: '$record.active', equals: false })).not.toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.first_name', equals: 'clock' })).not.toBeNull();
  });

  it('reads camelCase field names for the snake_case names the suites write', () => {
    expect(judgeAssertion(camelUser, { path: '$record.first_name', equals: 'Clock' })).toBeNull();
    expect(judgeAssertion(camelUser, { path: '$record.pay_rate', equals: 15 })).toBeNull();
    expect(judgeAssertion(camelUser, { path: '$record.track_mileage', equals: true })).toBeNull();
    expect(judgeAssertion(camelUser, { path: '$record.first_name', equals: 'Clock' }, { fields: 'snake' })).toEqual({ expected: '$record.first_name present', actual: '$record.first_name missing' });
  });

  it('takes an absent field for null where null is expected, but not null for a default of 0', () => {
    expect(judgeAssertion(laravelUser, { path: '$record.notes', equals: null })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.phone', equals: null })).toBeNull();
    expect(judgeAssertion(laravelUser, { path: '$record.phone', equals: 0 })).not.toBeNull();
    expect(judgeAssertion({ message: 'no record' }, { path: '$record.notes', equals: null })).not.toBeNull();
  });

  it('compares exactly with exact: true (records the spec shows, §2.4) and always under $', () => {
    const created = { items: { id: 7, duration: '1800', break_rule_id: 1 } };
    expect(judgeAssertion(created, { path: '$record.duration', type: 'integer' })).toBeNull();
    expect(judgeAssertion(created, { path: '$record.duration', type: 'integer', exact: true })).not.toBeNull();
    expect(judgeAssertion({ items: { id: 7, breakRuleId: 1 } }, { path: '$record.break_rule_id', exists: true, exact: true })).not.toBeNull();
    expect(judgeAssertion({ total: '2' }, { path: '$.total', equals: 2 })).not.toBeNull();
  });

  it('reads $list items at the profile list_items pointer, in either spelling', () => {
    const list = { result: { rows: [{ id: 1, firstName: 'Zed' }] }, errors: [], warnings: [] };
    expect(judgeAssertion(list, { path: '$list[0].first_name', equals: 'Zed' }, { fields: 'auto', listItems: '/result/rows' })).toBeNull();
    expect(judgeAssertion(list, { path: '$list[0].first_name', equals: 'Zed' })).not.toBeNull();
  });
});

describe('judge', () => {
  it('passes an exchange that meets every expectation', () => {
    const expectation: Expectation = { status: 'success', json: [{ path: '$.id', type: 'integer' }], headers: { 'Content-Type': { matches: '^application/json' } } };
    expect(judge(expectation, exchange({ status: 200, json: { id: 3 } }), plain, 'HTTPS-ONLY')).toEqual([]);
  });

  it('stops at an unexpected status, and notes a 429', () => {
    const expectation: Expectation = { status: 'rejected', json: [{ path: '$.x', exists: true }] };
    expect(judge(expectation, exchange({ status: 200, json: {} }, POST), plain, 'USR-EMAIL-FORMAT')).toEqual([
      { ruleId: 'USR-EMAIL-FORMAT', expected: 'status a 4xx rejection (not 429)', actual: 'status 200' },
    ]);
    const [limited] = judge(expectation, exchange({ status: 429, json: {} }, POST), plain, 'USR-EMAIL-FORMAT');
    expect(limited?.actual).toBe('status 429 (429: rate limited, which the pacer should have prevented)');
  });

  it('judges success against the operation of the request method', () => {
    const expectation: Expectation = { status: 'success' };
    const createOnly = profileWith({ status_codes: { create: 201 } });
    expect(judge(expectation, exchange({ status: 200, json: {} }, POST), createOnly, 'HTTPS-ONLY')).toHaveLength(1);
    expect(judge(expectation, exchange({ status: 200, json: {} }, { method: 'PUT', path: '/breaks/1', json: {} }), createOnly, 'HTTPS-ONLY')).toEqual([]);
  });

  it('reports a transport error as one finding with its code', () => {
    const judgements = judge({ status: 'success', json: [{ path: '$.a', exists: true }] }, exchange({ error: 'CONNECTION_RESET', message: 'socket hang up' }), plain, 'PAG-WALK');
    expect(judgements).toEqual([{ ruleId: 'PAG-WALK', expected: 'a response', actual: 'no response: CONNECTION_RESET socket hang up' }]);
  });

  it('reports a body that is not JSON when JSON assertions or a schema need one', () => {
    const [finding, ...rest] = judge({ json: [{ path: '$.a', exists: true }, { path: '$.b', exists: true }] }, exchange({ status: 200, body: '<html>oops</html>' }), plain, 'JSON-RESPONSE');
    expect(rest).toEqual([]);
    expect(finding).toEqual({ ruleId: 'JSON-RESPONSE', expected: 'a JSON body', actual: 'not JSON: <html>oops</html>' });
    expect(judge({ schema: 'pagination-block' }, exchange({ status: 200, body: '' }), plain, 'JSON-RESPONSE')).toHaveLength(1);
  });

  it('says a truncated body is too large to judge', () => {
    const [finding] = judge({ json: [{ path: '$.a', exists: true }] }, exchange({ status: 200, body: '{"a": [1, 2', truncated: true }), plain, 'JSON-RESPONSE');
    expect(finding?.actual).toBe('a body too large to judge');
  });

  it('does not need JSON when only the status and headers are judged', () => {
    expect(judge({ status: 200, headers: { 'x-a': { exists: true } } }, exchange({ status: 200, body: 'text', headers: { 'x-a': '1' } }), plain, 'HTTPS-ONLY')).toEqual([]);
  });

  it('checks that a header exists, is absent, or matches case-insensitively', () => {
    const ex = exchange({ status: 200, json: {}, headers: { 'content-type': 'Application/JSON; charset=utf-8', 'x-powered-by': 'php' } });
    expect(judge({ headers: { 'Content-Type': { matches: '^application/json' } } }, ex, plain, 'JSON-RESPONSE')).toEqual([]);
    expect(judge({ headers: { 'x-missing': { exists: true } } }, ex, plain, 'JSON-RESPONSE')).toEqual([{ ruleId: 'JSON-RESPONSE', expected: 'a x-missing header', actual: 'absent' }]);
    expect(judge({ headers: { 'x-missing': { matches: '.' } } }, ex, plain, 'JSON-RESPONSE')).toHaveLength(1);
    expect(judge({ headers: { 'x-powered-by': { exists: false } } }, ex, plain, 'JSON-RESPONSE')).toEqual([{ ruleId: 'JSON-RESPONSE', expected: 'no x-powered-by header', actual: 'x-powered-by: php' }]);
    expect(judge({ headers: { 'x-missing': { exists: false } } }, ex, plain, 'JSON-RESPONSE')).toEqual([]);
    expect(judge({ headers: { 'content-type': { matches: '^text/html' } } }, ex, plain, 'JSON-RESPONSE')).toEqual([
      { ruleId: 'JSON-RESPONSE', expected: 'content-type matching /^text/html/', actual: 'content-type: Application/JSON; charset=utf-8' },
    ]);
  });

  it('checks no_body against the bytes received', () => {
    const head: TargetRequest = { method: 'HEAD', path: '/users' };
    expect(judge({ no_body: true }, exchange({ status: 200, body: '' }, head), plain, 'HEAD-SUPPORTED')).toEqual([]);
    expect(judge({ no_body: true }, exchange({ status: 200, body: '{"items":[]}' }, head), plain, 'HEAD-SUPPORTED')).toEqual([
      { ruleId: 'HEAD-SUPPORTED', expected: 'no body', actual: '12 bytes of body' },
    ]);
  });

  it('checks the named schemas of the spec model against real break responses', () => {
    const listBody = { meta_data: { pagination }, items: [breakListed] };
    expect(judge({ schema: 'break-create-response' }, exchange({ status: 201, json: { items: breakCreated, message: 'created' } }), plain, 'BRK-CREATE-RESPONSE')).toEqual([]);
    expect(judge({ schema: 'break-create-response' }, exchange({ status: 201, json: { items: [breakCreated], message: 'created' } }), plain, 'BRK-CREATE-RESPONSE')).toEqual([]);
    expect(judge({ schema: 'break-list-response' }, exchange({ status: 200, json: listBody }), plain, 'BRK-LIST-RESPONSE')).toEqual([]);
    expect(judge({ schema: 'pagination-block' }, exchange({ status: 200, json: pagination }), plain, 'PAG-BLOCK-FIELDS')).toEqual([]);
    expect(judge({ schema: 'break-listed' }, exchange({ status: 200, json: breakListed }), plain, 'BRK-LIST-SHAPE')).toEqual([]);
    expect(judge({ schema: 'break-created' }, exchange({ status: 200, json: breakCreated }), plain, 'BRK-CREATE-SHAPE')).toEqual([]);
  });

  it('names the first field that breaks a schema', () => {
    const naiveStart = { ...breakCreated, start: '2015-01-01T12:00:00' };
    const [finding, ...rest] = judge({ schema: 'break-created' }, exchange({ status: 200, json: naiveStart }), plain, 'BRK-DATETIME-FORMAT');
    expect(rest).toEqual([]);
    expect(finding).toEqual({ ruleId: 'BRK-DATETIME-FORMAT', expected: "a body of the spec's break-created shape", actual: 'start: expected YYYY-MM-DDTHH:MM:SS±HH:MM' });
    const listed = judge({ schema: 'break-list-response' }, exchange({ status: 200, json: { meta_data: { pagination }, items: [breakCreated] } }), plain, 'BRK-LIST-RESPONSE');
    expect(listed[0]?.actual).toMatch(/^items\.0\.duration_in_seconds: /);
    const noItems = judge({ schema: 'break-create-response' }, exchange({ status: 200, json: [] }), plain, 'BRK-CREATE-RESPONSE');
    expect(noItems[0]?.actual).toMatch(/^\(body\): /);
  });

  it('takes the rule of a finding from the assertion, then the expectation, then the default', () => {
    const ex = exchange({ status: 200, json: { a: 1 } });
    const assertions: Assertion[] = [{ path: '$.a', equals: 2, rule: 'SORT-MULTI' }, { path: '$.a', equals: 3 }];
    expect(judge({ json: assertions, rule: 'PAG-LINKS' }, ex, plain, 'HTTPS-ONLY').map((j) => j.ruleId)).toEqual(['SORT-MULTI', 'PAG-LINKS']);
    expect(judge({ json: assertions }, ex, plain, 'HTTPS-ONLY').map((j) => j.ruleId)).toEqual(['SORT-MULTI', 'HTTPS-ONLY']);
    expect(judge({ status: 201, rule: 'PAG-LINKS' }, ex, plain, 'HTTPS-ONLY').map((j) => j.ruleId)).toEqual(['PAG-LINKS']);
  });

  it('reports every broken assertion, not only the first', () => {
    const judgements = judge({ json: [{ path: '$.a', equals: 2 }, { path: '$.b', exists: true }, { path: '$.a', type: 'integer' }] }, exchange({ status: 200, json: { a: 1 } }), plain, 'HTTPS-ONLY');
    expect(judgements.map((j) => j.expected)).toEqual(['$.a equal to 2', '$.b present']);
  });
});
