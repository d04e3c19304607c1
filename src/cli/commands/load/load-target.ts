import { UsageError } from '../../../errors.ts';
import { startEmbeddedTarget } from '../../../embedded/embedded-target.ts';
import { isLoopbackHost } from '../../../load/loopback.ts';
import type { RateLimitWindow } from '../../../load/load-verdict.ts';
import type { Profile } from '../../../profile/profile.ts';
import { serverFaultByName } from '../../../reference/faults.ts';
import type { ReferenceServer } from '../../../reference/server.ts';
import { resolveTargetAccess, type TargetAccess } from '../../target-access.ts';
import type { LoadValues } from './load-values.ts';

/** Where a load goes: the target's origin, token and trust, and the embedded server when there is no --target. */
export interface LoadTarget {
  readonly reach: Pick<TargetAccess, 'origin' | 'token' | 'caPem' | 'insecure'>;
  /** The embedded reference server this load started (the caller closes it), or null with --target. */
  readonly server: ReferenceServer | null;
}

/** Where the load goes: the --target as given (token from the environment), or a fresh embedded reference server. */
export async function openLoadTarget(target: string | undefined, profile: Profile, values: LoadValues): Promise<LoadTarget> {
  if (target) return { reach: await resolveTargetAccess(target, profile, { ca: values.ca, insecure: values.insecure, allowHttp: values['allow-http'] }), server: null };
  const server = await startEmbeddedTarget(values.fault, 'standard', values['server-rate-limit']);
  return { reach: { origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false }, server };
}

/**
 * The embedded server's options for a load that runs: refused with a target, and each --fault a
 * name of the catalog.
 * @throws UsageError naming the option to drop, or the unknown fault with a suggestion.
 */
export function checkEmbeddedOptions(values: LoadValues, target: string | undefined): void {
  if (target && values.fault.length > 0) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (target && values['server-rate-limit'] !== null) throw new UsageError('--server-rate-limit applies to the embedded reference server only; drop --target');
  for (const name of values.fault) serverFaultByName(name); // a name no fault has is a UsageError with a suggestion
}

/**
 * The embedded server's options, which neither --export nor --from-artillery starts.
 * @throws UsageError naming the option to drop.
 */
export function refuseEmbeddedOptions(values: LoadValues, flag: string): void {
  if (values.fault.length > 0) throw new UsageError(`--fault applies to the embedded reference server, which ${flag} does not start; drop it`);
  if (values['server-rate-limit'] !== null) throw new UsageError(`--server-rate-limit applies to the embedded reference server, which ${flag} does not start; drop it`);
}

/** The target's host when it is not this machine and --yes was not given (the load is refused), else null. */
export function hostNeedingYes(target: string | undefined, yes: boolean): string | null {
  const hostname = target ? hostnameOf(target) : null;
  return hostname !== null && !isLoopbackHost(hostname) && !yes ? hostname : null;
}

function hostnameOf(target: string): string | null {
  try {
    return new URL(target).hostname;
  } catch {
    return null;
  }
}

/** The limit to judge against: the one given, else the embedded server's own (when `embedded`), else the profile's, else none. */
export function judgedRateLimit(values: LoadValues, profile: Profile, embedded: boolean): RateLimitWindow | null {
  if (values['rate-limit'] !== undefined) return values['rate-limit'];
  if (embedded) return values['server-rate-limit'];
  return values.profile ? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window } : null;
}
