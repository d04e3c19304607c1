import type { Exchange } from '../client/exchange.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { Profile } from '../profile/profile.ts';
import type { RunBudget } from '../plan/run-budget.ts';
import type { Interruption } from './interruption.ts';

// What a run is given, resolved once at its top (run/certify-options.ts) and handed to each part as
// the part it needs: the transport its target, the checks their settings, the guard its limits.

/** Where a run sends and how it is trusted: the spec's `{base_url}`, the token, the TLS trust, the secrets redacted like the token. */
export interface TargetAccess {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly token: string;
  /** A second company's administrator token (the profile's `second_company.token_env`): the isolation checks send as that company. */
  readonly secondToken?: string;
  readonly caPem?: string;
  readonly insecure: boolean;
  /** Certify an http:// target (development servers; HTTPS-ONLY then fails, as it should). */
  readonly allowPlainHttp: boolean;
  /** The embedded reference server: the run makes the webhook subscription's secret itself. */
  readonly embedded: boolean;
  /** The profile's webhook subscription secret (`webhook.secret_env`), redacted like the token; absent against the embedded server. */
  readonly webhookSecret?: string;
  /** Called with every exchange (already redacted), e.g. for the rate-window monitor. */
  readonly onExchange?: (exchange: Exchange) => void;
}

/** What the checks of a run run with: the profile, the seed their cases and dates derive from, and how each is replayed. */
export interface CheckSettings {
  readonly profile: Profile;
  readonly seed: number;
  /** The command line that reruns against this target, without --only/--seed (for replay commands). */
  readonly replayBase: string;
  /** `--read-only`: scenarios that change data are skipped. */
  readonly readOnly: boolean;
  /** Generated cases the property phase sends in all. */
  readonly budget: number;
  /** Replays one generated case (fast-check path). */
  readonly path?: string;
  /** `--last-failed`: the failing case of each property family that failed there, by family name. */
  readonly casePaths?: Readonly<Record<string, string>>;
}

/** What ends a run before its plan does: its time limit, its budget, a signal. */
export interface RunLimits {
  /** `--max-time`; default: the guard's, from the plan's ETA (run-guard.ts). */
  readonly maxTimeMs?: number;
  /** `--within` / `--max-requests`. */
  readonly runBudget?: RunBudget;
  /** The signals that interrupt the run (the CLI's SIGINT and SIGTERM): see interruption.ts. */
  readonly interruption?: Interruption;
}

/**
 * The embedded reference server only: it serves the paced checks at `rateLimit`, a quicker window
 * than the profile's, and `switchToProfileRateLimit` gives it the profile's limit on a fresh
 * limiter when the rate-limit phase starts (docs/rate-limit-and-load.md, "The two windows of the embedded server").
 */
export interface QuickPacing {
  readonly rateLimit: RateLimitSetting;
  readonly switchToProfileRateLimit: () => Promise<void>;
  /** Back to `rateLimit`, on a fresh limiter, when the rate-limit phase ends (the paced checks after it go quickly again). */
  readonly switchToQuickRateLimit: () => Promise<void>;
}
