import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, violationPairs, type TestServer } from '../support/reference-client.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  await t?.close();
});

// This file creates nothing: it reads the seed data (12 users, 13 timesheets, 36 breaks).
// Seed users by ID: 1 Ada Admin (admin), 2 Max Manager (manager), 3 Emma Employee, 4 Ivan Inactive
// (inactive), 5 Zoe Zimmerman, 6 Bruno Baker (manager), 7 Carla Castillo, 8 Ada Byron, 9 Dmitri Dvorak
// (admin), 10 Farah Fischer, 11 Gus Garcia (inactive manager), 12 Hana Haddad; the rest are employees.

type Item = Record<string, any>;

async function items(path: string): Promise<Item[]> {
  const separator = path.includes('?') ? '&' : '?';
  const reply = await t.call('GET', `${path}${separator}page_size=100`);
  expect(reply.status, reply.text).toBe(200);
  expect(reply.json.meta_data.pagination.total).toBe(reply.json.items.length);
  return reply.json.items;
}

const ids = (list: Item[]) => list.map((i) => i.id as number);

async function expect422(path: string, field: string): Promise<void> {
  const reply = await t.call('GET', path);
  expect(reply.status, reply.text).toBe(422);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(violationPairs(reply)).toContain(`null@${field}`);
}

/** Sorts a copy the way §4.6 says: by each key in turn, `-` descending; ties by ascending ID. */
function sortedBy(list: Item[], ...keys: string[]): Item[] {
  const compare = (a: unknown, b: unknown) =>
    typeof a === 'string' && typeof b === 'string' ? a.toLowerCase().localeCompare(b.toLowerCase(), 'en') : (a as number) - (b as number);
  return [...list].sort((x, y) => {
    for (const key of keys) {
      const descending = key.startsWith('-');
      const field = descending ? key.slice(1) : key;
      const order = compare(x[field], y[field]);
      if (order !== 0) return descending ? -order : order;
    }
    return x.id - y.id;
  });
}

