import { afterEach, describe, expect, it } from 'vitest';
import { discoverProfile } from '../../src/init/discover-profile.ts';
import { renderProfileYaml } from '../../src/init/profile-yaml.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';

const SECOND = 'init-second-company-token';
const running: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** init against a reference server of two companies whose tokens count in `windows`, with the second token named. */
async function discover(windows: 'shared' | 'per-token') {
  const server = await startReferenceServer({ rateLimit: { limit: 60, windowMs: 60_000 }, secondCompanyToken: SECOND, rateLimitWindows: windows });
  running.push(server);
  const found = await discoverProfile({ origin: server.origin, token: server.token, secondToken: { env: 'ISO_SECOND', value: SECOND }, caPem: server.tls.caPem, insecure: false, rateLimit: { limit: 600, windowMs: 1000 }, probeWrites: false, progress: null });
  return { server, found };
}

describe("init with a second company's token (issue 49)", () => {
  it.each(['shared', 'per-token'] as const)('tells a %s window from the first token\'s remaining count around a call of the second, and finds its break rule', async (windows) => {
    const { server, found } = await discover(windows);
    expect(found.secondCompany?.served).toMatchObject({ value: true });
    expect(found.secondCompany?.rateLimit).toMatchObject({ value: windows });
    const breakRule = (found.secondCompany?.breakRuleId as { value: number }).value;
    expect(server.secondCompany!.seed.breakRuleIds).toContain(breakRule);
    const yaml = renderProfileYaml(found, { target: server.origin, tokenEnv: 'CLOCKCHECK_TOKEN', insecure: false, toolVersion: '0.0.0', writtenAt: new Date(0) });
    const profile = parseProfile(yaml, 'profile.yaml');
    expect(profile.second_company).toMatchObject({ token_env: 'ISO_SECOND', rate_limit: windows, break_rule_id: breakRule });
    expect(yaml).not.toContain(SECOND);
  }, 30_000);

  it('warns when the second token is refused, and without one the profile says how to name it', async () => {
    const server = await startReferenceServer({ rateLimit: null });
    running.push(server);
    const found = await discoverProfile({ origin: server.origin, token: server.token, secondToken: { env: 'ISO_SECOND', value: 'never-issued' }, caPem: server.tls.caPem, insecure: false, rateLimit: { limit: 600, windowMs: 1000 }, probeWrites: false, progress: null });
    expect(found.warnings.some((w) => w.includes('$ISO_SECOND: not served'))).toBe(true);
    const alone = await discoverProfile({ origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false, rateLimit: { limit: 600, windowMs: 1000 }, probeWrites: false, progress: null });
    const yaml = renderProfileYaml(alone, { target: server.origin, tokenEnv: 'CLOCKCHECK_TOKEN', insecure: false, toolVersion: '0.0.0', writtenAt: new Date(0) });
    expect(yaml).toContain('# second_company: { token_env: CLOCKCHECK_SECOND_TOKEN }');
    expect(parseProfile(yaml, 'profile.yaml').second_company).toBeUndefined();
  }, 30_000);
});
