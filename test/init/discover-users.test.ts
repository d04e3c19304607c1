import { describe, expect, it } from 'vitest';
import { discoverUsers, type UserLists } from '../../src/init/discover-users.ts';
import { readList } from '../../src/init/list-answer.ts';
import { AUTO_READING } from '../../src/records/record-reading.ts';
import { exchangeFor, type Reply } from '../scenarios/support.ts';

type User = Record<string, unknown> & { id: number };
const list = (query: string, reply: Reply) => readList(exchangeFor({ method: 'GET', path: `/users?${query}` }, reply));
const page = (users: readonly User[]): Reply => ({ status: 200, json: { meta_data: { pagination: { total: users.length, next_page_url: null } }, items: users } });

/** The user lists of a target holding `users`, answering the filters as `filter` says. */
function lists(users: readonly User[], filter: (name: 'active' | 'role', value: number, user: User) => boolean | null): UserLists {
  const filtered = (name: 'active' | 'role', value: number): Reply => {
    const kept = users.filter((u) => filter(name, value, u));
    return users.some((u) => filter(name, value, u) === null) ? { status: 422, json: { message: `unknown ${name}` } } : page(kept);
  };
  return {
    all: list('page_size=100', page(users)),
    active: list('active=1', filtered('active', 1)),
    inactive: list('active=0', filtered('active', 0)),
    roles: { admin: list('role=1', filtered('role', 1)), manager: list('role=2', filtered('role', 2)), employee: list('role=3', filtered('role', 3)) },
  };
}

const honest = (name: 'active' | 'role', value: number, user: User) => (name === 'active' ? user.state === (value === 1) : user.r === value);
const TEAM: User[] = [
  { id: 10, r: 3, state: true },
  { id: 11, r: 1, state: true },
  { id: 12, r: 2, state: false },
  { id: 13, r: 2, state: true },
  { id: 14, r: 3, state: false },
];
/** Records that show active and role_id in a Laravel representation (1/0, "3"). */
const shown = TEAM.map((u) => ({ ...u, active: u.state ? 1 : 0, role_id: String(u.r) }));

describe('discoverUsers', () => {
  it('takes the records\' own active and role_id (by meaning), admin, manager and employee first', () => {
    const found = discoverUsers(lists(shown, honest), AUTO_READING);
    expect(found.activeUserIds.value).toEqual([11, 13, 10]);
    expect(found.inactiveUserId.value).toBe(12);
    expect(found.roleUserIds.value).toEqual({ admin: [11], manager: [13], employee: [10] });
    expect(found.warnings).toEqual([]);
    expect(found.activeUserIds).toMatchObject({ how: expect.stringContaining('records say active') });
  });

  it('warns when a filter disagrees with the records, and still takes the records\' word', () => {
    const activeIgnored = (name: 'active' | 'role', value: number, user: User) => (name === 'active' ? true : honest(name, value, user));
    const found = discoverUsers(lists(shown, activeIgnored), AUTO_READING);
    expect(found.inactiveUserId.value).toBe(12);
    expect(found.warnings[0]).toMatch(/active=1 → 200 lists users whose records say active false \(12, 14\): USR-LIST-FILTER-ACTIVE will fail/);
  });

  it('uses the filters alone when the records do not show the fields, only where they separate the users', () => {
    const bare = TEAM.map(({ id }) => ({ id, first_name: 'x' })) as User[];
    const byFilters = (name: 'active' | 'role', value: number, user: User) => honest(name, value, TEAM.find((t) => t.id === user.id)!);
    const found = discoverUsers(lists(bare, byFilters), AUTO_READING);
    expect(found.activeUserIds.value).toEqual([11, 13, 10]);
    expect(found.inactiveUserId).toMatchObject({ value: 12, how: expect.stringContaining('the records do not show active') });
    expect(found.roleUserIds.value).toEqual({ admin: [11], manager: [13], employee: [10] });
  });

  it('establishes nothing from filters that do not separate (ignored), and says why instead of guessing', () => {
    const bare = TEAM.map(({ id }) => ({ id })) as User[];
    const found = discoverUsers(lists(bare, () => true), AUTO_READING);
    expect(found.activeUserIds.value).toBeUndefined();
    expect(found.activeUserIds).toMatchObject({ why: expect.stringContaining('do not separate active from inactive users') });
    expect(found.inactiveUserId.value).toBeUndefined();
    expect(found.roleUserIds.value).toBeUndefined();
  });

  it('reports a target without inactive users as such', () => {
    const everyoneActive = shown.map((u) => ({ ...u, active: 1, state: true }));
    const found = discoverUsers(lists(everyoneActive, honest), AUTO_READING);
    expect(found.activeUserIds.value).toHaveLength(3);
    expect(found.inactiveUserId).toMatchObject({ why: expect.stringMatching(/^no inactive user on the target/) });
  });

  it('does not rest on a refused active=0 filter when the records do not show active', () => {
    const bare = TEAM.map(({ id }) => ({ id })) as User[];
    const noZero = (name: 'active' | 'role', value: number, user: User) => (name === 'active' && value === 0 ? null : honest(name, value, TEAM.find((t) => t.id === user.id)!));
    const found = discoverUsers(lists(bare, noZero), AUTO_READING);
    expect(found.inactiveUserId.value).toBeUndefined();
    expect(found.activeUserIds.value).toBeUndefined();
  });
});
