import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';

const SUITES = join(import.meta.dirname, '../../suites');

describe('a conforming server that answers in Laravel representations (pay_rate "15.00", active 1/0, clock_in_time without offset)', () => {
  it('passes the full certification: values are compared by meaning, records in any sound representation', async () => {
    const report = await certifyEmbedded([], { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 11, budget: 330, dialect: 'laravel', bursts: false });
    const bad = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(bad.map((c) => `${c.id}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId} expected ${f.expected}; actual ${f.actual}`).join(' | ')}`)).toEqual([]);
    // The defaults of §2.2 were judged on records that write them "0.00" and 0, not skipped.
    expect(report.checks.find((c) => c.id === 'users/defaults')?.status).toBe('passed');
    expect(report.checks.find((c) => c.id === 'users/put-partial-keeps-optional-fields')?.status).toBe('passed');
    // The notification of a create carries last_updated_at: false, as real deliveries have: accepted.
    const webhook = report.checks.find((c) => c.id === 'webhooks/notifications')!;
    expect(webhook.status).toBe('passed');
    const created = webhook.exchanges.find((e) => e.direction === 'inbound' && e.request.body!.includes('users_created'));
    expect(JSON.parse(created!.request.body!).payload.data.last_updated_at).toBe(false);
    for (const skipped of report.checks.filter((c) => c.status === 'skipped')) expect(skipped.reason).toMatch(/^certifies (user_|date_range_ends: )|rate-limit bursts off/);
  }, 120_000);

  it.each([
    ['pay-rate-default-null', 'USR-PAY-RATE-DEFAULT'],
    ['track-location-default-true', 'USR-TRACK-LOCATION-DEFAULT'],
    ['user-put-replaces', 'PUT-PARTIAL'],
    ['sort-descending-ignored', 'SORT-DESCENDING'],
  ])('still catches the fault %s (%s) through those representations', async (fault, rule) => {
    const report = await certifyEmbedded([fault], { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 11, budget: 0, dialect: 'laravel', bursts: false });
    const failedRules = report.checks.filter((c) => c.status === 'failed').flatMap((c) => c.findings.map((f) => f.ruleId));
    expect(failedRules).toContain(rule);
  }, 60_000);
});
