import { afterAll, describe, expect, it } from 'vitest';
import type { ListNeed } from '../../src/checks/list-need.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { RunStopped, type StopCause } from '../../src/errors.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import type { PropertyFamily } from '../../src/properties/family.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { CheckStep } from '../../src/scenarios/format.ts';
import type { Census, ListCount } from '../../src/needs/census.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { decide } from '../../src/needs/fates.ts';
import { Interruption } from '../../src/execute/interruption.ts';
import { meetNeeds, type NeedsRun } from '../../src/needs/meet-needs.ts';
import { uniqueValues } from '../../src/needs/unique-values.ts';
import type { CheckNeeds, Role } from '../../src/needs/needs.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import { exchangeFor, type Reply } from '../scenarios/support.ts';

const step = (args: Record<string, unknown>): CheckStep => ({ check: 'pagination-walk', args }) as CheckStep;

function needs(checkId: string, parts: { lists?: ListNeed[]; roles?: Role[]; activeUser?: boolean }): CheckNeeds & { steps: CheckStep[] } {
  const steps = (parts.lists ?? []).map((need) => step({ path: need.list, ...(need.pageSize ? { page_size: need.pageSize } : {}) }));
  return {
    checkId,
    lists: (parts.lists ?? []).map((need, i) => ({ need, step: steps[i]! })),
    roles: parts.roles ?? [],
    activeUser: parts.activeUser ?? false,
    fixtures: [],
    steps,
  };
}

const count = (total: number): ListCount => ({ total, atLeast: false, items: [], exchange: {} as ListCount['exchange'] });

function census(parts: Partial<Census> & { totals?: Partial<Record<'/users' | '/timesheets' | '/breaks', number>> }): Census {
  return {
    lists: new Map(Object.entries(parts.totals ?? {}).map(([list, n]) => [list as '/users', count(n as number)])),
    roleUsers: parts.roleUsers ?? {},
    activeUsers: parts.activeUsers ?? [],
    inactiveUser: parts.inactiveUser ?? null,
    breakRule: parts.breakRule ?? null,
  };
}

const profile = (fixtures: Profile['fixtures'] = {}): Profile => ({ ...defaultProfile(), fixtures });
const writable = { readOnly: false, createAdmins: false };

