import { startReferenceServer, type ReferenceServer } from '../reference/server.ts';
import type { RunReport } from '../report/model.ts';
import type { DialectName } from '../reference/dialect.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { certify } from './certify.ts';
import type { Profile } from '../profile/profile.ts';
import { EMBEDDED_RATE_LIMIT, QUICK_RATE_LIMIT, embeddedProfile, embeddedQuickPacing } from './embedded-profile.ts';

/** Starts a reference server in this process (optionally with faults; `null`: no rate limit) for a certification or a load run. */
export function startEmbeddedTarget(
  faults: readonly string[] = [],
  dialect: DialectName = 'standard',
  rateLimit: RateLimitSetting | null = EMBEDDED_RATE_LIMIT,
): Promise<ReferenceServer> {
  return startReferenceServer({ rateLimit, faults, dialect });
}

/** What a certification of the embedded server may vary: suites, seed, budget, selection, dialect, waivers. */
export interface EmbeddedCertification {
  readonly suitesDir: string;
  readonly suiteGlob: string;
  readonly seed: number;
  readonly budget: number;
  readonly only?: readonly string[];
  readonly dialect?: DialectName;
  readonly waivers?: Profile['waivers'];
  /**
   * false: no rate-limit bursts, and the server paces at QUICK_RATE_LIMIT (the run-wide monitor
   * still runs). Default true: the full certification, its paced checks at QUICK_RATE_LIMIT and its
   * rate-limit phase at EMBEDDED_RATE_LIMIT (as `clockcheck run` without --target).
   */
  readonly bursts?: boolean;
}

/** Certifies the embedded reference server with the given faults switched on. */
export async function certifyEmbedded(
  faults: readonly string[],
  options: EmbeddedCertification,
): Promise<RunReport> {
  const bursts = options.bursts ?? true;
  const server = await startEmbeddedTarget(faults, options.dialect, QUICK_RATE_LIMIT);
  try {
    const profile = embeddedProfile({ ...server, rateLimit: bursts ? EMBEDDED_RATE_LIMIT : QUICK_RATE_LIMIT });
    return await certify({
      origin: server.origin,
      embedded: true,
      profile: { ...profile, rate_limit: { ...profile.rate_limit, bursts }, waivers: options.waivers ?? [] },
      token: server.token,
      caPem: server.tls.caPem,
      insecure: false,
      suitesDir: options.suitesDir,
      suiteGlob: options.suiteGlob,
      only: options.only ?? [],
      readOnly: false,
      seed: options.seed,
      budget: options.budget,
      progress: null,
      quickPacing: embeddedQuickPacing((setting) => server.setRateLimit(setting)),
      replayBase: `clockcheck run${faults.map((f) => ` --fault ${f}`).join('')}`,
    });
  } finally {
    await server.close();
  }
}
