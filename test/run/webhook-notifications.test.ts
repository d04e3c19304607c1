import { createServer } from 'node:net';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { ALTERNATIVE_NOTIFICATION_FORM, type DialectName } from '../../src/reference/dialect.ts';
import { NotificationForm, PUBLISHED_FORM } from '../../src/contract/webhook-notification.ts';
import type { CheckResult, RunReport } from '../../src/report/model.ts';
import type { Profile } from '../../src/profile/profile.ts';
import { planRun } from '../../src/plan/plan.ts';
import { TargetClient } from '../../src/client/client.ts';
import { certifyServer, SUITES, withoutBursts } from '../support/certify-target.ts';

const SECRET = 'whsec-test-0123456789';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(faults: string[] = [], dialect: DialectName = 'standard'): Promise<ReferenceServer> {
  const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT, faults, dialect });
  servers.push(server);
  return server;
}

/** The embedded profile (sink on loopback, subscribed through the extension), with `webhook` changed as given. */
function profileFor(server: ReferenceServer, webhook: Partial<NonNullable<Profile['webhook']>> | null = {}): Profile {
  const profile = withoutBursts(embeddedProfile(server));
  if (webhook === null) return { ...profile, webhook: undefined };
  return { ...profile, webhook: { ...profile.webhook!, secret_env: 'CLOCKCHECK_WEBHOOK_SECRET', ...webhook } };
}

/** Certifies the webhook scenarios only. */
function certifyWebhooks(server: ReferenceServer, profile: Profile, secret: string | null = SECRET): Promise<RunReport> {
  return certifyServer(server, profile, { suiteGlob: 'webhooks.yaml', only: ['webhooks'], ...(secret === null ? {} : { webhookSecret: secret }) });
}

