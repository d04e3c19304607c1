import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.ts';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { certifyServer, SUITES, withoutBursts } from '../support/certify-target.ts';

describe('auth trouble is one verdict, not a hundred', () => {
  it('a target that serves only Bearer: AUTH-HEADER-RAW fails with the evidence, every other check runs with Bearer and passes', async () => {
    const report = await certifyEmbedded(['auth-bearer-only'], { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 3, budget: 110, bursts: false });
    const failed = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(failed.map((c) => c.id).sort()).toEqual(['auth/raw-token-accepted', 'auth/token-form']);
    expect(failed.flatMap((c) => c.findings.map((f) => f.ruleId))).toEqual(expect.arrayContaining(['AUTH-HEADER-RAW']));
    expect(new Set(failed.flatMap((c) => c.findings.map((f) => f.ruleId)))).toEqual(new Set(['AUTH-HEADER-RAW']));
    const tokenForm = report.checks.find((c) => c.id === 'auth/token-form')!;
    expect(tokenForm.findings[0]).toMatchObject({ expected: 'GET /users served with Authorization: <token>, the raw token (§5.2)', actual: '401 with the raw token; 200 with Authorization: Bearer <token>' });
    expect(tokenForm.exchanges.map((e) => e.response?.status)).toEqual([401, 200]);
    expect(report.tokenForm).toBe('bearer');
    expect(report.notes.filter((note) => !note.startsWith('the webhook sink') && !note.startsWith('isolation between companies was not certified'))).toEqual([expect.stringMatching(/refused the token as §5\.2 sends it .* every other check ran with Bearer/)]);
    expect(report.summary.passed).toBeGreaterThan(90);
  }, 120_000);

  it('a token revoked mid-run stops the run within a few requests: the check in progress and every check after it errored with that reason', async () => {
    const server = await startReferenceServer({ rateLimit: QUICK_RATE_LIMIT });
    let made = 0;
    try {
      const report = await certifyServer(server, withoutBursts(embeddedProfile(server)), {
        seed: 5,
        budget: 110,
        onExchange: () => {
          if (++made === 60) server.revokeToken();
        },
      });
      expect(made).toBeLessThanOrEqual(63); // the refused request, one confirmation, nothing after
      expect(report.summary.failed).toBe(0);
      const revoked = /the token was refused from exchange 6[01] on \(.* answered 401, and GET \/users, served at the preflight, answered 401 in exchange 6[12]\): it was revoked or expired during the run/;
      // The check in progress started and could not finish, and the checks after it were never judged: all errored, none "not run".
      const stopped = report.checks.filter((c) => c.status === 'errored' && revoked.test(c.reason ?? ''));
      expect(stopped.length).toBeGreaterThan(80);
      for (const check of stopped) expect(check.reason).toMatch(new RegExp(`^${revoked.source}`));
      expect(report.checks.filter((c) => c.status === 'not-run')).toEqual([]);
      expect(report.checks.filter((c) => c.id.startsWith('properties/')).every((c) => c.status === 'errored')).toBe(true);
      expect(report.stopped).toMatchObject({ by: 'target', reason: expect.stringMatching(revoked) });
      expect(report.notes.filter((note) => !note.startsWith('the webhook sink') && !note.startsWith('isolation between companies was not certified'))).toEqual([expect.stringMatching(/^the run stopped: the token was refused from exchange/)]);
      // Covered: only what a check judged before the token was revoked, not every rule a check names.
      const judgedByPasses = new Set(report.checks.filter((c) => c.status === 'passed').flatMap((c) => c.rules));
      expect(report.summary.rulesCovered).toBe(judgedByPasses.size);
      expect(report.summary.rulesCovered).toBeLessThan(report.summary.rulesTotal / 2);
      expect(report.summary.unjudged.filter((g) => g.status === 'errored').flatMap((g) => g.checkIds)).toHaveLength(stopped.length);
      // Nothing failed, a check errored: exit 3.
      expect(report.exitCode).toBe(3);
    } finally {
      await server.close();
    }
  }, 120_000);
});
