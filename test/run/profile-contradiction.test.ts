import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import type { Profile } from '../../src/profile/profile.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';

const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function certifyWebhooks(edit: (webhook: NonNullable<Profile['webhook']>) => NonNullable<Profile['webhook']>) {
  const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT });
  servers.push(server);
  const profile = embeddedProfile({ ...server, rateLimit: QUICK_RATE_LIMIT });
  return certifyServer(server, withoutBursts({ ...profile, webhook: edit(profile.webhook!) }), { only: ['webhooks/unsubscribe', 'webhooks/unsubscribe-deletes-configuration'], webhookSecret: 'a-test-secret' });
}

describe('a profile value the target contradicts is named, never judged as the target\'s failure', () => {
  it('a webhook.read_path that reads nothing right after a served subscribe: errored, naming the key, WH-UNSUBSCRIBE not failed', async () => {
    const report = await certifyWebhooks((webhook) => ({ ...webhook, read_path: '/webhooks/subscriptions-typo' }));
    const check = report.checks.find((c) => c.id === 'webhooks/unsubscribe-deletes-configuration')!;
    expect(check.status).toBe('errored');
    expect(check.reason).toMatch(/^profile: webhook\.read_path: GET \/api\/public\/webhooks\/subscriptions-typo answered 404, where .* was needed \(the subscription exists\): the value does not fit this target; fix webhook\.read_path in the profile$/);
    expect(check.findings).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    // The other unsubscribe check, which does not read, still judges the target.
    expect(report.checks.find((c) => c.id === 'webhooks/unsubscribe')?.status).toBe('passed');
  }, 60_000);

  it('a webhook.subscribe_path the target does not serve: the checks that subscribe are errored naming it', async () => {
    const report = await certifyWebhooks((webhook) => ({ ...webhook, subscribe_path: '/webhooks/subscribe-typo' }));
    for (const id of ['webhooks/unsubscribe', 'webhooks/unsubscribe-deletes-configuration']) {
      const check = report.checks.find((c) => c.id === id)!;
      expect(check.status, id).toBe('errored');
      expect(check.reason, id).toMatch(/^profile: webhook\.subscribe_path: POST \/api\/public\/webhooks\/subscribe-typo answered 404/);
    }
  }, 60_000);
});
