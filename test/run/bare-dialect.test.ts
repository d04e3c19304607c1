import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';
import { startTestServer } from '../support/reference-client.ts';

const SUITES = join(import.meta.dirname, '../../suites');

describe('a conforming server that answers creates with the bare record and a Location, errors as RFC 9457 problems, camelCase records', () => {
  it('passes the full certification: a created break is read from §4.4 items, whatever the other creates look like', async () => {
    const report = await certifyEmbedded([], { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 13, budget: 330, dialect: 'bare', bursts: false });
    const bad = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(bad.map((c) => `${c.id}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId} expected ${f.expected}; actual ${f.actual}`).join(' | ')}`)).toEqual([]);
    expect(report.checks.find((c) => c.id === 'breaks/create-response')?.status).toBe('passed');
    expect(report.checks.find((c) => c.id === 'records/created-ids')?.status).toBe('passed');
    for (const skipped of report.checks.filter((c) => c.status === 'skipped')) expect(skipped.reason).toMatch(/^certifies (user_|date_range_ends: )|rate-limit bursts off/);
  }, 120_000);

  it('answers as it says: 201 with the bare record and a Location, a break in {items, message}, problem details with their media type', async () => {
    const test = await startTestServer({ dialect: 'bare' });
    try {
      const user = await test.call('POST', '/users', { body: { first_name: 'Ada', last_name: 'Bare', email: 'ada.bare@example.com', password: 'Valid-pass1' } });
      expect(user).toMatchObject({ status: 201, headers: { location: `/api/public/users/${String(user.json.id)}` }, json: { firstName: 'Ada', roleId: 3 } });
      const refused = await test.call('POST', '/users', { body: { first_name: 'Ada' } });
      expect(refused).toMatchObject({ status: 422, headers: { 'content-type': 'application/problem+json' }, json: { status: 422, title: 'Validation failed', type: expect.stringMatching(/validation$/) } });
      const sheet = await test.call('POST', '/timesheets', { body: { user_id: 1, start: '2026-03-02T09:00:00+00:00', end: '2026-03-02T17:00:00+00:00', clock_in_timezone: 'UTC', clock_out_timezone: 'UTC' } });
      const created = await test.call('POST', '/breaks', { body: { timesheet_id: sheet.json.id, break_rule_id: 1, start: '2026-03-02T12:00:00+00:00', end: '2026-03-02T12:30:00+00:00' } });
      expect(created).toMatchObject({ status: 201, json: { items: { timesheet_id: sheet.json.id, duration: 1800 }, message: expect.any(String) } });
    } finally {
      await test.close();
    }
  });
});
