import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import type { ReferenceServer } from '../../src/reference/server.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';

const DURATION_KEYS = new Set(['window', 'delivery_within', 'quiet_period', 'signature_tolerance', 'connect', 'headers', 'body', 'exchange', 'settle']);

/** A profile object as its YAML says it: durations as `500ms`, not numbers. */
export function withDurations(value: unknown, key = ''): unknown {
  if (typeof value === 'number' && DURATION_KEYS.has(key)) return `${value}ms`;
  if (Array.isArray(value)) return value.map((v) => withDurations(v));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDurations(v, k)]));
}

/**
 * Writes the profile of a running reference server to `file`, as a user's profile file: its
 * fixtures, its readings, its webhook extension with a sink (secret from CLOCKCHECK_WEBHOOK_SECRET),
 * trusting `caFile`, paced at `rateLimit` (bursts as given).
 */
export async function writeServerProfile(file: string, server: ReferenceServer, caFile: string, rateLimit: { limit: number; window: number; bursts: boolean }): Promise<string> {
  const base = embeddedProfile({ seed: server.seed, dialect: server.dialect, companyTimezone: server.companyTimezone, rateLimit: null });
  const profile = {
    ...base,
    tls: { ca: caFile },
    rate_limit: { ...base.rate_limit, ...rateLimit },
    webhook: { ...base.webhook, secret_env: 'CLOCKCHECK_WEBHOOK_SECRET' },
  };
  await writeFile(file, stringify(withDurations(profile)));
  return file;
}
