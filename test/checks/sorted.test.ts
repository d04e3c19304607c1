import { describe, expect, it } from 'vitest';
import { sorted, sortName, tolerantOrder } from '../../src/checks/sorted.ts';
import { parseArguments } from '../../src/input/arguments.ts';
import { profileWith, runCheck, type Reply } from '../scenarios/support.ts';

const serve = (items: unknown[]) => (): Reply => ({ status: 200, json: { items } });

describe('tolerantOrder', () => {
  it('orders numbers numerically', () => {
    expect(tolerantOrder(2, 10)).toBe('before');
    expect(tolerantOrder(10, 2)).toBe('after');
    expect(tolerantOrder(-1.5, -1.5)).toBe('tie');
  });

  it('orders false before true', () => {
    expect(tolerantOrder(false, true)).toBe('before');
    expect(tolerantOrder(true, false)).toBe('after');
    expect(tolerantOrder(true, true)).toBe('tie');
  });

  it('is certain about strings only when code point, case-insensitive and locale orders agree', () => {
    expect(tolerantOrder('apple', 'banana')).toBe('before');
    expect(tolerantOrder('Banana', 'apple')).toBe('ambiguous');
    expect(tolerantOrder('banana', 'apple')).toBe('after');
    expect(tolerantOrder('same', 'same')).toBe('tie');
  });

  it('calls a pair ambiguous when the orders disagree', () => {
    expect(tolerantOrder('a', 'B')).toBe('ambiguous');
    expect(tolerantOrder('B', 'a')).toBe('ambiguous');
    expect(tolerantOrder('Émile', 'Zoe')).toBe('ambiguous');
    expect(tolerantOrder('a', 'A')).toBe('ambiguous');
  });

  it('orders numbers written as strings by meaning (role_id "10" after "9", "1" ties 1)', () => {
    expect(tolerantOrder('10', '9')).toBe('after');
    expect(tolerantOrder(1, '1')).toBe('tie');
    expect(tolerantOrder(0, true)).toBe('before');
  });

  it('calls mixed or missing types ambiguous', () => {
    expect(tolerantOrder(1, 'a')).toBe('ambiguous');
    expect(tolerantOrder(null, 1)).toBe('ambiguous');
    expect(tolerantOrder(undefined, 'a')).toBe('ambiguous');
  });
});

describe('sortName', () => {
  it('uses camelCase by default, as the spec shows firstName and roleId', () => {
    expect(sortName('first_name', {})).toBe('firstName');
    expect(sortName('role_id', {})).toBe('roleId');
    expect(sortName('created_at_utc', {})).toBe('createdAtUtc');
    expect(sortName('email', {})).toBe('email');
  });

  it('takes the profile name when there is one', () => {
    expect(sortName('first_name', { first_name: 'first_name' })).toBe('first_name');
    expect(sortName('role_id', { first_name: 'first_name' })).toBe('roleId');
  });
});

