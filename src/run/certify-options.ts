import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { ProgressStream } from '../report/progress.ts';
import type { PropertyFamily } from '../properties/family.ts';
import type { RunBudget } from '../plan/budget.ts';
import type { Interruption } from '../execute/interruption.ts';

/** What a certification is asked to do: the target and its access, the selection, the seed, the budgets. */
export interface CertifyOptions {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly embedded: boolean;
  readonly profile: Profile;
  readonly token: string;
  readonly caPem?: string;
  readonly insecure: boolean;
  /** Certify an http:// target (development servers; HTTPS-ONLY then fails, as it should). */
  readonly allowPlainHttp?: boolean;
  readonly suitesDir: string;
  readonly suiteGlob: string;
  /** Rule IDs, check IDs (`suite/scenario`) or suite names; empty: everything. */
  readonly only: readonly string[];
  /** `--skip`: the checks these names select are taken out of `only`'s (selection.ts). */
  readonly skip?: readonly string[];
  readonly readOnly: boolean;
  readonly seed: number;
  /** Where progress goes; null for none. */
  readonly progress: ProgressStream | null;
  /** The command line that reruns against this target, without --only/--seed (for replay commands). */
  readonly replayBase: string;
  /** Called with every exchange (already redacted), e.g. for the rate-window monitor. */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Generated cases the property phase sends in all (0: no property checks). */
  readonly budget: number;
  /** Replays one generated case (fast-check path), with --only naming one property family. */
  readonly path?: string;
  /**
   * `--last-failed`: the failing case of each property family that failed there, by family name
   * (its fast-check path): the family replays that case alone instead of sending generated cases.
   */
  readonly casePaths?: Readonly<Record<string, string>>;
  /** The property families (default: all of src/properties/families.ts). */
  readonly families?: readonly PropertyFamily[];
  /** The run's time limit (`--max-time`); default: defaultMaxTimeMs of the plan's ETA. */
  readonly maxTimeMs?: number;
  /** `--within` / `--max-requests`: the checks that cover the most rules for the budget run (budget.ts); the rest are skipped. */
  readonly runBudget?: RunBudget;
  /** `--last-failed`: the report this run re-runs the failed and errored checks of. */
  readonly rerunOf?: { readonly runId: string; readonly reportPath: string };
  /** `--min-rules`: fewer rules judged than this makes the run exit 1 (report/run-verdict.ts). */
  readonly minRules?: number;
  /**
   * The embedded reference server only: it serves the paced checks at `rateLimit`, a quicker window
   * than the profile's, and `switchToProfileRateLimit` gives it the profile's limit on a fresh
   * limiter when the rate-limit phase starts (`switchToQuickRateLimit` the quick one when it ends) (docs/rate-limit-and-load.md, "The two windows of the embedded server").
   */
  readonly quickPacing?: QuickPacing;
  /**
   * The webhook subscription's secret (from the profile's `webhook.secret_env`), redacted like the
   * token; signatures are checked with it. Absent against the embedded server: the run makes one.
   */
  readonly webhookSecret?: string;
  /** The signals that interrupt the run (the CLI's SIGINT and SIGTERM): see interruption.ts. */
  readonly interruption?: Interruption;
  /** Called once the run is made: the preflight passed and the profile's fixtures hold (the CLI then lets the held progress through). */
  readonly onMade?: () => void;
  /** `--create-admin-users`: the run may create admin (role 1) users to meet a check's need; without it, such a need is a skip. */
  readonly createAdminUsers?: boolean;
}

/** See CertifyOptions.quickPacing. */
export interface QuickPacing {
  readonly rateLimit: RateLimitSetting;
  readonly switchToProfileRateLimit: () => Promise<void>;
  /** Back to `rateLimit`, on a fresh limiter, when the rate-limit phase ends (the paced checks after it go quickly again). */
  readonly switchToQuickRateLimit: () => Promise<void>;
}
