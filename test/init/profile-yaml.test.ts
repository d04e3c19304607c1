import { describe, expect, it } from 'vitest';
import { found, notFound } from '../../src/init/discovery.ts';
import type { DiscoveredProfile } from '../../src/init/discover-profile.ts';
import { flow, renderProfileYaml } from '../../src/init/profile-yaml.ts';
import { parseProfile } from '../../src/profile/profile.ts';

const discovered: DiscoveredProfile = {
  scheme: 'raw',
  activeUserIds: found([5, 6], 'GET /api/public/users?active=1 → 200: the records say active'),
  inactiveUserId: notFound('no inactive user on the target'),
  roleUserIds: found({ admin: [5], employee: [6] }, 'records give role_id'),
  jobId: found(3, 'timesheet 9 names job 3'),
  taskId: notFound('their records do not show task_id'),
  breakRuleId: found(2, 'break 1 has break_rule_id 2'),
  timesheet: found({ id: 9, start: '2030-01-02T08:00:00+01:00', end: '2030-01-02T16:00:00+01:00' }, 'timesheet 9 is closed'),
  companyTimezone: notFound('the API shows no company settings'),
  unauthenticated: found(401, 'GET /users → 401 with a token never issued, and 401 without a token'),
  recordFields: found('camel', 'firstName'),
  listItems: found('/result/rows', 'the users are at /result/rows'),
  sortNames: notFound('no spelling sorted'),
  dateRangeEnds: found('inclusive', 'GET /api/public/timesheets?date_range=… lists timesheet 9 on both end dates'),
  pageSizeOverMax: found('reject', 'refused'),
  pageLinks: found('page-only', 'page alone'),
  versionedPrefix: notFound('no versioned prefix'),
  rateLimit: found({ limit: 100, window: '1m' }, 'GET /api/public/users?page_size=100 → 200: X-RateLimit-Limit: 100'),
  writes: null,
  secondCompany: null,
  warnings: ['X-RateLimit-Limit says 100'],
  requests: 16,
};
const origin = { target: 'https://api.example.com:8443', tokenEnv: 'ACME_TOKEN', caFile: '/etc/acme/ca.pem', insecure: false, toolVersion: '0.1.0', writtenAt: new Date('2026-11-22T12:00:00Z') };

describe('renderProfileYaml', () => {
  it('writes a profile run reads as it is: the keys found, with the token env and trust', () => {
    const profile = parseProfile(renderProfileYaml(discovered, origin), 'p.yaml');
    expect(profile).toMatchObject({
      target: 'https://api.example.com:8443',
      token_env: 'ACME_TOKEN',
      tls: { ca: '/etc/acme/ca.pem', insecure: false },
      fixtures: { active_user_ids: [5, 6], role_user_ids: { admin: [5], employee: [6] }, job_id: 3, break_rule_id: 2, timesheet: { id: 9, start: '2030-01-02T08:00:00+01:00', end: '2030-01-02T16:00:00+01:00' } },
      status_codes: { unauthenticated: 401 },
      record_fields: 'camel',
      list_items: '/result/rows',
      page_size_over_max: 'reject',
      page_links: 'page-only',
      sort_names: {},
      date_range_ends: 'inclusive',
      user_email_format: 'either',
      rate_limit: { limit: 100, window: 60_000, bursts: true },
    });
    expect(profile.fixtures.inactive_user_id).toBeUndefined();
    expect(profile.versioned_prefix).toBeUndefined();
  });

  it('says how each key was found, and leaves each key not found as a commented line with its reason', () => {
    const text = renderProfileYaml(discovered, origin);
    expect(text).toContain('  # timesheet 9 names job 3\n  job_id: 3\n');
    expect(text).toContain('  # NOT FOUND: no inactive user on the target\n  # inactive_user_id: <ID of an inactive user>\n');
    expect(text).toContain('# NOT FOUND: the API shows no company settings\n# company_timezone: <IANA zone, e.g. America/Chicago>\n');
    expect(text).toContain('# NOT FOUND: no spelling sorted\n# sort_names: { first_name: firstName, role_id: roleId }\n');
    expect(text).toContain('# GET /api/public/timesheets?date_range=… lists timesheet 9 on both end dates\ndate_range_ends: inclusive\n');
    expect(renderProfileYaml({ ...discovered, dateRangeEnds: notFound('no timesheet') }, origin)).toContain(
      '# NOT FOUND: no timesheet\n# date_range_ends: either   # or inclusive, exclusive: are records on the two end dates of a date_range listed?\n',
    );
    expect(text).toContain('# Warnings:\n# - X-RateLimit-Limit says 100\n');
    expect(text).toMatch(/^# yaml-language-server: \$schema=\S+\n# clockcheck target profile for https:\/\/api\.example\.com:8443\n/);
    expect(text).toContain('clockcheck reads it from $ACME_TOKEN');
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(140);
  });
});

describe('renderProfileYaml: rate_limit', () => {
  it('writes the limit found with the header that stated it, and the keys only a user sets commented', () => {
    const text = renderProfileYaml(discovered, origin);
    expect(text).toContain(
      '\n# GET /api/public/users?page_size=100 → 200: X-RateLimit-Limit: 100\nrate_limit:\n  limit: 100\n  window: 1m\n' +
        '  # §7 names the 429 "Too Many Attempts" and its body is not shown: set body_text to assert it\n' +
        '  # (RATE-LIMIT-BODY). bursts: false skips the bursts when other clients share the token.\n  # body_text: Too Many Attempts\n  # bursts: false\n',
    );
    expect(text.match(/^rate_limit:/gm)).toHaveLength(1);
  });

  it("leaves it commented with the reason when nothing stated it: the spec's 60 a minute applies, as run reads it", () => {
    const text = renderProfileYaml({ ...discovered, rateLimit: notFound("no answer states the target's limit: §8's applies") }, origin);
    expect(text).toContain("# NOT FOUND: no answer states the target's limit: §8's applies\n# §7 names the 429");
    expect(text).toContain('# rate_limit:\n#   limit: 60\n#   window: 60s\n#   body_text: Too Many Attempts\n#   bursts: false\n');
    expect(text).not.toMatch(/^rate_limit:/m);
    expect(parseProfile(text, 'p.yaml').rate_limit).toMatchObject({ limit: 60, window: 60_000 });
  });
});

describe('flow', () => {
  it('writes YAML flow values that parse back as written', () => {
    expect(flow([1, 2])).toBe('[1, 2]');
    expect(flow({ first_name: 'firstName' })).toBe('{ first_name: firstName }');
    expect(flow('2030-01-02T08:00:00+01:00')).toBe('"2030-01-02T08:00:00+01:00"');
    expect(flow('true')).toBe('"true"');
    expect(flow('/api/v2')).toBe('/api/v2');
    expect(flow('https://x.test:1')).toBe('"https://x.test:1"');
  });
});
