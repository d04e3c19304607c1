import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServerOptions } from '../../src/reference/server.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';
import { certify } from '../../src/run/certify.ts';
import type { RunReport } from '../../src/report/model.ts';

const SUITES = join(import.meta.dirname, '../../suites');

/**
 * rate-limit/refused-calls against the reference server over HTTPS, with real bursts and real time:
 * 60 calls per 2 s, so two bursts of 61 sit well inside a window on a loaded machine. The logic on a
 * controlled clock is refused-calls-clock.test.ts's.
 */
async function certifyRefused(options: ReferenceServerOptions): Promise<RunReport> {
  const server = await startReferenceServer({ rateLimit: { limit: 60, windowMs: 2000 }, ...options });
  try {
    return await certify({
      origin: server.origin,
      embedded: true,
      profile: embeddedProfile(server),
      token: server.token,
      caPem: server.tls.caPem,
      insecure: false,
      suitesDir: SUITES,
      suiteGlob: '**/*.yaml',
      only: ['rate-limit/refused-calls'],
      readOnly: true,
      seed: 1,
      budget: 0,
      progress: null,
      replayBase: 'clockcheck run',
    });
  } finally {
    await server.close();
  }
}

const refusedCheck = (report: RunReport) => report.checks.find((c) => c.id === 'rate-limit/refused-calls')!;

describe('rate-limit/refused-calls against the reference server', () => {
  it('passes the clean server: refused calls count under the caller\'s address, so each burst meets a 429; the token never sent', async () => {
    const report = await certifyRefused({});
    const check = refusedCheck(report);
    expect(check.status).toBe('passed');
    expect(report.requests.made).toBe(1 + 2 * 61);
    const sent = check.exchanges.map((e) => e.request.headers.authorization);
    expect(sent).not.toContain('[REDACTED]');
    expect(JSON.stringify(report)).not.toMatch(/"authorization":"(?!\[REDACTED\]|clockcheck-not-a-token)/);
  }, 60_000);

  it('catches rate-limit-skips-refused: all 61 of each burst answered 401, within one window', async () => {
    const report = await certifyRefused({ faults: ['rate-limit-skips-refused'] });
    const check = refusedCheck(report);
    expect(check.status).toBe('failed');
    expect(check.findings.map((f) => f.ruleId)).toEqual(['RATE-LIMIT-REFUSED', 'RATE-LIMIT-REFUSED']);
    expect(check.findings[0]!.actual).toMatch(/^all 61 refused for the token \(401 ×61\)/);
  }, 60_000);
});
