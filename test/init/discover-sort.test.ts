import { describe, expect, it } from 'vitest';
import { discoverSortNames } from '../../src/init/discover-sort.ts';
import { readList } from '../../src/init/list-answer.ts';
import { AUTO_READING } from '../../src/records/record-reading.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { exchangeFor, type Reply } from '../scenarios/support.ts';

const USERS = [
  { id: 1, first_name: 'Ada', role_id: 1 },
  { id: 2, first_name: 'Max', role_id: 2 },
  { id: 3, first_name: 'Emma', role_id: 3 },
];
const unsorted = readList(exchangeFor({ method: 'GET', path: '/users' }, { status: 200, json: { items: USERS } }));

/** A target that honors the sort names in `honored`, refuses the names in `refused`, ignores others. */
function target(honored: readonly string[], refused: readonly string[] = []) {
  const sent: string[] = [];
  const send = async (request: TargetRequest) => {
    const sort = String(request.query?.sort ?? '');
    sent.push(sort);
    const name = sort.replace(/^-/, '');
    const field = name === 'firstName' || name === 'first_name' ? 'first_name' : name === 'id' ? 'id' : 'role_id';
    let reply: Reply = { status: 200, json: { items: USERS } };
    if (refused.includes(name)) reply = { status: 422, json: { message: 'cannot sort' } };
    else if (honored.includes(name)) reply = { status: 200, json: { items: [...USERS].sort((a, b) => (a[field] < b[field] ? 1 : -1)) } };
    return exchangeFor(request, reply);
  };
  return { send, sent };
}

describe('discoverSortNames', () => {
  it('takes the camelCase §4.2 shows when it sorts, then asks whether id sorts, in three requests', async () => {
    const { send, sent } = target(['firstName', 'roleId']);
    const found = await discoverSortNames(send, unsorted, AUTO_READING);
    expect(found.value).toEqual({ first_name: 'firstName', role_id: 'roleId' });
    expect(sent).toEqual(['-firstName', '-roleId', '-id']);
  });

  it('adds id where the list is shown to sort by it (query/sort-numeric-id then runs), and leaves it out where refused', async () => {
    expect((await discoverSortNames(target(['firstName', 'roleId', 'id']).send, unsorted, AUTO_READING)).value).toEqual({ first_name: 'firstName', role_id: 'roleId', id: 'id' });
    const refused = await discoverSortNames(target(['firstName', 'roleId'], ['id']).send, unsorted, AUTO_READING);
    expect(refused.value).toEqual({ first_name: 'firstName', role_id: 'roleId' });
    expect(refused).toMatchObject({ how: expect.stringContaining('sort=-id&page_size=100 → 422 (refused)') });
  });

  it('tries snake_case when camelCase is refused or ignored', async () => {
    const refusing = target(['first_name', 'role_id'], ['firstName', 'roleId']);
    expect((await discoverSortNames(refusing.send, unsorted, AUTO_READING)).value).toEqual({ first_name: 'first_name', role_id: 'role_id' });
    const ignoring = target(['first_name', 'role_id']);
    expect((await discoverSortNames(ignoring.send, unsorted, AUTO_READING)).value).toEqual({ first_name: 'first_name', role_id: 'role_id' });
    expect(ignoring.sent).toEqual(['-firstName', '-first_name', '-roleId', '-role_id', '-id']);
  });

  it('leaves the names to the user when no spelling sorts, or when the data cannot show an order', async () => {
    const none = await discoverSortNames(target([]).send, unsorted, AUTO_READING);
    expect(none).toMatchObject({ why: expect.stringContaining('no spelling of first_name, role_id could be shown to sort the list') });
    const alreadyDescending = readList(exchangeFor({ method: 'GET', path: '/users' }, { status: 200, json: { items: [...USERS].reverse() } }));
    const unclear = await discoverSortNames(target(['firstName', 'roleId']).send, alreadyDescending, AUTO_READING);
    expect(unclear.value).toBeUndefined();
  });
});
