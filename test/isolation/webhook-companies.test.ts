import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';
import { atSecondPath, SECOND_COMPANY_SINK_PATH, SECOND_COMPANY_WEBHOOK_REQUESTS } from '../../src/checks/webhook-companies.ts';
import { estimateSecondTokenRequests } from '../../src/checks/registry.ts';
import { planRun } from '../../src/plan/plan.ts';
import { TOKEN_FORM_CHECK_ID } from '../../src/needs/preflight.ts';
import { defaultProfile, NO_SECOND_COMPANY, type Profile } from '../../src/profile/profile.ts';
import type { Delivery } from '../../src/webhooks/delivery.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT } from '../support/cli.ts';

const SUITES = join(ROOT, 'suites');
const CHECK = 'webhooks/notifications';

/** The webhook check alone against an embedded server (two companies, a token each, a window each; the sink subscribed through the extension). */
const certifyWebhooks = (faults: string[], secondCompany = true) => certifyEmbedded(faults, { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 3, budget: 0, bursts: false, only: [CHECK], secondCompany });
const webhookCheck = (report: RunReport) => report.checks.find((c) => c.id === CHECK)!;

describe("each company's webhook subscription is its own (ISO-WEBHOOK-SCOPED, issue 49)", () => {
  it('a clean server passes, the rule judged, the second company calling with its own token', async () => {
    const report = await certifyWebhooks([]);
    const check = webhookCheck(report);
    expect([check.status, check.reason]).toEqual(['passed', undefined]);
    expect(check.rules).toContain('ISO-WEBHOOK-SCOPED');
    expect(report.summary.coveredRules).toContain('ISO-WEBHOOK-SCOPED');
    // Its subscribe, create, edit and unsubscribe, each marked as the second company's.
    const second = check.exchanges.filter((e) => e.company === 'second').map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/\d+$/, '{id}')}`);
    expect(second).toEqual(['POST /api/public/webhooks/subscription', 'POST /api/public/users', 'PUT /api/public/users/{id}', 'DELETE /api/public/webhooks/subscription/unsubscribe']);
    expect(second).toHaveLength(SECOND_COMPANY_WEBHOOK_REQUESTS);
    // What it made is the second company's in the ledger: its user, and its subscription (unsubscribed, so none is left).
    expect(report.createdResources.filter((r) => r.checkId === `${CHECK} (in the second company)`).map((r) => r.kind).sort()).toEqual(['user', 'webhook']);
  }, 60_000);

  it.each([
    ['webhook-notifies-every-company', /the second company's URL received \d+ notifications? of the first company's users/],
    ['webhook-unsubscribe-every-company', /none arrived after the first company's DELETE/],
  ])('catches %s under ISO-WEBHOOK-SCOPED and no other rule', async (fault, actual) => {
    const check = webhookCheck(await certifyWebhooks([fault]));
    expect(check.status).toBe('failed');
    expect([...new Set(check.findings.map((f) => f.ruleId))]).toEqual(['ISO-WEBHOOK-SCOPED']);
    expect(check.findings.map((f) => f.actual).join('\n')).toMatch(actual);
    // Each finding's exchanges are kept in the report (the notification that crossed among them).
    for (const finding of check.findings) for (const id of finding.exchangeIds) expect(check.exchanges.some((e) => e.id === id)).toBe(true);
  }, 60_000);

  it("a notification still arriving after the first company's unsubscribe is WH-NOTIFICATIONS-STOP's, not the isolation rule's", async () => {
    const check = webhookCheck(await certifyWebhooks(['notifications-after-unsubscribe']));
    expect([...new Set(check.findings.map((f) => f.ruleId))]).toEqual(['WH-NOTIFICATIONS-STOP']);
  }, 60_000);

  it('with one company the rule is left out of the verdict, naming the need; the webhook rules are judged as before', async () => {
    const check = webhookCheck(await certifyWebhooks([], false));
    expect(check.status).toBe('passed');
    expect(check.rules).not.toContain('ISO-WEBHOOK-SCOPED');
    expect(check.rules).toContain('WH-NOTIFICATIONS-STOP');
    expect(check.notes).toContain(`ISO-WEBHOOK-SCOPED not judged: ${NO_SECOND_COMPANY}`);
    expect(check.exchanges.some((e) => e.company === 'second')).toBe(false);
  }, 60_000);
});

describe('the second company path of the sink', () => {
  const delivery = (path: string) => ({ path }) as Delivery;

  it("is told apart by its last segment, a query or a trailing slash aside, under a tunnel's path too", () => {
    expect(atSecondPath(delivery(`/${SECOND_COMPANY_SINK_PATH}`))).toBe(true);
    expect(atSecondPath(delivery(`/hooks/${SECOND_COMPANY_SINK_PATH}/?x=1`))).toBe(true);
    expect(atSecondPath(delivery('/'))).toBe(false);
    expect(atSecondPath(delivery(`/${SECOND_COMPANY_SINK_PATH}-not`))).toBe(false);
  });

  it('the plan counts its calls only where the second company can subscribe through the extension', () => {
    const base = defaultProfile();
    const webhook = { subscribe_path: '/webhooks/subscription', subscribe_body: { url: '{{ sink.url }}' }, sink: { listen: '127.0.0.1:0' } } as unknown as Profile['webhook'];
    const second = { token_env: 'X', rate_limit: 'shared', foreign_ids: 'either', ids: 'unknown' } as const;
    expect(estimateSecondTokenRequests('webhook-notifications', { ...base, webhook, second_company: second } as Profile)).toBe(4);
    expect(estimateSecondTokenRequests('webhook-notifications', { ...base, webhook } as Profile)).toBe(0);
    expect(estimateSecondTokenRequests('webhook-notifications', { ...base, webhook: { ...webhook!, subscribe_path: undefined }, second_company: second } as Profile)).toBe(0);
    expect(estimateSecondTokenRequests('sorted', { ...base, webhook, second_company: second } as Profile)).toBe(0);
  });
});

describe("the plan of the second company's calls", () => {
  const webhook = { subscribe_path: '/webhooks/subscription', subscribe_body: { url: '{{ sink.url }}' }, read_path: null, sink: { listen: '127.0.0.1:0' }, secret_env: null, delivery_within: 5000, quiet_period: 1000, signature_tolerance: 300_000, notification: defaultProfile().webhook?.notification } as unknown as Profile['webhook'];
  const profileWith = (rate_limit: 'shared' | 'per-token') => ({ ...defaultProfile(), webhook, second_company: { token_env: 'X', rate_limit, foreign_ids: 'either', ids: 'unknown' } }) as Profile;
  const plan = (profile: Profile, only: string[]) => planRun({ profile, suitesDir: SUITES, suiteGlob: '**/*.yaml', only, budget: 0 });

  it("counts the webhook check's four and the preflight's one, in the second company's own window where it has one", async () => {
    for (const mode of ['shared', 'per-token'] as const) {
      const planned = await plan(profileWith(mode), [CHECK]);
      const check = planned.checks.find((c) => c.id === CHECK)!;
      const preflight = planned.checks.find((c) => c.id === TOKEN_FORM_CHECK_ID)!;
      expect(planned.secondTokenPreflight).toBe(true);
      expect(check.requests).toBe(6 + SECOND_COMPANY_WEBHOOK_REQUESTS);
      expect([check.ownWindow, preflight.ownWindow]).toEqual(mode === 'per-token' ? [4, 1] : [undefined, undefined]);
    }
  });

  it('sends no second-token preflight where no planned check uses that token', async () => {
    const planned = await plan(profileWith('shared'), ['users']);
    expect(planned.secondTokenPreflight).toBe(false);
    const alone = await plan(profileWith('shared'), [CHECK]);
    expect(alone.checks.find((c) => c.id === TOKEN_FORM_CHECK_ID)!.requests).toBe(planned.checks.find((c) => c.id === TOKEN_FORM_CHECK_ID)!.requests + 1);
  });
});