function notifications(report: RunReport): CheckResult {
  return report.checks.find((c) => c.id === 'webhooks/notifications')!;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('webhooks/notifications against the reference server', () => {
  it('passes the clean server: both changes notified, signed, naming the user, and nothing after unsubscribe; the deliveries are inbound exchanges, the secret redacted', async () => {
    const server = await serve();
    const report = await certifyWebhooks(server, profileFor(server));
    const check = notifications(report);
    expect(check).toMatchObject({ status: 'passed', findings: [], rules: ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-SIGNATURE', 'WH-NOTIFICATIONS-STOP'] });
    // subscribe, create, edit, unsubscribe, create, edit: six requests, and the two deliveries received
    const sent = check.exchanges.filter((e) => e.direction === undefined);
    const received = check.exchanges.filter((e) => e.direction === 'inbound');
    expect(sent.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual([
      'POST /api/public/webhooks/subscription',
      'POST /api/public/users',
      expect.stringMatching(/^PUT \/api\/public\/users\/\d+$/),
      'DELETE /api/public/webhooks/subscription/unsubscribe',
      'POST /api/public/users',
      expect.stringMatching(/^PUT \/api\/public\/users\/\d+$/),
    ]);
    expect(received.map((e) => JSON.parse(e.request.body!).payload.data.operation)).toEqual(['users_created', 'users_updated']);
    expect(received[0]!.request.headers).toHaveProperty('x-webhook-signature');
    expect(new Set(check.exchanges.map((e) => e.id)).size).toBe(check.exchanges.length);
    const text = JSON.stringify(report);
    expect(text).not.toContain(SECRET);
    expect(sent[0]!.request.body).toContain('"secret":"[REDACTED]"');
    expect(report.notes).toContainEqual(expect.stringMatching(/^the webhook sink at http:\/\/127\.0\.0\.1:\d+\/ received 2 deliveries$/));
    expect(report.coverage.find((r) => r.rule.id === 'WH-NOTIFICATIONS-STOP')).toMatchObject({ outcome: 'passed', checkIds: ['webhooks/notifications'] });
  }, 30_000);

  it.each([
    ['notifications-after-unsubscribe', 'WH-NOTIFICATIONS-STOP', /^the sink received #3 users_created of \d+ after unsubscribe answered 200$/],
    ['webhook-wrong-signature', 'WH-SIGNATURE', /^x-webhook-signature does not match the HMAC-SHA256 of x-webhook-timestamp \+ body$/],
    ['webhook-unsigned', 'WH-SIGNATURE', /^no x-webhook-timestamp header$/],
    ['webhook-payload-no-id', 'WH-PAYLOAD-SHAPE', /^2 notifications arrived, none naming \d+: #1 users_created naming no ID, #2 users_updated naming no ID$/],
  ])('catches %s under %s, and no other rule', async (fault, rule, actual) => {
    const server = await serve([fault]);
    const check = notifications(await certifyWebhooks(server, profileFor(server)));
    expect(check.status).toBe('failed');
    expect(new Set(check.findings.map((f) => f.ruleId))).toEqual(new Set([rule]));
    expect(check.findings[0]!.actual).toMatch(actual);
    // Each finding shows exchanges the check holds, a received delivery among them
    for (const finding of check.findings) {
      const shown = finding.exchangeIds.map((id) => check.exchanges.find((e) => e.id === id));
      expect(shown.every((e) => e !== undefined)).toBe(true);
      expect(shown.some((e) => e!.direction === 'inbound')).toBe(true);
    }
  }, 30_000);

  it('without a sink in the profile: skipped with the reason; the unsubscribe scenarios still run', async () => {
    const server = await serve();
    const profile = profileFor(server, { sink: undefined, subscribe_body: { url: 'https://hooks.example.test/x' } });
    const report = await certifyWebhooks(server, profile, null);
    expect(notifications(report)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^needs webhook\.sink: /) });
    expect(report.checks.find((c) => c.id === 'webhooks/unsubscribe')!.status).toBe('passed');
    expect(report.coverage.find((r) => r.rule.id === 'WH-NOTIFICATIONS-STOP')!.outcome).toBe('skipped');
  }, 30_000);

  it('without a secret: WH-SIGNATURE is not judged (left out of the verdict, with a note), the rest is', async () => {
    const server = await serve(['webhook-unsigned']);
    const profile = profileFor(server, { secret_env: undefined, subscribe_body: { url: '{{ sink.url }}' } });
    const check = notifications(await certifyWebhooks(server, profile, null));
    expect(check).toMatchObject({ status: 'passed', rules: ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-NOTIFICATIONS-STOP'] });
    expect(check.notes).toContain('WH-SIGNATURE not judged: the profile names no webhook.secret_env, so signatures were not checked');
  }, 30_000);

  it('without a subscribe extension the sink must be subscribed outside the API: errored when nothing arrives, passed when it was', async () => {
    const server = await serve();
    const port = await closedPort();
    const profile = profileFor(server, { subscribe_path: undefined, read_path: undefined, subscribe_body: {}, sink: { listen: `127.0.0.1:${port}` }, delivery_within: 1_000 });
    const unsubscribed = notifications(await certifyWebhooks(server, profile));
    expect(unsubscribed.status).toBe('errored');
    expect(unsubscribed.reason).toMatch(/^no notification reached the sink within 1\.0 s of the create of \d+ and the edit of \d+: the profile has no webhook\.subscribe_path, so http:\/\/127\.0\.0\.1:\d+\/ must be subscribed outside the API \(in the service's web app\) before the run$/);

    // As a user does in the service's web app: the sink's URL and the secret, before the run.
    const client = new TargetClient({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      timeouts: { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 },
      maxResponseBytes: 1 << 20,
      userAgent: 'test',
    });
    const answer = await client.send({ method: 'POST', path: '/webhooks/subscription', json: { url: `http://127.0.0.1:${port}/`, secret: SECRET } });
    await client.close();
    expect(answer.response?.status).toBe(201);
    const check = notifications(await certifyWebhooks(server, profile));
    expect(check).toMatchObject({ status: 'passed', findings: [] });
    expect(check.exchanges.filter((e) => e.direction === undefined)).toHaveLength(5); // no subscribe
  }, 30_000);

  it('a public URL that does not reach the sink (a tunnel down): errored with the reason, nothing sent to the target', async () => {
    const server = await serve();
    const port = await closedPort();
    const profile = profileFor(server, { sink: { listen: '127.0.0.1:0', public_url: `http://127.0.0.1:${port}/hook` } });
    const check = notifications(await certifyWebhooks(server, profile));
    expect(check.status).toBe('errored');
    expect(check.reason).toMatch(new RegExp(`^a probe posted to the sink's public URL http://127\\.0\\.0\\.1:${port}/hook did not reach the sink at http://127\\.0\\.0\\.1:\\d+/ \\(the POST failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\): is the tunnel running and forwarding there\\?$`));
    expect(check.exchanges).toEqual([]);
  }, 30_000);
});

describe('webhooks/notifications in a form the profile declares', () => {
  it('passes a server whose notifications take another form when the profile declares it (alternative dialect: {type, data: {id}}, sha256= over the body, no timestamp), and the deliveries read by that form', async () => {
    const server = await serve([], 'alternative');
    const profile = profileFor(server);
    expect(profile.webhook!.notification).toEqual(ALTERNATIVE_NOTIFICATION_FORM);
    const check = notifications(await certifyWebhooks(server, profile));
    expect(check).toMatchObject({ status: 'passed', findings: [], rules: ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-SIGNATURE', 'WH-NOTIFICATIONS-STOP'] });
    const received = check.exchanges.filter((e) => e.direction === 'inbound');
    expect(received.map((e) => JSON.parse(e.request.body!).type)).toEqual(['users.created', 'users.updated']);
    expect(received[0]!.request.headers['x-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
  }, 30_000);

  it.each([
    ['notifications-after-unsubscribe', 'WH-NOTIFICATIONS-STOP', /^the sink received #3 users\.created of \d+ after unsubscribe answered 200$/],
    ['webhook-wrong-signature', 'WH-SIGNATURE', /^x-signature-256 does not match the HMAC-SHA256 of body$/],
    ['webhook-unsigned', 'WH-SIGNATURE', /^no x-signature-256 header$/],
    ['webhook-payload-no-id', 'WH-PAYLOAD-SHAPE', /^2 notifications arrived, none naming \d+: #1 users\.created naming no ID, #2 users\.updated naming no ID$/],
  ])('catches %s in that form, under %s only', async (fault, rule, actual) => {
    const server = await serve([fault], 'alternative');
    const check = notifications(await certifyWebhooks(server, profileFor(server)));
    expect(check.status).toBe('failed');
    expect(new Set(check.findings.map((f) => f.ruleId))).toEqual(new Set([rule]));
    expect(check.findings[0]!.actual).toMatch(actual);
  }, 30_000);

  it('fails WH-PAYLOAD-SHAPE, never WH-NOTIFICATION-ARRIVES, when the notifications are not in the declared form; WH-SIGNATURE under the declared scheme', async () => {
    // The published form arrives; the profile declares the alternative one.
    const server = await serve();
    const check = notifications(await certifyWebhooks(server, profileFor(server, { notification: ALTERNATIVE_NOTIFICATION_FORM })));
    expect(check.status).toBe('failed');
    expect(new Set(check.findings.map((f) => f.ruleId))).toEqual(new Set(['WH-PAYLOAD-SHAPE']));
    expect(check.findings[0]!.actual).toMatch(/^2 notifications arrived, none naming \d+: #1 \(naming no ID and no operation\), #2 \(naming no ID and no operation\)$/);

    // Only the signature declared otherwise: the payload is judged as published, the signature fails.
    const signedOtherwise = NotificationForm.parse({ signature: { header: 'x-webhook-signature', timestamp_header: null, signed: '{body}' } });
    const mismatch = notifications(await certifyWebhooks(server, profileFor(server, { notification: signedOtherwise })));
    expect(new Set(mismatch.findings.map((f) => f.ruleId))).toEqual(new Set(['WH-SIGNATURE']));
    expect(mismatch.findings[0]!.actual).toBe('x-webhook-signature does not match the HMAC-SHA256 of body');
  }, 30_000);

  it('leaves WH-SIGNATURE out of the verdict, with the reason, when the profile declares unsigned notifications', async () => {
    const server = await serve(['webhook-unsigned']);
    const check = notifications(await certifyWebhooks(server, profileFor(server, { notification: { ...PUBLISHED_FORM, signature: null } })));
    expect(check).toMatchObject({ status: 'passed', rules: ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-NOTIFICATIONS-STOP'] });
    expect(check.notes).toContain('WH-SIGNATURE not judged: the profile declares unsigned notifications (webhook.notification.signature: null)');
  }, 30_000);
});

describe('webhooks/notifications through a tunnel (public_url forwarding to the sink)', () => {
  it('probes the tunnel, subscribes its public URL, and receives through it', async () => {
    const server = await serve();
    const sinkPort = await closedPort();
    // A stand-in for the tunnel a user runs: every request to it is forwarded to the sink's port.
    const tunnel = createHttpServer((req, res) => {
      const forward = httpRequest({ host: '127.0.0.1', port: sinkPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const tunnelUrl = `http://127.0.0.1:${(tunnel.address() as { port: number }).port}/from-tunnel`;
    try {
      const profile = profileFor(server, { sink: { listen: `127.0.0.1:${sinkPort}`, public_url: tunnelUrl } });
      const report = await certifyWebhooks(server, profile);
      const check = notifications(report);
      expect(check).toMatchObject({ status: 'passed', findings: [] });
      expect(check.exchanges[0]!.request.body).toContain(`"url":"${tunnelUrl}"`);
      expect(check.exchanges.filter((e) => e.direction === 'inbound').map((e) => e.request.url)).toEqual([tunnelUrl, tunnelUrl]);
    } finally {
      tunnel.closeAllConnections();
      await new Promise((resolve) => tunnel.close(resolve));
    }
  }, 30_000);
});

describe('the quiet period after unsubscribe overlaps the checks after it', () => {
  /** The webhook check, then a property family's 40 cases, with a 3 s quiet period. */
  async function certifyThenMore(faults: string[]) {
    const server = await serve(faults);
    // Paced at 10 a second, the family's 40 cases take about 4 s: longer than the quiet period.
    const base = profileFor(server, { quiet_period: 3_000 });
    const profile = { ...base, rate_limit: { ...base.rate_limit, limit: 10, window: 1_000 } };
    const report = await certifyServer(server, profile, { suiteGlob: 'webhooks.yaml', only: ['webhooks/notifications', 'properties/user-password'], webhookSecret: SECRET, budget: 40 });
    return { report, check: notifications(report), family: report.checks.find((c) => c.id === 'properties/user-password')! };
  }

  it('the next check runs while the sink is watched; the verdict still waits for the whole quiet period; results keep the plan\'s order', async () => {
    const started = Date.now();
    const { report, check, family } = await certifyThenMore([]);
    expect(check).toMatchObject({ status: 'passed', findings: [] });
    expect(family.status).toBe('passed');
    // The family ran inside the quiet period: one after the other, the run would take the sum of the two.
    expect(family.durationMs).toBeGreaterThan(2_000);
    expect(report.durationMs).toBeLessThan(check.durationMs + family.durationMs);
    // The check still watched the whole quiet period, and the run lasted it.
    expect(check.durationMs).toBeGreaterThanOrEqual(3_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(report.checks.map((c) => c.id).filter((id) => id !== 'rate-limit/monitor')).toEqual(['webhooks/notifications', 'properties/user-password']);
  }, 30_000);

  it('a notification after unsubscribe that comes while the next check runs is still caught', async () => {
    const { check, family } = await certifyThenMore(['notifications-after-unsubscribe']);
    expect(check.status).toBe('failed');
    expect(check.findings.map((f) => f.ruleId)).toEqual(['WH-NOTIFICATIONS-STOP']);
    expect(family.status).toBe('passed');
  }, 30_000);

  it("waits no longer than the run's time limit: a quiet period it cuts short leaves WH-NOTIFICATIONS-STOP unjudged, with the reason", async () => {
    const server = await serve();
    const started = Date.now();
    const report = await certifyServer(server, profileFor(server, { quiet_period: 20_000 }), { suiteGlob: 'webhooks.yaml', only: ['webhooks/notifications'], webhookSecret: SECRET, maxTimeMs: 2_000 });
    const check = notifications(report);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(check).toMatchObject({ status: 'passed', rules: ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-SIGNATURE'] });
    expect(check.notes).toContainEqual(expect.stringMatching(/^WH-NOTIFICATIONS-STOP not judged: the run's time limit ended the quiet period after [\d.]+ m?s of the profile's 20\.0 s$/));
  }, 30_000);

  it('the plan ends the run no sooner than the watch, and no later than the checks need when they take longer', async () => {
    const server = await serve();
    const base = profileFor(server, { quiet_period: 60_000 });
    const profile = { ...base, rate_limit: { ...base.rate_limit, limit: 60, window: 60_000 } };
    const alone = await planRun({ profile, suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: ['webhooks/notifications'], budget: 0 });
    const withMore = await planRun({ profile, suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: ['webhooks/notifications', 'properties'], budget: 300 });
    const withoutWatch = await planRun({ profile: { ...profile, webhook: undefined }, suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: ['properties'], budget: 300 });
    expect(alone.etaMs).toBeGreaterThanOrEqual(60_000);
    // 300 cases at 60 a minute take minutes: the watch adds nothing to them but its 6 requests' pacing, at most
    // one window of the pacer (60 s and its guard) where they cross a window's boundary; never its 60 s quiet period on top.
    expect(withMore.etaMs).toBeLessThanOrEqual(withoutWatch.etaMs + 61_000);
    expect(withMore.etaMs).toBeGreaterThanOrEqual(withoutWatch.etaMs);
  });
});

describe('the plan of the webhook check', () => {
  it('counts its six requests and its quiet period in the ETA', async () => {
    const server = await serve();
    const profile = { ...profileFor(server), rate_limit: { ...profileFor(server).rate_limit, limit: 60, window: 60_000 } };
    const plan = await planRun({ profile, suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: ['webhooks/notifications'], budget: 0 });
    expect(plan.checks.find((c) => c.id === 'webhooks/notifications')).toMatchObject({ requests: 6, watchMs: 1_000 });
    expect(plan.etaMs).toBeGreaterThanOrEqual(1_000);
  });

  it('plans it skipped, at no cost and covering nothing, without a sink or with --read-only; a budget keeps it skipped with its reason', async () => {
    const server = await serve();
    const base = profileFor(server, { sink: undefined, subscribe_body: {} });
    const profile = { ...base, rate_limit: { ...base.rate_limit, limit: 60, window: 60_000 } };
    const plan = await planRun({ profile, suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: ['webhooks'], budget: 0 });
    expect(plan.checks.find((c) => c.id === 'webhooks/notifications')).toMatchObject({ requests: 0, skip: expect.stringMatching(/^needs webhook\.sink: /) });
    expect(plan.checks.find((c) => c.id === 'webhooks/unsubscribe')).toMatchObject({ requests: 2 });
    const readOnly = await planRun({ profile: profileFor(server), suitesDir: SUITES, suiteGlob: 'webhooks.yaml', only: [], budget: 0, readOnly: true });
    expect(readOnly.checks.filter((c) => c.kind === 'scenario').map((c) => c.skip)).toEqual(['changes data on the target (--read-only)', 'changes data on the target (--read-only)', 'changes data on the target (--read-only)']);
    expect(readOnly.requests).toBe(1); // the preflight

    const { chooseWithinBudget } = await import('../../src/plan/budget.ts');
    const choice = chooseWithinBudget(plan, { maxRequests: 3 }, { spanMs: 60_000, allowed: 60 });
    expect(choice.checkIds.has('webhooks/notifications')).toBe(true);
    // The preflight's AUTH-HEADER-RAW, WH-UNSUBSCRIBE and ERR-SUCCESS-STATUS: the skipped check's rules are none a full run covers
    expect(choice.fullRules).toBe(3);
    expect(choice.leftOut.map((c) => c.id)).toEqual(['webhooks/unsubscribe-deletes-configuration']);
  });
});
