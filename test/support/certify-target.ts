import { join } from 'node:path';
import type { ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { certify } from '../../src/run/certify.ts';
import type { CertifyOptions } from '../../src/run/certify-options.ts';
import type { Profile } from '../../src/profile/profile.ts';

/** The shipped suites. */
export const SUITES = join(import.meta.dirname, '../../suites');

/**
 * Certifies a started reference server as an external target with `profile`: all suites, no
 * generated cases, no progress, seed 1, unless `overrides` says otherwise.
 */
export function certifyServer(server: ReferenceServer, profile: Profile, overrides: Partial<CertifyOptions> = {}): Promise<RunReport> {
  return certify({
    origin: server.origin,
    embedded: false,
    profile,
    token: server.token,
    caPem: server.tls.caPem,
    insecure: false,
    suitesDir: SUITES,
    suiteGlob: '**/*.yaml',
    only: [],
    readOnly: false,
    seed: 1,
    budget: 0,
    progress: null,
    replayBase: 'clockcheck run',
    ...overrides,
  });
}

/** The profile with the rate-limit bursts off (the run-wide monitor still runs). */
export function withoutBursts(profile: Profile): Profile {
  return { ...profile, rate_limit: { ...profile.rate_limit, bursts: false } };
}