describe('the fate of a check that needs data', () => {
  it('runs as written on a target that holds enough', () => {
    const walk = needs('pagination/walk', { lists: [{ list: '/users', items: 6, pageSize: 5 }] });
    const decided = decide([walk], census({ totals: { '/users': 12 } }), profile({ active_user_ids: [1] }), writable);
    expect(decided.skips.size + decided.adaptations.size + decided.provisioned.size).toBe(0);
    expect(decided.provisioning).toEqual({ users: [], moreUsers: 0, timesheets: 0, breaks: 0 });
  });

  it('adapts a walk to two pages of what exists before it creates anything: 4 users at page_size 3', () => {
    const walk = needs('pagination/walk', { lists: [{ list: '/users', items: 6, pageSize: 5 }] });
    const decided = decide([walk], census({ totals: { '/users': 4 } }), profile({ active_user_ids: [1] }), writable);
    expect(decided.adaptations.get(walk.steps[0]!)).toEqual({ args: { path: '/users', page_size: 3 }, note: expect.stringMatching(/^page_size 3 instead of 5: the target holds 4 users/) });
    expect(decided.provisioning.moreUsers).toBe(0);
  });

  it('does not adapt a walk whose list the same check fills up for a larger need: it runs at the page_size it names', () => {
    // pagination/breaks-pages: a walk at the default 10 (11 breaks) and one at page_size 7 (8 breaks), on a target holding 5.
    const pages = needs('pagination/breaks-pages', { lists: [{ list: '/breaks', items: 8, pageSize: 7 }, { list: '/breaks', items: 11 }] });
    const decided = decide([pages], census({ totals: { '/breaks': 5 } }), profile({ active_user_ids: [1], break_rule_id: 1 }), writable);
    expect(decided.adaptations.size).toBe(0);
    expect(decided.provisioning.breaks).toBe(6);
    expect([...decided.provisioned]).toEqual(['pagination/breaks-pages']);
  });

  it('creates what a walk at the default page size needs, once for every check that needs it', () => {
    const walkA = needs('pagination/a', { lists: [{ list: '/users', items: 11 }] });
    const walkB = needs('pagination/b', { lists: [{ list: '/users', items: 11 }, { list: '/timesheets', items: 8, pageSize: 7 }] });
    const decided = decide([walkA, walkB], census({ totals: { '/users': 1, '/timesheets': 0 } }), profile({ active_user_ids: [1] }), writable);
    expect(decided.provisioning).toEqual({ users: [], moreUsers: 10, timesheets: 8, breaks: 0 });
    expect([...decided.provisioned]).toEqual(['pagination/a', 'pagination/b']);
  });

  it('finds a user of a role in the census before it creates one, and creates the one it does not find', () => {
    const filter = needs('query/filter-role', { roles: ['admin', 'employee'] });
    const decided = decide([filter], census({ totals: { '/users': 1 }, roleUsers: { admin: 1 }, activeUsers: [1] }), profile(), writable);
    expect(decided.found.role_user_ids).toEqual({ admin: [1] });
    expect(decided.provisioning.users).toEqual(['employee']);
    expect(decided.skips.size).toBe(0);
  });

  it('never creates an admin unless the run may: the need is a skip that names the flag', () => {
    const filter = needs('query/filter-role', { roles: ['admin'] });
    const decided = decide([filter], census({ totals: { '/users': 0 } }), profile(), writable);
    expect(decided.skips.get('query/filter-role')).toMatch(/^needs an admin \(role 1\) user \(fixtures\.role_user_ids\.admin\): .*--create-admin-users/);
    expect(decided.provisioning.users).toEqual([]);
    expect(decide([filter], census({ totals: { '/users': 0 } }), profile(), { readOnly: false, createAdmins: true }).provisioning.users).toEqual(['admin']);
  });

  it('under --read-only names the need it would have met: "needs 11 users … the target holds 4 … read-only"', () => {
    const walk = needs('pagination/walk', { lists: [{ list: '/users', items: 11 }] });
    const decided = decide([walk], census({ totals: { '/users': 4 } }), profile({ active_user_ids: [1] }), { readOnly: true, createAdmins: false });
    expect(decided.skips.get('pagination/walk')).toBe('needs 11 users to see a second page at the default page size of 10; the target holds 4, and the run is read-only (it would create 7)');
  });

  it('does not create breaks without a break rule: the API cannot make one', () => {
    const walk = needs('pagination/breaks', { lists: [{ list: '/breaks', items: 11 }] });
    const decided = decide([walk], census({ totals: { '/breaks': 0 } }), profile({ active_user_ids: [1] }), writable);
    expect(decided.skips.get('pagination/breaks')).toMatch(/breaks can be created only with a break rule \(fixtures\.break_rule_id\)/);
    const withRule = decide([walk], census({ totals: { '/breaks': 0 } }), profile({ active_user_ids: [1], break_rule_id: 2 }), writable);
    expect(withRule.provisioning.breaks).toBe(11);
  });

  it('creates an employee to own timesheets when no active user is known', () => {
    const walk = needs('pagination/timesheets', { lists: [{ list: '/timesheets', items: 8, pageSize: 7 }] });
    const decided = decide([walk], census({ totals: { '/timesheets': 0, '/users': 0 } }), profile(), writable);
    expect(decided.provisioning.users).toEqual(['employee']);
    expect(decided.provisioning.timesheets).toBe(8);
  });

  it('leaves a list the target did not serve to the check, which judges why', () => {
    const walk = needs('pagination/walk', { lists: [{ list: '/users', items: 11 }] });
    const unserved: Census = { ...census({}), lists: new Map([['/users', null]]) };
    const decided = decide([walk], unserved, profile({ active_user_ids: [1] }), writable);
    expect(decided.skips.size + decided.provisioned.size).toBe(0);
    expect(decided.provisioning.moreUsers).toBe(0);
  });
});

/**
 * A run as meetNeeds reads it: one property family (its generated cases name an active user)
 * or none, the profile, and a target that answers `reply` (or throws it).
 */
