import { discoverProfile } from '../src/init/discover-profile.ts';
import { discoveredKeys } from '../src/init/profile-yaml.ts';
import type { DialectName } from '../src/reference/dialect.ts';
import { startReferenceServer } from '../src/reference/server.ts';

export interface InitFigures {
  readonly label: string;
  readonly wallMs: number;
  readonly requests: number;
  readonly found: number;
  readonly missing: number;
}

/** `clockcheck init` against the reference server in a dialect: its requests, wall time, and keys found and left. */
export async function initDiscovery(dialect: DialectName, probeWrites: boolean): Promise<InitFigures> {
  // The spec's 60 calls, per second rather than per minute: init stays under it either way (about 15 calls).
  const rateLimit = { limit: 60, windowMs: 1000 };
  const server = await startReferenceServer({ rateLimit, dialect });
  try {
    const started = performance.now();
    const found = await discoverProfile({ origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false, rateLimit, probeWrites, progress: null });
    const keys = discoveredKeys(found);
    return {
      label: `init, ${dialect} dialect${probeWrites ? ', --probe-writes' : ''}`,
      wallMs: performance.now() - started,
      requests: found.requests,
      found: keys.found.length,
      missing: keys.missing.length,
    };
  } finally {
    await server.close();
  }
}
