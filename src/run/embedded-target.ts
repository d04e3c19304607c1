import { startReferenceServer, type ReferenceServer } from '../reference/server.ts';
import type { RunReport } from '../report/model.ts';
import type { DialectName } from '../reference/dialect.ts';
import { certify } from './certify.ts';
import { defaultProfile, type Profile } from '../target/profile.ts';

/**
 * The embedded reference server's rate window for certification runs: 60 calls per 100 ms. The
 * limit is the spec's; only the window is scaled, so the run stays quick while pacing is exercised.
 */
export const EMBEDDED_RATE_LIMIT = { limit: 60, windowMs: 100 } as const;

/** The profile of the embedded reference server, filled from its seed data (README, "Seed data"). */
export function embeddedProfile(server: ReferenceServer): Profile {
  const seed = server.seed;
  const profile = defaultProfile();
  return {
    ...profile,
    rate_limit: { limit: EMBEDDED_RATE_LIMIT.limit, window: EMBEDDED_RATE_LIMIT.windowMs },
    company_timezone: server.companyTimezone,
    versioned_prefix: '/api/v2',
    fixtures: {
      active_user_ids: [seed.activeUserIds.admin, seed.activeUserIds.manager, seed.activeUserIds.employee],
      inactive_user_id: seed.inactiveUserId,
      job_id: seed.jobIds[0],
      task_id: seed.taskIds[0],
      break_rule_id: seed.breakRuleIds[0],
      role_user_ids: { admin: [seed.activeUserIds.admin], manager: [seed.activeUserIds.manager], employee: [seed.activeUserIds.employee] },
    },
    webhook: { subscribe_path: '/webhooks/subscription', subscribe_body: { url: 'https://hooks.example.test/clockcheck' }, read_path: '/webhooks/subscription' },
  };
}

/** Starts a reference server (optionally with faults) for a certification run. */
export function startEmbeddedTarget(faults: readonly string[] = [], dialect: DialectName = 'standard'): Promise<ReferenceServer> {
  return startReferenceServer({ rateLimit: EMBEDDED_RATE_LIMIT, faults, dialect });
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
}

/** Certifies the embedded reference server with the given faults switched on. */
export async function certifyEmbedded(
  faults: readonly string[],
  options: EmbeddedCertification,
): Promise<RunReport> {
  const server = await startEmbeddedTarget(faults, options.dialect);
  try {
    return await certify({
      origin: server.origin,
      embedded: true,
      profile: { ...embeddedProfile(server), waivers: options.waivers ?? [] },
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
      replayBase: `clockcheck run${faults.map((f) => ` --fault ${f}`).join('')}`,
    });
  } finally {
    await server.close();
  }
}
