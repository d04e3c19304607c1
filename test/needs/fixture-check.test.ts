import { afterAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { censusLists, declaresUserFixtures, isUserFixture, type Census, type ListCount } from '../../src/needs/census.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { fixtureContradiction } from '../../src/needs/fixture-check.ts';
import type { CheckNeeds } from '../../src/needs/needs.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';

const exchange = { id: 7, durationMs: 3 } as Exchange;
const REMEDY = ': fix the key, or run `clockcheck init` again to write the profile from the target';

/** A user record as a target may list it. */
const user = (id: unknown, active: unknown, role_id: unknown = 3): Record<string, unknown> => ({ id, first_name: `User ${String(id)}`, active, role_id });

/** A census whose GET /users (exchange 7) listed `items`: complete unless `count` says otherwise. */
function census(items: readonly unknown[] | null, count: Partial<ListCount> = {}): Census {
  const listed: ListCount | null = items === null ? null : { total: items.length, atLeast: false, items, exchange, ...count };
  return { lists: new Map([['/users', listed]]), roleUsers: {}, activeUsers: [], inactiveUser: null, breakRule: null };
}

const profile = (fixtures: Profile['fixtures'], readings: Partial<Profile> = {}): Profile => ({ ...defaultProfile(), ...readings, fixtures });

/** Four users: an admin (1), a manager (2), an employee (3), an inactive employee (4). */
const company = [user(1, true, 1), user(2, true, 2), user(3, true, 3), user(4, false, 3)];
const right: Profile['fixtures'] = { active_user_ids: [1, 2, 3], inactive_user_id: 4, role_user_ids: { admin: [1], manager: [2], employee: [3] } };

describe('fixtureContradiction: the profile\'s user fixtures against the target\'s user list', () => {
  it('finds nothing against a profile the list bears out', () => {
    expect(fixtureContradiction(census(company), profile(right))).toBeNull();
  });

  it('a declared user the complete list does not hold: the key, the ID, the list and its exchange, and what to do', () => {
    const found = fixtureContradiction(census(company), profile({ ...right, active_user_ids: [1, 17] }));
    expect(found).toEqual({
      key: 'fixtures.active_user_ids',
      reason: `user 17 is not among the 4 users GET /users?page_size=100 lists (exchange 7, every user on one page)${REMEDY}`,
      evidence: [exchange],
    });
    expect(fixtureContradiction(census(company), profile({ role_user_ids: { manager: [40] } }))?.key).toBe('fixtures.role_user_ids.manager');
    expect(fixtureContradiction(census(company), profile({ inactive_user_id: 40 }))?.key).toBe('fixtures.inactive_user_id');
  });

  it('an active user (active_user_ids) whose record reads active false, by meaning; a role user may be inactive (the role filter returns both)', () => {
    const laravel = [user(1, 1, 1), user(2, 1, 2), user(3, 0, 3), user(4, 0, 3)];
    expect(fixtureContradiction(census(laravel), profile({ active_user_ids: [1, 3] }))).toEqual({
      key: 'fixtures.active_user_ids',
      reason: `user 3 reads active 0 in GET /users?page_size=100 (exchange 7), where the key names an active user${REMEDY}`,
      evidence: [exchange],
    });
    expect(fixtureContradiction(census(laravel), profile({ role_user_ids: { employee: [3, 4] } }))).toBeNull();
  });

  it('an inactive_user_id whose record reads active true', () => {
    const found = fixtureContradiction(census(company), profile({ inactive_user_id: 2 }));
    expect(found?.key).toBe('fixtures.inactive_user_id');
    expect(found?.reason).toBe(`user 2 reads active true in GET /users?page_size=100 (exchange 7), where the key names an inactive user${REMEDY}`);
  });

  it('a role user whose role_id reads another role (§2.2: 1 Admin, 2 Manager, 3 Employee), camelCase records too', () => {
    const found = fixtureContradiction(census(company), profile({ role_user_ids: { admin: [1], manager: [3] } }));
    expect(found?.key).toBe('fixtures.role_user_ids.manager');
    expect(found?.reason).toBe(`user 3 reads role_id 3 in GET /users?page_size=100 (exchange 7), where the key names a manager (role 2)${REMEDY}`);
    const camel = [{ id: 1, active: true, roleId: '3' }];
    expect(fixtureContradiction(census(camel), profile({ role_user_ids: { admin: [1] } }, { record_fields: 'camel' }))?.reason).toMatch(/^user 1 reads role_id "3" in GET/);
  });

  it('the first contradiction wins: active_user_ids, inactive_user_id, then the roles admin, manager, employee', () => {
    const wrongEverywhere: Profile['fixtures'] = { active_user_ids: [4], inactive_user_id: 1, role_user_ids: { admin: [2], manager: [1], employee: [99] } };
    const keys: string[] = [];
    let fixtures = wrongEverywhere;
    for (let found = fixtureContradiction(census(company), profile(fixtures)); found !== null; found = fixtureContradiction(census(company), profile(fixtures))) {
      keys.push(found.key);
      fixtures = withoutKey(fixtures, found.key);
    }
    expect(keys).toEqual(['fixtures.active_user_ids', 'fixtures.inactive_user_id', 'fixtures.role_user_ids.admin', 'fixtures.role_user_ids.manager', 'fixtures.role_user_ids.employee']);
  });

  it('a list that is not complete, or not served, proves nothing', () => {
    const wrong = profile({ active_user_ids: [17] });
    expect(fixtureContradiction(census(company, { total: 30 }), wrong)).toBeNull(); // more users than the page holds
    expect(fixtureContradiction(census(company, { atLeast: true }), wrong)).toBeNull();
    expect(fixtureContradiction(census(null), wrong)).toBeNull(); // the list was not served
    expect(fixtureContradiction({ ...census([]), lists: new Map() }, wrong)).toBeNull(); // not read at all
    // A full page whose block counts 100 may still be followed by another page.
    const hundred = Array.from({ length: 100 }, (_, i) => user(i + 1, true));
    expect(fixtureContradiction(census(hundred), profile({ active_user_ids: [101] }))).toBeNull();
  });

  it('a field that cannot be read proves nothing: no active, a role_id that is no number, a record without an ID', () => {
    expect(fixtureContradiction(census([{ id: 1, role_id: 1 }]), profile({ active_user_ids: [1], inactive_user_id: 1 }))).toBeNull();
    expect(fixtureContradiction(census([user(1, 'yes', 'admin')]), profile({ role_user_ids: { manager: [1] }, inactive_user_id: 1 }))).toBeNull();
    // Some record reads no ID: the declared user may be that one.
    expect(fixtureContradiction(census([...company, { first_name: 'No ID', active: true }]), profile({ active_user_ids: [17] }))).toBeNull();
  });

  it('an inactive user missing from a list that shows no inactive user proves nothing: the list may leave them out', () => {
    const activeOnly = company.slice(0, 3);
    expect(fixtureContradiction(census(activeOnly), profile({ inactive_user_id: 4 }))).toBeNull();
    expect(fixtureContradiction(census(activeOnly), profile({ active_user_ids: [4] }))?.key).toBe('fixtures.active_user_ids');
  });

  it('names the user fixtures a check may name, and whether a profile declares any', () => {
    expect(['fixtures.active_user_ids', 'fixtures.inactive_user_id', 'fixtures.role_user_ids.admin'].every(isUserFixture)).toBe(true);
    expect(['fixtures.break_rule_id', 'fixtures.job_id', 'fixtures.role_user_ids'].some(isUserFixture)).toBe(false);
    expect(declaresUserFixtures(profile({ job_id: 1, break_rule_id: 2 }))).toBe(false);
    expect(declaresUserFixtures(profile({ role_user_ids: { employee: [] } }))).toBe(false);
    expect(declaresUserFixtures(profile({ role_user_ids: { employee: [3] } }))).toBe(true);
    expect(declaresUserFixtures(profile({ inactive_user_id: 4 }))).toBe(true);
  });
});

describe('the census reads the users\' list for the profile\'s user fixtures', () => {
  const named = (checkId: string, fixtures: string[], activeUser = false): CheckNeeds => ({ checkId, lists: [], roles: [], activeUser, fixtures });

  it('when the profile declares a user a planned check names, even a check that needs no data', () => {
    const refusedWrite = named('auth/missing-token-refused-on-write', ['fixtures.active_user_ids'], true);
    expect([...censusLists([refusedWrite], profile(right))]).toEqual(['/users']);
    expect([...censusLists([named('schedules/inactive', ['fixtures.inactive_user_id'])], profile({ inactive_user_id: 4 }))]).toEqual(['/users']);
  });

  it('never when no planned check names a user, nor when the profile declares none: a run sends nothing then', () => {
    expect(censusLists([named('breaks/shape', ['fixtures.break_rule_id'])], profile({ ...right, break_rule_id: 2 })).size).toBe(0);
    expect(censusLists([], profile(right)).size).toBe(0);
    expect(censusLists([named('breaks/shape', ['fixtures.job_id'])], profile({ job_id: 1 })).size).toBe(0);
  });

  it('the users once, whatever asks for them: a missing fixture and a declared one share the one GET', () => {
    const needsAdmin: CheckNeeds = { ...named('query/filter-role', ['fixtures.role_user_ids.admin', 'fixtures.active_user_ids'], true), roles: ['admin'] };
    expect([...censusLists([needsAdmin], profile({ active_user_ids: [1] }))]).toEqual(['/users']);
  });
});

/** The fixtures without the contradicted key (a role's list, or the key itself). */
function withoutKey(fixtures: Profile['fixtures'], key: string): Profile['fixtures'] {
  const role = /^fixtures\.role_user_ids\.(admin|manager|employee)$/.exec(key)?.[1] as 'admin' | 'manager' | 'employee' | undefined;
  if (role !== undefined) return { ...fixtures, role_user_ids: { ...fixtures.role_user_ids, [role]: [] } };
  const rest: Record<string, unknown> = { ...fixtures };
  delete rest[key.replace(/^fixtures\./, '')];
  return rest as Profile['fixtures'];
}

describe('a profile whose user fixtures the target contradicts, certified against the reference server', () => {
  const servers: ReferenceServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** Certifies a fresh reference server with its own profile, `fixtures` changed; checks that use the active users (and create records). */
  async function certifyWith(edit: (fixtures: Profile['fixtures']) => Profile['fixtures']): Promise<RunReport> {
    const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT });
    servers.push(server);
    const own = embeddedProfile({ ...server, rateLimit: QUICK_RATE_LIMIT });
    return certifyServer(server, withoutBursts({ ...own, fixtures: edit(own.fixtures) }), { only: ['auth', 'timesheets'] });
  }

  const sent = (report: RunReport) => report.checks.flatMap((c) => c.exchanges.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`));

  it('fixtures.active_user_ids: [999]: a profile error before any check runs, exit 2, nothing failed and nothing created', async () => {
    const report = await certifyWith((fixtures) => ({ ...fixtures, active_user_ids: [999] }));
    expect(report.runError).toMatch(/^profile: fixtures\.active_user_ids: user 999 is not among the \d+ users GET \/users\?page_size=100 lists \(exchange \d+, every user on one page\): fix the key, or run `clockcheck init` again/);
    expect(report.exitCode).toBe(2);
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    const evidence = report.checks.find((c) => c.id === 'run/profile')!;
    expect(evidence).toMatchObject({ status: 'errored', reason: report.runError, rules: [] });
    expect(sent({ ...report, checks: [evidence] })).toEqual(['GET /api/public/users']);
    // Every check but the preflight's and the evidence is not run, naming the key; nothing was sent for them.
    const others = report.checks.filter((c) => c.id !== 'run/profile' && c.id !== 'auth/token-form');
    expect(others.length).toBeGreaterThan(0);
    for (const check of others) expect(check.reason, check.id).toBe('not run: the profile contradicts the target: fixtures.active_user_ids');
    expect(sent(report).filter((call) => !call.startsWith('GET '))).toEqual([]);
    expect(report.createdResources).toEqual([]);
  }, 60_000);

  it('the same run with the profile the target bears out: no contradiction, the checks judge the target', async () => {
    const report = await certifyWith((fixtures) => fixtures);
    expect(report.runError).toBeUndefined();
    expect(report.checks.some((c) => c.id === 'run/profile')).toBe(false);
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`)).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(0);
    expect(report.exitCode).toBe(0);
  }, 60_000);
});
