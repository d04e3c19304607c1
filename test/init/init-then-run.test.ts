import { afterEach, describe, expect, it } from 'vitest';
import { discoverProfile, type DiscoveredProfile } from '../../src/init/discover-profile.ts';
import { renderProfileYaml } from '../../src/init/profile-yaml.ts';
import type { DialectName } from '../../src/reference/dialect.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import { QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { parseProfile, type Profile } from '../../src/profile/profile.ts';
import type { RunReport } from '../../src/report/model.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(dialect: DialectName, prepare?: (server: ReferenceServer) => void): Promise<ReferenceServer> {
  const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT, dialect });
  servers.push(server);
  prepare?.(server);
  return server;
}

/** `clockcheck init` against the server: the discovery and the profile text it writes, parsed back as run reads it. */
async function init(server: ReferenceServer, probeWrites = false): Promise<{ found: DiscoveredProfile; text: string; profile: Profile }> {
  const found = await discoverProfile({ origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false, rateLimit: QUICK_RATE_LIMIT, probeWrites, progress: null });
  const text = renderProfileYaml(found, { target: server.origin, tokenEnv: 'CLOCKCHECK_TOKEN', caFile: '/tmp/ca.pem', insecure: false, toolVersion: '0.1.0', writtenAt: new Date(0) });
  const profile = parseProfile(text, 'clockcheck.profile.yaml');
  return { found, text, profile };
}

/** `clockcheck run --profile` with that profile (the window scaled like the embedded server's, no bursts). */
function run(server: ReferenceServer, profile: Profile, budget = 110): Promise<RunReport> {
  const window = { limit: QUICK_RATE_LIMIT.limit, window: QUICK_RATE_LIMIT.windowMs };
  return certifyServer(server, withoutBursts({ ...profile, rate_limit: { ...profile.rate_limit, ...window } }), { seed: 21, budget });
}

const problems = (report: RunReport) =>
  report.checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.id}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId} expected ${f.expected}; actual ${f.actual}`).join(' | ')}`);
const skippedFor = (report: RunReport, pattern: RegExp) => report.checks.filter((c) => c.status === 'skipped' && pattern.test(c.reason ?? '')).map((c) => c.id);

