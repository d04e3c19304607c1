import { randomBytes } from 'node:crypto';
import { startReferenceServer, type ReferenceServer } from '../reference/server.ts';
import type { RunReport } from '../report/model.ts';
import type { DialectName } from '../reference/dialect.ts';
import type { SeedName } from '../reference/seed.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { certify } from '../run/certify.ts';
import type { Profile } from '../profile/profile.ts';
import type { CertifyOptions } from '../run/certify-options.ts';
import { EMBEDDED_RATE_LIMIT, EMBEDDED_WINDOWS, QUICK_RATE_LIMIT, embeddedProfile, embeddedQuickPacing } from './embedded-profile.ts';

/** Starts a reference server in this process (optionally with faults; `null`: no rate limit) for a certification or a load run. */
export function startEmbeddedTarget(
  faults: readonly string[] = [],
  dialect: DialectName = 'standard',
  rateLimit: RateLimitSetting | null = EMBEDDED_RATE_LIMIT,
  seed: SeedName = 'standard',
  secondCompany = false,
  windows: 'shared' | 'per-token' = EMBEDDED_WINDOWS,
): Promise<ReferenceServer> {
  // A second company's token counts in a window of its own by default: its calls are paced there, beside the run's (EMBEDDED_WINDOWS).
  return startReferenceServer({ rateLimit, faults, dialect, seed, ...(secondCompany ? { secondCompanyToken: randomBytes(24).toString('base64url'), rateLimitWindows: windows } : {}) });
}

/** What a certification of the embedded server may vary: suites, seed, budget, selection, dialect, waivers. */
export interface EmbeddedCertification {
  readonly suitesDir: string;
  readonly suiteGlob: string;
  readonly seed: number;
  readonly budget: number;
  readonly only?: readonly string[];
  readonly dialect?: DialectName;
  /** The data the server starts with (default: standard). */
  readonly seedData?: SeedName;
  readonly waivers?: Profile['waivers'];
  /**
   * false: no rate-limit bursts, and the server paces at QUICK_RATE_LIMIT (the run-wide monitor
   * still runs). Default true: the full certification, its paced checks at QUICK_RATE_LIMIT and its
   * rate-limit phase at EMBEDDED_RATE_LIMIT (as `clockcheck run` without --target).
   */
  readonly bursts?: boolean;
  /**
   * The rate-limit phase's window (default EMBEDDED_RATE_LIMIT, 60 per second, as `clockcheck run`
   * makes it). A longer one keeps the bursts' timing certain on a machine whose cores are busy (a
   * test beside others), at the cost of its length.
   */
  readonly burstRateLimit?: RateLimitSetting;
  /** false: the server serves one company, and the isolation checks are skipped. Default true: a second company, certified too. */
  readonly secondCompany?: boolean;
  /** Whether the two companies' tokens count in one window (`shared`) or each in its own (default EMBEDDED_WINDOWS). */
  readonly rateLimitWindows?: 'shared' | 'per-token';
}

/** Certifies the embedded reference server with the given faults switched on. */
export async function certifyEmbedded(faults: readonly string[], options: EmbeddedCertification): Promise<RunReport> {
  const [report] = await certifyEmbeddedRounds(faults, options, 1);
  return report as RunReport;
}

/**
 * Certifies one embedded reference server `rounds` times in a row, each run on what the ones
 * before it left (the records they created): a second run on the same server must judge alike.
 */
export async function certifyEmbeddedRounds(faults: readonly string[], options: EmbeddedCertification, rounds: number): Promise<RunReport[]> {
  const bursts = options.bursts ?? true;
  const server = await startEmbeddedTarget(faults, options.dialect, QUICK_RATE_LIMIT, options.seedData, options.secondCompany ?? true, options.rateLimitWindows);
  try {
    const reports: RunReport[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round > 0) server.setRateLimit(QUICK_RATE_LIMIT); // the paced checks at the quick window again, on a fresh limiter
      reports.push(await certifyStarted(server, faults, options, bursts));
    }
    return reports;
  } finally {
    await server.close();
  }
}

function certifyStarted(server: ReferenceServer, faults: readonly string[], options: EmbeddedCertification, bursts: boolean): Promise<RunReport> {
  const phaseRateLimit = options.burstRateLimit ?? EMBEDDED_RATE_LIMIT;
  const profile = embeddedProfile({ ...server, rateLimit: bursts ? phaseRateLimit : QUICK_RATE_LIMIT });
  return certifyWith(server, { ...profile, rate_limit: { ...profile.rate_limit, bursts } }, options, {
    embedded: true,
    quickPacing: embeddedQuickPacing((setting) => server.setRateLimit(setting), phaseRateLimit),
    replayBase: `clockcheck run${faults.map((f) => ` --fault ${f}`).join('')}`,
  });
}

/** A certification of a started reference server with `profile` (its waivers from `options`). */
function certifyWith(server: ReferenceServer, profile: Profile, options: EmbeddedCertification, how: Pick<CertifyOptions, 'embedded' | 'replayBase' | 'quickPacing'>): Promise<RunReport> {
  return certify({
    ...how,
    origin: server.origin,
    profile: { ...profile, waivers: options.waivers ?? [] },
    token: server.token,
    ...(server.secondCompany ? { secondToken: server.secondCompany.token } : {}),
    caPem: server.tls.caPem,
    insecure: false,
    suitesDir: options.suitesDir,
    suiteGlob: options.suiteGlob,
    only: options.only ?? [],
    readOnly: false,
    seed: options.seed,
    budget: options.budget,
    progress: null,
  });
}

/** A started target, as a profile discovery (`clockcheck init`) is pointed at it. */
export interface ProfilableTarget {
  readonly origin: string;
  readonly token: string;
  readonly caPem: string;
}

/**
 * Certifies an embedded reference server of `options.dialect` with the profile `profileFor` makes of
 * it (the selftest passes `clockcheck init --probe-writes`'s discovery): the readings a user's own
 * discovery writes must pass a clean server, not only the embedded profile. Paced at
 * QUICK_RATE_LIMIT, without the rate-limit bursts (the readings are what is certified here).
 */
export async function certifyEmbeddedProfiled(options: EmbeddedCertification, profileFor: (target: ProfilableTarget, rateLimit: RateLimitSetting) => Promise<Profile>): Promise<RunReport> {
  const server = await startEmbeddedTarget([], options.dialect, QUICK_RATE_LIMIT, options.seedData);
  try {
    const profile = await profileFor({ origin: server.origin, token: server.token, caPem: server.tls.caPem }, QUICK_RATE_LIMIT);
    return await certifyWith(server, { ...profile, rate_limit: { ...profile.rate_limit, bursts: false } }, options, { embedded: false, replayBase: 'clockcheck run' });
  } finally {
    await server.close();
  }
}