describe('sort (§4.6)', () => {
  it('sorts users ascending by firstName', async () => {
    expect(ids(await items('/users?sort=firstName'))).toEqual([1, 8, 6, 7, 9, 3, 10, 11, 12, 4, 2, 5]);
  });

  it('sorts users descending by -firstName', async () => {
    expect(ids(await items('/users?sort=-firstName'))).toEqual([5, 2, 4, 12, 11, 10, 3, 9, 7, 6, 1, 8]);
  });

  it('sorts by several keys in turn: firstName, then -lastName breaks the tie between the two Adas', async () => {
    expect(ids(await items('/users?sort=firstName,-lastName'))).toEqual([8, 1, 6, 7, 9, 3, 10, 11, 12, 4, 2, 5]);
  });

  it('sorts by roleId, then firstName within each role', async () => {
    expect(ids(await items('/users?sort=roleId,firstName'))).toEqual([1, 9, 6, 11, 2, 8, 7, 3, 10, 12, 4, 5]);
  });

  it('sorts by -roleId, then lastName within each role', async () => {
    expect(ids(await items('/users?sort=-roleId,lastName'))).toEqual([8, 7, 3, 10, 12, 4, 5, 6, 11, 2, 1, 9]);
  });

  it.each([
    ['firstName', 'first_name'],
    ['-firstName', '-first_name'],
    ['roleId,firstName', 'role_id,first_name'],
    ['-roleId,lastName', '-role_id,last_name'],
    ['roleId,-lastName', 'role_id,-lastName'],
  ])('accepts the snake_case spelling: sort=%s and sort=%s give the same order', async (camel, snake) => {
    expect(ids(await items(`/users?sort=${snake}`))).toEqual(ids(await items(`/users?sort=${camel}`)));
  });

  it('keeps the ID order without sort', async () => {
    expect(ids(await items('/users'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('sorts breaks descending by start', async () => {
    const all = await items('/breaks');
    const sorted = await items('/breaks?sort=-start');
    expect(ids(sorted)).toEqual(ids(sortedBy(all, '-start')));
    expect(ids(sorted)).toEqual(ids(all).reverse());
  });

  it('sorts breaks by breakRuleId, then -start', async () => {
    const all = await items('/breaks');
    const sorted = await items('/breaks?sort=breakRuleId,-start');
    expect(ids(sorted)).toEqual(ids(sortedBy(all, 'break_rule_id', '-start')));
    expect(sorted[0]!.break_rule_id).toBe(1);
    expect(sorted.at(-1)!.break_rule_id).toBe(2);
  });

  it('sorts breaks by break_rule_id and id spelt in snake_case', async () => {
    const all = await items('/breaks');
    expect(ids(await items('/breaks?sort=break_rule_id,-id'))).toEqual(ids(sortedBy(all, 'break_rule_id', '-id')));
  });

  it('sorts timesheets by userId, then -start', async () => {
    const all = await items('/timesheets');
    const sorted = await items('/timesheets?sort=userId,-start');
    expect(ids(sorted)).toEqual(ids(sortedBy(all, 'user_id', '-start')));
    expect(ids(await items('/timesheets?sort=user_id,-start'))).toEqual(ids(sorted));
  });

  it('applies the sort before paginating: page 2 continues the sorted order', async () => {
    const all = ids(await items('/users?sort=-firstName'));
    const second = await t.call('GET', '/users?sort=-firstName&page_size=5&page=2');
    expect(second.json.items.map((u: Item) => u.id)).toEqual(all.slice(5, 10));
  });

  it.each([
    ['/users', 'password'],
    ['/users', 'nope'],
    ['/users', '-'],
    ['/users', 'first-name'],
    ['/users', 'firstName,'],
    ['/users', 'firstName,bogus'],
    ['/users', 'FirstName'],
    ['/breaks', 'duration'],
    ['/breaks', 'timesheetId'],
    ['/timesheets', 'notes'],
  ])('rejects GET %s?sort=%s with 422 naming sort', async (path, sort) => {
    await expect422(`${path}?sort=${encodeURIComponent(sort)}`, 'sort');
  });

  // Bug: list-query.ts looks sort names up in a plain object (`fields[bare]`), so names inherited
  // from Object.prototype pass as sortable and the request is answered 200 unsorted.
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('rejects sort=%s, a name no endpoint sorts by, with 422', async (sort) => {
    await expect422(`/users?sort=${sort}`, 'sort');
  });
});

describe('search (§4.6)', () => {
  it('returns the users whose name or e-mail contains the value, and only those', async () => {
    const all = await items('/users');
    const found = await items('/users?search=ada');
    expect(ids(found)).toEqual([1, 8]);
    const matches = (u: Item) => [u.first_name, u.last_name, u.email].some((s: string) => s.toLowerCase().includes('ada'));
    expect(ids(found)).toEqual(ids(all.filter(matches)));
  });

  it('matches case-insensitively', async () => {
    expect(ids(await items('/users?search=ADA'))).toEqual([1, 8]);
    expect(ids(await items('/users?search=zimmer'))).toEqual([5]);
  });

  it('matches the e-mail address', async () => {
    expect(ids(await items('/users?search=dmitri.dvorak%40seed'))).toEqual([9]);
    expect(await items('/users?search=seed.clockcheck.test')).toHaveLength(12);
  });

  it('returns nothing (200, total 0) when nothing matches', async () => {
    const reply = await t.call('GET', '/users?search=no-such-person');
    expect(reply.status).toBe(200);
    expect(reply.json.items).toEqual([]);
    expect(reply.json.meta_data.pagination).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
  });

  it('treats characters with a special meaning elsewhere as plain text', async () => {
    for (const value of ['%', '_', '.*', '(', '\\']) {
      const reply = await t.call('GET', `/users?search=${encodeURIComponent(value)}`);
      expect(reply.status, value).toBe(200);
      for (const u of reply.json.items as Item[]) expect([u.first_name, u.last_name, u.email].join(' ').toLowerCase()).toContain(value);
    }
  });

  it('searches timesheet notes', async () => {
    const found = await items('/timesheets?search=stocktake');
    expect(ids(found)).toEqual([1, 4, 7, 10]);
    for (const sheet of found) expect(sheet.notes.toLowerCase()).toContain('stocktake');
  });

  it('combines search with sort and pagination', async () => {
    const reply = await t.call('GET', '/users?search=a&sort=-firstName&page_size=3');
    const all = await items('/users?search=a&sort=-firstName');
    expect(reply.json.items.map((u: Item) => u.id)).toEqual(ids(all).slice(0, 3));
    expect(reply.json.meta_data.pagination.total).toBe(all.length);
  });
});

describe('user filters active and role (§4.2)', () => {
  it('returns only active users for active=1', async () => {
    const found = await items('/users?active=1');
    expect(ids(found)).toEqual([...t.server.seed.allActiveUserIds]);
    for (const u of found) expect(u.active).toBe(true);
  });

  it('returns only inactive users for active=0', async () => {
    const found = await items('/users?active=0');
    expect(ids(found)).toEqual([4, 11]);
    for (const u of found) expect(u.active).toBe(false);
  });

  it('accepts active=true and active=false as 1 and 0', async () => {
    expect(ids(await items('/users?active=true'))).toEqual(ids(await items('/users?active=1')));
    expect(ids(await items('/users?active=false'))).toEqual(ids(await items('/users?active=0')));
  });

  it.each([
    [1, [1, 9]],
    [2, [2, 6, 11]],
    [3, [3, 4, 5, 7, 8, 10, 12]],
  ])('returns only users with role_id %i for role=%i', async (role, expected) => {
    const found = await items(`/users?role=${role}`);
    expect(ids(found)).toEqual(expected);
    for (const u of found) expect(u.role_id).toBe(role);
  });

  it('combines active=1 and role=2: the active managers only', async () => {
    expect(ids(await items('/users?active=1&role=2'))).toEqual([2, 6]);
  });

  it('combines the filters with search and sort', async () => {
    expect(ids(await items('/users?active=1&role=3&search=a&sort=-lastName'))).toEqual(
      ids(sortedBy((await items('/users?active=1&role=3&search=a')), '-last_name')),
    );
  });

  it.each(['2', 'yes', '-1', 'TRUE'])('rejects active=%s with 422', async (value) => {
    await expect422(`/users?active=${value}`, 'active');
  });

  it.each(['0', '4', 'admin', '1.0'])('rejects role=%s with 422', async (value) => {
    await expect422(`/users?role=${value}`, 'role');
  });

  // Bug: parseFilter in list-query.ts tests `raw in values`, which also finds Object.prototype's
  // names, so these are answered 200 with an empty list instead of the 422 other unknown values get.
  it.each([
    ['role', 'toString'],
    ['active', 'constructor'],
    ['role', '__proto__'],
  ])('rejects %s=%s with 422 like any other unknown filter value', async (name, value) => {
    await expect422(`/users?${name}=${value}`, name);
  });
});

describe('date_range (§4.6)', () => {
  it('returns the timesheets between the two dates, both included', async () => {
    const found = await items('/timesheets?date_range=2026-10-03,2026-10-05');
    expect(ids(found)).toEqual([3, 4, 5]);
    for (const sheet of found) expect(sheet.start.slice(0, 10) >= '2026-10-03' && sheet.start.slice(0, 10) <= '2026-10-05').toBe(true);
  });

  it('returns the timesheets of one day for a range of that day alone', async () => {
    expect(ids(await items('/timesheets?date_range=2026-10-20,2026-10-20'))).toEqual([t.server.seed.openTimesheetId]);
  });

  it('returns every timesheet for a range spanning all of them, and none for a range before them', async () => {
    expect(await items('/timesheets?date_range=2026-01-01,2026-12-31')).toHaveLength(13);
    expect(await items('/timesheets?date_range=2025-01-01,2025-12-31')).toEqual([]);
  });

  it('returns the breaks whose start falls between the two dates', async () => {
    const found = await items('/breaks?date_range=2026-10-03,2026-10-03');
    expect(ids(found)).toEqual([7, 8, 9]);
    for (const b of found) expect(b.start.startsWith('2026-10-03')).toBe(true);
    expect(await items('/breaks?date_range=2026-10-01,2026-10-12')).toHaveLength(36);
  });

  it('combines date_range with sort and pagination on /breaks', async () => {
    const reply = await t.call('GET', '/breaks?date_range=2026-10-02,2026-10-04&sort=-start&page_size=4&page=2');
    expect(reply.status).toBe(200);
    expect(reply.json.items.map((b: Item) => b.id)).toEqual([8, 7, 6, 5]);
    expect(reply.json.meta_data.pagination).toMatchObject({ total: 9, last_page: 3, from: 5, to: 8 });
  });

  it('returns nothing for a reversed range (200, not an error)', async () => {
    expect(await items('/timesheets?date_range=2026-10-05,2026-10-03')).toEqual([]);
  });

  it.each([
    ['/timesheets', '2026-10-03'],
    ['/timesheets', '2026-10-03,'],
    ['/timesheets', '10/03/2026,10/05/2026'],
    ['/timesheets', '2026-02-30,2026-03-01'],
    ['/timesheets', '2026-10-03,2026-10-05,2026-10-07'],
    ['/timesheets', '2026-1-3,2026-1-5'],
    ['/timesheets', 'last-week'],
    ['/breaks', '2026-10-03'],
    ['/breaks', '2026-13-01,2026-13-02'],
    ['/breaks', '2026-10-03;2026-10-05'],
  ])('rejects GET %s?date_range=%s with 422 naming date_range', async (path, range) => {
    await expect422(`${path}?date_range=${encodeURIComponent(range)}`, 'date_range');
  });
});

describe('sorting datetimes written with different offsets (§4.6)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sorts breaks by start instant, not by the text of start', async () => {
    const sheet = t.server.seed.openTimesheetId;
    const create = async (start: string, end: string) =>
      (await t.call('POST', '/breaks', { body: { timesheet_id: sheet, break_rule_id: 1, start, end } })).json.items.id as number;
    // 10:00Z written in UTC, then 11:00Z written at -05:00: the second sorts first as text.
    const early = await create('2026-10-21T10:00:00+00:00', '2026-10-21T10:10:00+00:00');
    const late = await create('2026-10-21T06:00:00-05:00', '2026-10-21T06:10:00-05:00');
    const ascending = await t.call('GET', '/breaks?sort=start', { body: { ids: [late, early] } });
    expect(ascending.json.items.map((b: { id: number }) => b.id)).toEqual([early, late]);
    const descending = await t.call('GET', '/breaks?sort=-start', { body: { ids: [late, early] } });
    expect(descending.json.items.map((b: { id: number }) => b.id)).toEqual([late, early]);
  });
});