function fakeRun(profile: Profile, reply: (request: TargetRequest) => Reply, families = 1) {
  const sent: TargetRequest[] = [];
  const family = { name: 'user-edit', needs: null } as unknown as PropertyFamily;
  const run: NeedsRun = {
    checks: { scenarios: [], families: Array.from({ length: families }, () => family), casesPerFamily: 1 },
    profile,
    readOnly: false,
    seed: 1,
    send: async (request: TargetRequest) => {
      sent.push(request);
      return exchangeFor(request, reply(request));
    },
    unique: uniqueValues(),
    ledger: { add: () => {} },
    notes: [],
  };
  return { run, sent };
}

const listed = (...users: { id: number; active: boolean; role_id: number }[]): Reply => ({ status: 200, json: { items: users } });

describe('meetNeeds: the profile checked against the target before anything is decided or created', () => {
  it('a contradicted profile: one GET /users?page_size=100, the contradiction, nothing created', async () => {
    const { run, sent } = fakeRun(profile({ active_user_ids: [17] }), () => listed({ id: 1, active: true, role_id: 3 }));
    const fates = await meetNeeds(run, false);
    expect(fates.contradiction?.key).toBe('fixtures.active_user_ids');
    expect(fates.contradiction?.evidence.map((e) => e.request.url)).toEqual([expect.stringMatching(/\/users\?page_size=100$/)]);
    expect(sent).toEqual([{ method: 'GET', path: '/users', query: { page_size: 100 } }]);
    expect(fates.profile.fixtures).toEqual({ active_user_ids: [17] });
  });

  it('a profile the target bears out: the same one GET, no contradiction, the fates as before', async () => {
    const { run, sent } = fakeRun(profile({ active_user_ids: [1] }), () => listed({ id: 1, active: true, role_id: 3 }));
    const fates = await meetNeeds(run, false);
    expect(fates.contradiction).toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(fates.skips.size + fates.errors.size).toBe(0);
  });

  it('sends nothing when the profile declares no user, or no planned check names one', async () => {
    const none = fakeRun(profile({ job_id: 1 }), () => listed(), 0);
    expect(await meetNeeds(none.run, false)).toEqual({ profile: none.run.profile, skips: new Map(), errors: new Map(), adaptations: new Map() });
    const unnamed = fakeRun(profile({ active_user_ids: [17] }), () => listed(), 0);
    expect((await meetNeeds(unnamed.run, false)).contradiction).toBeUndefined();
    expect([...none.sent, ...unnamed.sent]).toEqual([]);
  });

  it.each(['budget', 'interrupted'] as StopCause[])('stopped (%s) while it counted: no check errored, the execute stage reports them not run', async (cause) => {
    const { run } = fakeRun(profile({ active_user_ids: [1] }), () => {
      throw new RunStopped(cause === 'budget' ? 'budget (--max-requests 3) spent: 3 requests made' : 'interrupted by SIGINT', cause);
    });
    const fates = await meetNeeds(run, false);
    expect(fates.errors.size).toBe(0);
    expect(fates.contradiction).toBeUndefined();
  });

  it('stopped by the target while it counted: the checks that needed data errored, as before', async () => {
    const { run } = fakeRun(profile({ active_user_ids: [1] }), () => {
      throw new RunStopped('the target stopped answering');
    });
    const fates = await meetNeeds(run, false);
    expect(fates.errors.get('properties/user-edit')?.reason).toBe('the run stopped while it counted and made what this check needs: the target stopped answering');
  });
});

describe('a run a signal stops at its preflight', () => {
  const servers: ReferenceServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('is not made: the preflight and every check not run with the signal named, nothing judged, exit 130', async () => {
    const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT });
    servers.push(server);
    const interruption = new Interruption();
    interruption.receive('SIGINT');
    const report = await certifyServer(server, withoutBursts(embeddedProfile({ ...server, rateLimit: QUICK_RATE_LIMIT })), { only: ['auth'], interruption });
    expect(report.runError).toBe('interrupted by SIGINT');
    expect(report.requests.made).toBe(0);
    expect(report.checks.find((c) => c.id === 'auth/token-form')).toMatchObject({ status: 'not-run', reason: 'interrupted by SIGINT' });
    const others = report.checks.filter((c) => c.id !== 'auth/token-form');
    expect(others.length).toBeGreaterThan(0);
    for (const check of others) expect(check).toMatchObject({ status: 'not-run', reason: 'not run: interrupted by SIGINT' });
    expect(report.status).toBe('interrupted');
    expect(report.exitCode).toBe(130);
  }, 60_000);
});
