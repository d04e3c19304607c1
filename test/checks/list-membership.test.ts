import { describe, expect, it } from 'vitest';
import { listMembership } from '../../src/checks/list-membership.ts';
import { parseArguments } from '../../src/input/arguments.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { pagedList, queryParam, runCheck, type Reply } from '../scenarios/support.ts';

describe('list-membership', () => {
  it('passes when every included id is listed and no excluded one is, walking page by page', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', query: { search: 'abe' }, include: [1, '250'], exclude: [251, 'x'] }, pagedList(250));
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests.map((r) => r.query)).toEqual([
      { search: 'abe', page_size: 100 },
      { search: 'abe', page: 2, page_size: 100 },
      { search: 'abe', page: 3, page_size: 100 },
    ]);
  });

  it('fails with the default rule when an included id is missing, showing every page', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', include: [3, 500, 600] }, pagedList(150), { defaultRule: 'USR-LIST-FILTER-ACTIVE' });
    expect(outcome.findings).toEqual([{ ruleId: 'USR-LIST-FILTER-ACTIVE', expected: 'IDs 3, 500, 600 in the list', actual: 'missing 500, 600 (150 items listed)', exchangeIds: expect.any(Array) }]);
    expect(outcome.findings[0]!.exchangeIds).toHaveLength(2);
  });

  it('fails with the rule of args when an excluded id is listed, showing the page that lists it', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', exclude: [120], rule: 'USR-LIST-FILTER-ROLE' }, pagedList(150));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'USR-LIST-FILTER-ROLE', expected: 'IDs 120 not in the list', actual: 'listed: 120' })]);
    expect(outcome.findings[0]!.exchangeIds).toHaveLength(1);
  });

  it('stops at the last page even when it is full', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', include: [200], page_size: 100 }, pagedList(200));
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests).toHaveLength(2);
  });

  it('stops on a short page when there is no pagination block', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', page_size: 2, include: [3] }, (request) => {
      const page = Number(queryParam(request, 'page') ?? 1);
      return { status: 200, json: { items: page === 1 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }] } };
    });
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests).toHaveLength(2);
  });

  it('stops after max_pages and does not call an unreached id missing', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', page_size: 10, max_pages: 3, include: [45] }, pagedList(100));
    expect(outcome.requests).toHaveLength(3);
    expect(outcome.findings).toEqual([]);
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'the list is longer than 3 pages of 10; 45 not reached' });
  });

  it('still fails an excluded id listed within the pages it walked, even on a long list', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', page_size: 10, max_pages: 3, exclude: [5] }, pagedList(100));
    expect(outcome.findings).toEqual([expect.objectContaining({ expected: 'IDs 5 not in the list', actual: 'listed: 5' })]);
  });

  it('sends the body with every GET', async () => {
    const outcome = await runCheck(listMembership, { path: '/breaks', body: { ids: [1, 2] }, include: [1, 2] }, pagedList(2));
    expect(outcome.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/breaks', json: { ids: [1, 2] } })]);
  });

  it('fails when the list is not a 2xx or has no items', async () => {
    expect((await runCheck(listMembership, { path: '/users', include: [1] }, () => ({ status: 422, json: {} }))).findings).toEqual([expect.objectContaining({ expected: 'a 2xx list for /users', actual: 'status 422' })]);
    expect((await runCheck(listMembership, { path: '/users' }, () => ({ status: 200, json: {} }))).findings).toEqual([expect.objectContaining({ actual: 'no items array' })]);
    const timeoutWherePlainServed = (request: TargetRequest): Reply => (request.query?.active ? { error: 'CONNECT_TIMEOUT' } : { status: 200, json: { items: [] } });
    expect((await runCheck(listMembership, { path: '/users', query: { active: 1 } }, timeoutWherePlainServed)).findings[0]!.actual).toBe('no response: CONNECT_TIMEOUT');
  });

  it('is errored, never passed or failed under its rule, when the list is not served at all (500 to everything, no answer)', async () => {
    const crashed = await runCheck(listMembership, { path: '/users', query: { active: 1 }, include: [1], exclude: [4] }, () => ({ status: 500, json: {} }));
    expect(crashed).toMatchObject({ status: 'errored', findings: [], reason: 'GET /users with active=1 answered 500 and the plain GET /users answered 500: membership needs a list the target serves' });
    expect((await runCheck(listMembership, { path: '/users', exclude: [4] }, () => ({ error: 'CONNECTION_RESET' }))).status).toBe('errored');
  });

  it('is errored, never passed, when an exclude-only check gets an empty list (nothing was shown)', async () => {
    const outcome = await runCheck(listMembership, { path: '/users', query: { active: 0 }, exclude: [1] }, () => ({ status: 200, json: { items: [] } }));
    expect(outcome).toMatchObject({ status: 'errored', findings: [], reason: 'GET /users with active=0 listed no items: membership needs a list with items (or an ID to include)' });
  });

  it('declares a rule that is not in the catalog a bad argument, with "did you mean"', () => {
    expect(parseArguments(listMembership.args, { path: '/users', rule: 'USR-LIST-FILTER-ROLL' })).toEqual({
      ok: false,
      issue: { path: ['rule'], problem: '"USR-LIST-FILTER-ROLL" is not a rule ID of the catalog (did you mean "USR-LIST-FILTER-ROLE"?)' },
    });
  });
});