describe('sorted', () => {
  it('passes ascending items and sends the camelCase sort with page_size 100', async () => {
    const outcome = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }], query: { active: true } }, serve([{ first_name: 'Ada' }, { first_name: 'Bob' }, { first_name: 'bob' }, { first_name: 'Cy' }]));
    expect(outcome.status).toBe('passed');
    expect(outcome.requests[0]).toMatchObject({ method: 'GET', path: '/users', query: { active: 'true', sort: 'firstName', page_size: 100 } });
  });

  it('fails SORT-ASCENDING on the first pair out of order', async () => {
    const outcome = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }] }, serve([{ first_name: 'Ada' }, { first_name: 'Cy' }, { first_name: 'Bob' }, { first_name: 'Al' }]));
    expect(outcome.findings).toEqual([
      expect.objectContaining({ ruleId: 'SORT-ASCENDING', expected: 'items in the order sort=firstName', actual: 'item 2 (first_name="Cy") before item 3 (first_name="Bob")' }),
    ]);
  });

  it('does not fail pairs whose order depends on the collation', async () => {
    const outcome = await runCheck(sorted, { path: '/users', keys: [{ field: 'last_name' }] }, serve([{ last_name: 'a' }, { last_name: 'B' }, { last_name: 'Émile' }, { last_name: 'Zoe' }]));
    expect(outcome.status).toBe('passed');
  });

  it('passes and fails descending order with SORT-DESCENDING and a leading minus', async () => {
    const good = await runCheck(sorted, { path: '/users', keys: [{ field: 'id', descending: true }] }, serve([{ id: 3 }, { id: 2 }, { id: 2 }, { id: 1 }]));
    expect(good.status).toBe('passed');
    expect(good.requests[0]!.query).toMatchObject({ sort: '-id' });
    const bad = await runCheck(sorted, { path: '/users', keys: [{ field: 'id', descending: true }] }, serve([{ id: 1 }, { id: 2 }]));
    expect(bad.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-DESCENDING', expected: 'items in the order sort=-id' })]);
  });

  it('orders by the next key on a tie, and fails SORT-MULTI when it is out of order', async () => {
    const keys = [{ field: 'role_id' }, { field: 'first_name', descending: true }];
    const good = await runCheck(sorted, { path: '/users', keys }, serve([{ role_id: 1, first_name: 'Zed' }, { role_id: 1, first_name: 'Ada' }, { role_id: 2, first_name: 'Zed' }]));
    expect(good.status).toBe('passed');
    expect(good.requests[0]!.query).toMatchObject({ sort: 'roleId,-firstName' });
    const bad = await runCheck(sorted, { path: '/users', keys }, serve([{ role_id: 1, first_name: 'Ada' }, { role_id: 1, first_name: 'Zed' }]));
    expect(bad.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-MULTI', actual: 'item 1 (role_id=1 first_name="Ada") before item 2 (role_id=1 first_name="Zed")' })]);
  });

  it('sends the profile sort names', async () => {
    const outcome = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }, { field: 'role_id' }] }, serve([]), { profile: profileWith({ sort_names: { first_name: 'first_name', role_id: 'role' } }) });
    expect(outcome.requests[0]!.query).toMatchObject({ sort: 'first_name,role' });
  });

  it('fails with the rule given in args', async () => {
    const outcome = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }], rule: 'SORT-FIELD-NAMES' }, serve([{ id: 2 }, { id: 1 }]));
    expect(outcome.findings[0]!.ruleId).toBe('SORT-FIELD-NAMES');
  });

  it('skips when the items lack the field (not shown); is errored, never passed, with fewer than two items', async () => {
    expect(await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }] }, serve([{ id: 1 }, { id: 2 }]))).toMatchObject({
      status: 'skipped',
      reason: 'the items do not carry first_name (the spec does not show the records); the order cannot be judged',
    });
    expect(await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, serve([{ id: 1 }]))).toMatchObject({ status: 'errored', reason: 'GET /users with sort=id listed 1 item: an order needs at least 2 items to compare' });
    expect(await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, serve([]))).toMatchObject({ status: 'errored', reason: 'GET /users with sort=id listed 0 items: an order needs at least 2 items to compare' });
  });

  it('reads the items of a list under another envelope key (the user list shape is not shown)', async () => {
    const other = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, () => ({ status: 200, json: { data: [{ id: 2 }, { id: 1 }] } }));
    expect(other.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-ASCENDING' })]);
  });

  it('reads camelCase records and Laravel representations by meaning (the records are not shown)', async () => {
    const camel = { status: 200, json: { data: [{ id: 1, firstName: 'Abe', roleId: '9' }, { id: 2, firstName: 'Zed', roleId: '10' }] } };
    const byName = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }] }, () => camel);
    expect(byName.status).toBe('passed');
    const byRole = await runCheck(sorted, { path: '/users', keys: [{ field: 'role_id' }] }, () => camel);
    expect(byRole.status).toBe('passed');
    const descending = await runCheck(sorted, { path: '/users', keys: [{ field: 'role_id', descending: true }] }, () => camel);
    expect(descending.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-DESCENDING', actual: 'item 1 (role_id="9") before item 2 (role_id="10")' })]);
    const snakeOnly = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name' }] }, () => camel, { profile: profileWith({ record_fields: 'snake' }) });
    expect(snakeOnly.status).toBe('skipped');
  });

  it('fails when the list is not a 2xx or has no items', async () => {
    const refused = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, () => ({ status: 422, json: {} }));
    expect(refused.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-FIELD-NAMES', actual: 'status 422' })]);
    expect(refused.findings[0]!.expected).toMatch(/set sort_names in the profile/);
    // A 500 to the sort where the plain list is served: the sort breaks the list, a finding.
    const broken = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, (request) => (request.query?.sort ? { status: 500, json: {} } : { status: 200, json: { items: [] } }));
    expect(broken.findings).toEqual([expect.objectContaining({ ruleId: 'SORT-ASCENDING', expected: 'a 2xx list sorted by id', actual: 'status 500' })]);
    const empty = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, () => ({ status: 200, json: { message: 'ok' } }));
    expect(empty.findings).toEqual([expect.objectContaining({ actual: 'no items array' })]);
    const reset = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, (request) => (request.query?.sort ? { error: 'CONNECTION_RESET' } : { status: 200, json: { items: [] } }));
    expect(reset.findings[0]!.actual).toBe('no response: CONNECTION_RESET');
  });

  it('is errored, never failed under SORT-*, when the list is not served with or without the sort (500 to everything, no answer)', async () => {
    const crashed = await runCheck(sorted, { path: '/users', keys: [{ field: 'first_name', descending: true }] }, () => ({ status: 500, json: {} }));
    expect(crashed).toMatchObject({ status: 'errored', findings: [], reason: 'GET /users with sort=-firstName answered 500 and the plain GET /users answered 500: the sort order needs a list the target serves' });
    expect(crashed.requests.map((r) => r.query ?? {})).toEqual([{ sort: '-firstName', page_size: 100 }, {}]);
    const down = await runCheck(sorted, { path: '/users', keys: [{ field: 'id' }] }, () => ({ error: 'CONNECT_TIMEOUT' }));
    expect(down).toMatchObject({ status: 'errored', findings: [] });
  });

  it('declares args without keys bad', () => {
    expect(parseArguments(sorted.args, { path: '/users', keys: [] })).toMatchObject({ ok: false, issue: { path: ['keys'] } });
  });
});