describe('clockcheck init, then clockcheck run --profile with the profile it wrote', () => {
  it.each(['standard', 'alternative', 'laravel', 'bare'] as const)('passes the %s dialect with 0 failures and skips nothing for a missing fixture', async (dialect) => {
    const server = await serve(dialect);
    const { found, text, profile } = await init(server);
    expect(found.requests).toBeLessThanOrEqual(30);
    expect(text).not.toContain(server.token);
    expect(profile.fixtures).toMatchObject({ active_user_ids: [1, 2, 3], inactive_user_id: 4, job_id: 1, task_id: 1 });
    expect(profile.fixtures.role_user_ids).toEqual({ admin: [1, 9], manager: [2, 6], employee: [3, 5, 7] });
    const report = await run(server, profile);
    expect(problems(report)).toEqual([]);
    expect(skippedFor(report, /^needs .*\(fixtures\./)).toEqual([]);
    // init reads the ends of a date_range and the id sort from the target (the reference lists both ends and sorts by id).
    expect(profile).toMatchObject({ date_range_ends: 'inclusive', sort_names: { id: 'id' } });
    // What remains skipped: the webhook extension and sink (not discoverable), the readings only a user declares,
    // the check of the ends init did not find, and the isolation checks (init was given no second company's token).
    expect(report.checks.filter((c) => c.status === 'skipped' && !c.id.startsWith('rate-limit/')).map((c) => c.id).sort()).toEqual([
      'isolation/items',
      'isolation/lists',
      'isolation/references',
      'query/date-range-ends-exclusive',
      'users/edit-requires-all-four',
      'users/edit-requires-none',
      'users/email-format-not-validated',
      'users/email-format-validated',
      'webhooks/notifications',
      'webhooks/unsubscribe',
      'webhooks/unsubscribe-deletes-configuration',
    ]);
  }, 120_000);

  it('finds what each dialect chose where the spec says "not shown", and with --probe-writes the statuses and id_pointer', async () => {
    const expected = {
      standard: { record_fields: 'snake', sort_names: { first_name: 'firstName', role_id: 'roleId', id: 'id' }, page_size_over_max: 'clamp', page_links: 'keep-query', status_codes: { unauthenticated: 401, create: 201, update: 200, validation: 422 }, id_pointer: '/items/id' },
      alternative: { record_fields: 'camel', sort_names: { first_name: 'firstName', role_id: 'roleId', id: 'id' }, page_size_over_max: 'reject', page_links: 'page-only', status_codes: { unauthenticated: 403, create: 200, update: 200, validation: 400 }, id_pointer: '/data/id' },
      laravel: { record_fields: 'snake', sort_names: { first_name: 'first_name', role_id: 'role_id', id: 'id' }, page_size_over_max: 'clamp', page_links: 'page-only', status_codes: { unauthenticated: 401, create: 200, update: 200, validation: 422 }, id_pointer: '/items/id' },
      bare: { record_fields: 'camel', sort_names: { first_name: 'firstName', role_id: 'roleId', id: 'id' }, page_size_over_max: 'reject', page_links: 'keep-query', status_codes: { unauthenticated: 401, create: 201, update: 200, validation: 422 }, id_pointer: '/id' },
    } as const;
    for (const dialect of ['standard', 'alternative', 'laravel', 'bare'] as const) {
      const server = await serve(dialect);
      const { found, profile } = await init(server, true);
      expect(profile, dialect).toMatchObject({ ...expected[dialect], versioned_prefix: '/api/v2', date_range_ends: 'inclusive' });
      expect(found.requests, dialect).toBeLessThanOrEqual(30);
      const user = expect.stringMatching(/^user \d+, clockcheck\.init\.[0-9a-f]+@example\.com \(POST \/api\/public\/users → 20[01]\)$/);
      // The timesheet fixture needs start and end with an offset: the laravel records write clock_in_time
      // without one, so the writes create a closed timesheet (in UTC) for it.
      if (dialect === 'laravel') {
        expect(found.writes?.created, dialect).toEqual([user, expect.stringMatching(/^timesheet \d+ of user 1, 2026-03-02T09:00:00\+00:00 to 2026-03-02T17:00:00\+00:00 \(POST \/api\/public\/timesheets → 200\)$/)]);
        expect(profile.fixtures.timesheet).toEqual({ id: expect.any(Number), start: '2026-03-02T09:00:00+00:00', end: '2026-03-02T17:00:00+00:00' });
      } else {
        expect(found.writes?.created, dialect).toEqual([user]);
        expect(profile.fixtures.timesheet).toEqual({ id: 1, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' });
      }
    }
  }, 60_000);

  it('passes with the exact statuses --probe-writes found, in every dialect', async () => {
    for (const dialect of ['standard', 'alternative', 'laravel'] as const) {
      const server = await serve(dialect);
      const { profile } = await init(server, true);
      const report = await run(server, profile, 0);
      expect(problems(report), dialect).toEqual([]);
    }
  }, 120_000);

  it('against a server with no inactive user and no breaks, says so, and run skips only what depends on them', async () => {
    const server = await serve('standard', ({ context }) => {
      for (const user of context.users.all()) context.users.replace({ ...user, active: true });
      for (const found of context.breaks.all()) context.breaks.remove(found.id);
    });
    const { found, text, profile } = await init(server);
    expect(found.inactiveUserId.value).toBeUndefined();
    expect(found.breakRuleId.value).toBeUndefined();
    expect(text).toMatch(/# NOT FOUND: no inactive user on the target[\s\S]*\n {2}# inactive_user_id: <ID of an inactive user>\n/);
    expect(text).toMatch(/# NOT FOUND: GET \/api\/public\/breaks\?page_size=101 → 200: the target has no breaks[\s\S]*\n {2}# break_rule_id: <ID of a break rule>\n/);
    expect(profile.fixtures.inactive_user_id).toBeUndefined();
    expect(profile.fixtures.break_rule_id).toBeUndefined();
    const report = await run(server, profile);
    expect(problems(report)).toEqual([]);
    const skipped = (fixture: string) => skippedFor(report, new RegExp(`^needs an? [a-z ]+ \\(fixtures\\.${fixture}\\)`)).sort();
    expect(skipped('inactive_user_id')).toEqual(['query/filter-active', 'schedules/inactive-users-rejected', 'schedules/update-inactive-users']);
    expect(skipped('break_rule_id')).toEqual([
      'breaks/create-required-fields',
      'breaks/create-response',
      'breaks/datetime-format',
      'breaks/end-after-start',
      'breaks/ids-filter',
      'breaks/ids-null-empty-absent-list-all',
      'breaks/list-response',
      'breaks/references-exist',
      'breaks/within-open-timesheet',
      'breaks/within-timesheet',
      'properties/break-create',
      'stored/break-in-its-timesheet-zone',
    ]);
    // The break walks need breaks the target does not hold, and none can be made without a break rule.
    expect(skippedFor(report, /^needs 11 breaks to see a second page at the default page size of 10; the target holds 0, and breaks can be created only with a break rule \(fixtures\.break_rule_id\)/)).toEqual(['pagination/breaks-pages']);
    expect(skippedFor(report, /^needs .*\(fixtures\./).length).toBe(16);
  }, 120_000);
});
