import { afterEach, describe, expect, it } from 'vitest';
import { discoverProfile } from '../../src/init/discover-profile.ts';
import { renderProfileYaml } from '../../src/init/profile-yaml.ts';
import { parseProfile, type Profile } from '../../src/profile/profile.ts';
import type { DialectName } from '../../src/reference/dialect.ts';
import type { SeedName } from '../../src/reference/seed.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { PROVISION_ID } from '../../src/needs/provision.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** What a new user does: `clockcheck init` against the server, and the profile it writes, as run reads it. */
async function initProfile(server: ReferenceServer): Promise<Profile> {
  const found = await discoverProfile({ origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false, rateLimit: QUICK_RATE_LIMIT, probeWrites: false, progress: null });
  const text = renderProfileYaml(found, { target: server.origin, tokenEnv: 'CLOCKCHECK_TOKEN', caFile: '/tmp/ca.pem', insecure: false, toolVersion: '0.1.0', writtenAt: new Date(0) });
  const profile = parseProfile(text, 'clockcheck.profile.yaml');
  return withoutBursts({ ...profile, rate_limit: { ...profile.rate_limit, limit: QUICK_RATE_LIMIT.limit, window: QUICK_RATE_LIMIT.windowMs } });
}

const verdicts = (report: RunReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
const unearned = (report: RunReport) =>
  report.checks
    .filter((c) => c.status === 'failed' || c.status === 'errored' || (c.status === 'skipped' && !/^(needs |certifies |the profile turns the rate-limit bursts off|isolation between companies was not certified: the profile names no second_company)/.test(c.reason ?? '')))
    .map((c) => `${c.id} ${c.status}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId}: ${f.actual}`).join(' | ')}`);

describe('a conforming server that holds little data, certified with the profile init writes for it', () => {
  it.each([
    ['standard', 'fresh'],
    ['laravel', 'fresh'],
    ['alternative', 'small'],
  ] as [DialectName, SeedName][])('%s dialect, %s company: passes with nothing errored, twice, judging alike; every skip names a need', async (dialect, seed) => {
    const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT, dialect, seed });
    servers.push(server);
    const profile = await initProfile(server);
    const first = await certifyServer(server, profile, { seed: 21, budget: 110 });
    expect(unearned(first)).toEqual([]);
    expect(first.exitCode).toBe(0);
    // What the checks needed and the target did not hold was created, and is listed as left there.
    const provisioned = first.createdResources.filter((r) => r.checkId === PROVISION_ID);
    if (seed === 'fresh') {
      expect(provisioned.filter((r) => r.kind === 'user').length).toBeGreaterThanOrEqual(10); // a walk of /users at the default page size of 10 needs 11
      expect(first.notes.some((n) => /^to meet its checks' needs the run created \d+ users/.test(n))).toBe(true);
    }
    const second = await certifyServer(server, profile, { seed: 21, budget: 110 });
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(second.createdResources.filter((r) => r.checkId === PROVISION_ID)).toEqual([]); // the first run's leftovers serve
  }, 120_000);
});
