import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/input/yaml-source.ts';
import { defaultProfile, loadProfile, parseProfile, profileForReport } from '../../src/profile/profile.ts';
import { PUBLISHED_FORM } from '../../src/contract/webhook-notification.ts';

const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** The SourceError that parsing `text` throws. */
function failure(text: string) {
  try {
    parseProfile(text, 'target.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    const e = error as SourceError;
    return { file: e.file, line: e.line, field: e.fieldPath, problem: e.problem, hint: e.hint, message: e.message };
  }
  throw new Error('the profile was accepted');
}

describe('profile defaults', () => {
  it('certifies a server that follows the spec when the profile gives nothing', () => {
    expect(defaultProfile()).toEqual({
      token_env: 'CLOCKCHECK_TOKEN',
      tls: { insecure: false },
      rate_limit: { limit: 60, window: 60_000, probe_path: '/users', burst_extra: 4, connections: 8, bursts: true },
      company_timezone: 'America/Chicago',
      api_prefix: '/api/public',
      fixtures: {},
      status_codes: {},
      sort_names: {},
      page_size_over_max: 'either',
      record_fields: 'auto',
      page_links: 'either',
      user_email_format: 'either',
      user_edit_required: 'either',
      date_range_ends: 'either',
      read_back: { settle: 2_000 },
      waivers: [],
      timeouts: { connect: 10_000, headers: 20_000, body: 20_000, exchange: 30_000 },
    });
  });

  it('reads an empty file and a comment-only file as all defaults', () => {
    expect(parseProfile('', 'p.yaml')).toEqual(defaultProfile());
    expect(parseProfile('# nothing yet\n', 'p.yaml')).toEqual(defaultProfile());
  });

  it('completes partial nested objects with their defaults', () => {
    const profile = parseProfile(lines('rate_limit:', '  limit: 30', 'timeouts:', '  body: 2.5s', 'tls:', '  ca: ca.pem', 'status_codes:', '  create: 201'), 'p.yaml');
    expect(profile.rate_limit).toMatchObject({ limit: 30, window: 60_000, probe_path: '/users' });
    expect(profile.timeouts).toEqual({ connect: 10_000, headers: 20_000, body: 2_500, exchange: 30_000 });
    expect(profile.tls).toEqual({ ca: 'ca.pem', insecure: false });
    expect(profile.status_codes).toEqual({ create: 201 });
    expect(profile.fixtures).toEqual({});
  });

  it('parses durations in ms, s and m into milliseconds', () => {
    const profile = parseProfile(lines('rate_limit: { window: 1m }', 'timeouts: { connect: 500ms, headers: 2s, body: 0.5m }'), 'p.yaml');
    expect(profile.rate_limit.window).toBe(60_000);
    expect(profile.timeouts).toEqual({ connect: 500, headers: 2_000, body: 30_000, exchange: 30_000 });
  });

  it('fills the webhook subscribe body and keeps fixtures, waivers and sort names', () => {
    const profile = parseProfile(
      lines('webhook:', '  subscribe_path: /webhooks', 'fixtures:', '  active_user_ids: [1, 2]', '  role_user_ids: { admin: [1] }', 'waivers:', '  - { rule: PAG-LINKS, reason: relative links }', 'sort_names: { first_name: first_name }'),
      'p.yaml',
    );
    // Notifications: delivered within a minute by default, the quiet period the same, timestamps within 5 min.
    expect(profile.webhook).toEqual({ subscribe_path: '/webhooks', subscribe_body: {}, delivery_within: 60_000, signature_tolerance: 300_000, notification: PUBLISHED_FORM });
    expect(profile.fixtures).toEqual({ active_user_ids: [1, 2], role_user_ids: { admin: [1] } });
    expect(profile.waivers).toEqual([{ rule: 'PAG-LINKS', reason: 'relative links' }]);
    expect(profile.sort_names).toEqual({ first_name: 'first_name' });
  });

  it('reads the keys of records in any representation, the open readings and the timesheet fixture', () => {
    const profile = parseProfile(
      lines('record_fields: camel', 'list_items: /data', 'page_links: page-only', 'user_email_format: validated', 'user_edit_required: all-four', 'fixtures:', '  timesheet: { id: 9, start: "2026-10-01T09:00:00-05:00", end: "2026-10-01T17:00:00-05:00" }'),
      'p.yaml',
    );
    expect(profile).toMatchObject({ record_fields: 'camel', list_items: '/data', page_links: 'page-only', user_email_format: 'validated', user_edit_required: 'all-four' });
    expect(profile.fixtures.timesheet).toEqual({ id: 9, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' });
    expect(failure(lines('fixtures:', '  timesheet: { id: 9, start: "2026-10-01 09:00:00", end: "2026-10-01T17:00:00-05:00" }'))).toMatchObject({ line: 2, field: 'fixtures.timesheet.start', problem: 'expected ISO 8601 with offset, YYYY-MM-DDTHH:MM:SS±HH:MM' });
    expect(failure(lines('user_edit_required: some'))).toMatchObject({ line: 1, field: 'user_edit_required' });
  });

  it('goes into a report as plain JSON data', () => {
    const profile = parseProfile(lines('target: https://t.test', 'versioned_prefix: /api/v2'), 'p.yaml');
    expect(profileForReport(profile)).toEqual(JSON.parse(JSON.stringify(profile)));
    expect(profileForReport(profile)).not.toBe(profile);
  });
});

describe('profile errors name the file, line and key', () => {
  it('reports an unknown top-level key with "did you mean"', () => {
    expect(failure(lines('target: https://t.test', 'company_timzone: America/Chicago'))).toEqual({
      file: 'target.yaml',
      line: 2,
      field: 'company_timzone',
      problem: 'unknown profile key',
      hint: 'did you mean "company_timezone"?',
      message: 'target.yaml:2: company_timzone: unknown profile key (did you mean "company_timezone"?)',
    });
  });

  it('reports an unknown nested key at its line', () => {
    expect(failure(lines('rate_limit:', '  limit: 60', '  windw: 60s'))).toMatchObject({ line: 3, field: 'rate_limit.windw', problem: 'unknown profile key' });
    expect(failure(lines('target: https://t.test', 'fixtures:', '  job_ids: [1]'))).toMatchObject({ line: 3, field: 'fixtures.job_ids' });
  });

  it('reports an unknown nested key with "did you mean"', () => {
    expect(failure(lines('rate_limit:', '  limit: 60', '  windw: 60s')).hint).toBe('did you mean "window"?');
    expect(failure(lines('fixtures:', '  job_ids: [1]')).hint).toBe('did you mean "job_id"?');
  });

  it('reports a value of the wrong type', () => {
    expect(failure(lines('rate_limit:', '  limit: sixty'))).toMatchObject({ line: 2, field: 'rate_limit.limit', problem: 'Invalid input: expected number, received string' });
    expect(failure(lines('tls:', '  insecure: "yes"'))).toMatchObject({ line: 2, field: 'tls.insecure' });
    expect(failure(lines('fixtures:', '  job_id: 1.5'))).toMatchObject({ line: 2, field: 'fixtures.job_id' });
    expect(failure(lines('status_codes: { create: 99 }'))).toMatchObject({ line: 1, field: 'status_codes.create' });
  });

  it('reports a duration that is not 60s, 1m or 500ms', () => {
    expect(failure(lines('target: https://t.test', 'timeouts:', '  connect: 1 minute'))).toMatchObject({ line: 3, field: 'timeouts.connect', problem: 'expected a duration such as 60s, 1m or 500ms' });
    expect(failure(lines('rate_limit: { window: 60 }'))).toMatchObject({ field: 'rate_limit.window' });
  });

  it('reports a timezone that is not an IANA name', () => {
    expect(failure(lines('company_timezone: America/Chikago'))).toMatchObject({ line: 1, field: 'company_timezone', problem: 'expected an IANA timezone name' });
    expect(failure(lines('company_timezone: CST'))).toMatchObject({ field: 'company_timezone' });
  });

  it('reports a waiver of a rule that is not in the catalog, with "did you mean"', () => {
    const e = failure(lines('waivers:', '  - reason: known', '    rule: PAG-WALKK'));
    expect(e.line).toBe(3);
    expect(e.field).toMatch(/^waivers(\.0|\[0\])\.rule$/);
    expect(e.problem).toBe('"PAG-WALKK" is not a rule ID of the catalog (did you mean "PAG-WALK"?)');
  });

  it('reports a waiver without a reason', () => {
    expect(failure(lines('waivers:', '  - rule: PAG-WALK', '    reason: ""'))).toMatchObject({ line: 3 });
  });

  it('reports bad choices and prefixes', () => {
    expect(failure(lines('page_size_over_max: truncate'))).toMatchObject({ line: 1, field: 'page_size_over_max' });
    expect(failure(lines('api_prefix: api/public'))).toMatchObject({ line: 1, field: 'api_prefix' });
    expect(failure(lines('token_env: my-token'))).toMatchObject({ line: 1, field: 'token_env' });
  });

  it('reads a webhook sink and its timings, the quiet period defaulting to none (the check uses delivery_within)', () => {
    const profile = parseProfile(
      lines(
        'webhook:',
        '  subscribe_path: /webhooks/subscription',
        '  subscribe_body: { url: "{{ sink.url }}", secret: "{{ sink.secret }}" }',
        '  sink: { listen: "[::1]:8787", public_url: https://tunnel.example.com/hooks }',
        '  secret_env: HOOK_SECRET',
        '  delivery_within: 30s',
        '  signature_tolerance: 1m',
      ),
      'p.yaml',
    );
    expect(profile.webhook).toMatchObject({ sink: { listen: '[::1]:8787', public_url: 'https://tunnel.example.com/hooks' }, secret_env: 'HOOK_SECRET', delivery_within: 30_000, signature_tolerance: 60_000 });
    expect(profile.webhook?.quiet_period).toBeUndefined();
    expect(parseProfile(lines('webhook:', '  sink: {}'), 'p.yaml').webhook?.sink).toEqual({ listen: '127.0.0.1:0' });
  });

  it('reports a webhook profile that cannot work, at the key to fix', () => {
    expect(failure(lines('webhook:', '  read_path: /webhooks'))).toMatchObject({ field: 'webhook.subscribe_path', problem: expect.stringContaining('needs subscribe_path') });
    expect(failure(lines('webhook:', '  subscribe_path: /w', '  subscribe_body: { url: "{{ sink.url }}" }'))).toMatchObject({ field: 'webhook.subscribe_body', problem: expect.stringContaining('declare webhook.sink') });
    expect(failure(lines('webhook:', '  subscribe_path: /w', '  subscribe_body: { secret: "{{ sink.secret }}" }', '  sink: {}'))).toMatchObject({ field: 'webhook.subscribe_body', problem: expect.stringContaining('webhook.secret_env') });
    expect(failure(lines('webhook:', '  sink: { public_url: https://t.example.com/ }'))).toMatchObject({ field: 'webhook.sink.listen', problem: expect.stringContaining('fixed port') });
    expect(failure(lines('webhook:', '  sink: { listen: localhost }'))).toMatchObject({ line: 2, field: 'webhook.sink.listen' });
    expect(failure(lines('webhook:', '  sink: { public_url: "ftp://x" }'))).toMatchObject({ field: 'webhook.sink.public_url' });
    expect(failure(lines('webhook:', '  sink: {}', '  quiet_period: soon'))).toMatchObject({ line: 3, field: 'webhook.quiet_period' });
  });

  it('reads a declared notification form over the published defaults, and reports a wrong one at its line', () => {
    const profile = parseProfile(
      lines('webhook:', '  sink: {}', '  notification:', '    id: /data/id', '    operation: { at: /type, value: "{event}.{change}" }', '    event: null', '    signature: { header: X-Hub-Signature-256, timestamp_header: null, signed: "{body}", prefix: "sha256=" }'),
      'p.yaml',
    );
    expect(profile.webhook?.notification).toEqual({
      id: '/data/id',
      operation: { at: '/type', value: '{event}.{change}' },
      event: null,
      signature: { header: 'x-hub-signature-256', timestamp_header: null, signed: '{body}', algorithm: 'sha256', encoding: 'hex', prefix: 'sha256=' },
    });
    expect(parseProfile(lines('webhook:', '  sink: {}', '  notification: { id: /data/id }'), 'p.yaml').webhook?.notification).toEqual({ ...PUBLISHED_FORM, id: '/data/id' });
    expect(failure(lines('webhook:', '  sink: {}', '  notification:', '    operation: { value: "{event}" }'))).toMatchObject({ line: 4, field: 'webhook.notification.operation.value', problem: 'must hold {change}' });
    expect(failure(lines('webhook:', '  sink: {}', '  notification:', '    signature: { algorithm: md5 }'))).toMatchObject({ line: 4, field: 'webhook.notification.signature.algorithm' });
    expect(failure(lines('webhook:', '  sink: {}', '  notification:', '    signture: null'))).toMatchObject({ line: 4, hint: 'did you mean "signature"?' });
  });

  it('reports a YAML syntax error at its line', () => {
    expect(failure(lines('target: https://t.test', 'rate_limit: a: b'))).toMatchObject({ line: 2, field: '' });
  });

  it('reports a document that is not a mapping', () => {
    expect(failure(lines('- a', '- b'))).toMatchObject({ line: 1, field: '' });
  });
});

describe('loadProfile', () => {
  it('reads a profile file and names it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-profile-'));
    try {
      const good = join(dir, 'good.yaml');
      await writeFile(good, lines('rate_limit: { limit: 10 }'));
      expect((await loadProfile(good)).rate_limit).toMatchObject({ limit: 10, window: 60_000 });
      const bad = join(dir, 'bad.yaml');
      await writeFile(bad, lines('ratelimit: { limit: 10 }'));
      await expect(loadProfile(bad)).rejects.toMatchObject({ file: bad, line: 1, fieldPath: 'ratelimit', hint: 'did you mean "rate_limit"?' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
