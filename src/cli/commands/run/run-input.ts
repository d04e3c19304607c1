import type { RateLimitSetting } from '../../../contract/rate-limit.ts';
import type { Profile } from '../../../profile/profile.ts';
import type { RunBudget } from '../../../plan/run-budget.ts';
import type { LastFailed } from '../../../plan/last-failed.ts';

/**
 * A `clockcheck run` resolved once from its options, its profile and any report it re-runs
 * (commands/run.ts): what the plan, the certification and the reports each read, every default filled in.
 */
export interface RunInput {
  readonly profile: Profile;
  /** The --target, else the profile's; undefined certifies the embedded reference server. */
  readonly targetUrl: string | undefined;
  readonly lastFailed: LastFailed | null;
  readonly seed: number;
  readonly selection: { readonly suitesDir: string; readonly suiteGlob: string; readonly only: string[]; readonly skip: string[]; readonly budget: number; readonly path?: string; readonly casePaths?: Readonly<Record<string, string>> };
  readonly runBudget: RunBudget | undefined;
  /**
   * The embedded server paces its checks at the quick window and runs the rate-limit phase at its own
   * (docs/rate-limit-and-load.md, "The two windows of the embedded server"); with --rate-limit, the run paces at that instead.
   */
  readonly quick: boolean;
  /** The target's access: --ca, --insecure, --allow-http. */
  readonly access: { readonly ca: string | undefined; readonly insecure: boolean; readonly allowHttp: boolean };
  /** `--rate-limit`: the target's limit in place of the profile's. */
  readonly rateLimit: RateLimitSetting | undefined;
  /** `--fault`: the embedded server's faults. */
  readonly faults: readonly string[];
  readonly readOnly: boolean;
  readonly createAdminUsers: boolean;
  readonly maxTimeMs: number | undefined;
  readonly minRules: number | undefined;
  /** What the run prints and writes: --quiet, --har, --format (of --plan), --report-dir. */
  readonly output: { readonly quiet: boolean; readonly har: boolean; readonly format: 'text' | 'json'; readonly reportDir: string };
  /** The replay commands' `clockcheck run …` against `origin` (null: the embedded server). */
  readonly replayBase: (origin: string | null) => string;
}

/** The profile with `--rate-limit L/W` in place of its own limit (none given: the profile's). */
export function withRateLimitOption(profile: Profile, setting: RateLimitSetting | undefined): Profile {
  if (!setting) return profile;
  return { ...profile, rate_limit: { ...profile.rate_limit, limit: setting.limit, window: setting.windowMs } };
}
