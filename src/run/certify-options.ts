import type { Exchange } from '../client/exchange.ts';
import { formatRateLimit } from '../contract/rate-limit.ts';
import type { Profile } from '../profile/profile.ts';
import type { ProgressStream } from '../report/progress.ts';
import type { RunBudget } from '../plan/run-budget.ts';
import type { PlanOptions } from '../plan/plan.ts';
import type { Interruption } from '../execute/interruption.ts';
import type { OpenOptions } from '../execute/open.ts';
import type { QuickPacing } from '../execute/run-settings.ts';

/**
 * What a certification is asked to do, as the CLI (or a test) writes it: the target and its access,
 * the selection and the generated cases (the plan's options, plan/plan.ts), the seed, the budgets.
 */
export interface CertifyOptions extends Omit<PlanOptions, 'pacedAt' | 'readOnly'> {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly embedded: boolean;
  readonly token: string;
  /** A second company's administrator token (the profile's `second_company.token_env`), for the isolation checks. */
  readonly secondToken?: string;
  readonly caPem?: string;
  readonly insecure: boolean;
  /** Certify an http:// target (development servers; HTTPS-ONLY then fails, as it should). */
  readonly allowPlainHttp?: boolean;
  readonly readOnly: boolean;
  readonly seed: number;
  /** Where progress goes; null for none. */
  readonly progress: ProgressStream | null;
  /** The command line that reruns against this target, without --only/--seed (for replay commands). */
  readonly replayBase: string;
  /** Called with every exchange (already redacted), e.g. for the rate-window monitor. */
  readonly onExchange?: (exchange: Exchange) => void;
  /** The run's time limit (`--max-time`); default: defaultMaxTimeMs of the plan's ETA. */
  readonly maxTimeMs?: number;
  /** `--within` / `--max-requests`: the checks that cover the most rules for the budget run (plan/budget.ts); the rest are skipped. */
  readonly runBudget?: RunBudget;
  /** `--last-failed`: the report this run re-runs the failed and errored checks of. */
  readonly rerunOf?: { readonly runId: string; readonly reportPath: string };
  /** `--min-rules`: fewer rules judged than this makes the run exit 1 (report/run-verdict.ts). */
  readonly minRules?: number;
  /** The embedded reference server only: its quick window for the paced checks (execute/run-settings.ts). */
  readonly quickPacing?: QuickPacing;
  /**
   * The webhook subscription's secret (from the profile's `webhook.secret_env`), redacted like the
   * token; signatures are checked with it. Absent against the embedded server: the run makes one.
   */
  readonly webhookSecret?: string;
  /** The signals that interrupt the run (the CLI's SIGINT and SIGTERM): see execute/interruption.ts. */
  readonly interruption?: Interruption;
  /** Called once the run is made: the preflight passed and the profile's fixtures hold (the CLI then lets the held progress through). */
  readonly onMade?: () => void;
  /** `--create-admin-users`: the run may create admin (role 1) users to meet a check's need; without it, such a need is a skip. */
  readonly createAdminUsers?: boolean;
}

/** What the report says the run was asked to do (RunReport's target, profile, seed and options). */
export interface ReportSettings {
  readonly origin: string;
  readonly embedded: boolean;
  readonly profile: Profile;
  readonly seed: number;
  readonly only: readonly string[];
  readonly skip?: readonly string[];
  readonly readOnly: boolean;
  readonly suiteGlob: string;
  readonly budget: number;
  readonly runBudget?: RunBudget;
  readonly rerunOf?: { readonly runId: string; readonly reportPath: string };
  readonly minRules?: number;
}

/** A certification's options resolved once, each part for the stage that uses it. */
export interface Certification {
  /** The plan's: what to load and select, how many cases, at which pace (plan/plan.ts). */
  readonly planning: PlanOptions;
  readonly runBudget: RunBudget | undefined;
  /** The open run's: the target, the checks' settings, the limits, the progress line, the opening notes (execute/open.ts). */
  readonly opening: OpenOptions;
  /** The report's (judge.ts). */
  readonly report: ReportSettings;
  readonly createAdminUsers: boolean;
  readonly onMade: (() => void) | undefined;
}

/**
 * Resolves a certification's options once: the quick window only where the profile has bursts, the
 * plan paced at it, the notes the run has before it sends anything, and each stage's part.
 */
export function resolveCertification(options: CertifyOptions): Certification {
  const { profile } = options;
  const quick = profile.rate_limit.bursts ? options.quickPacing : undefined;
  const optional = <K extends keyof CertifyOptions>(key: K) => (options[key] === undefined ? {} : ({ [key]: options[key] } as Pick<CertifyOptions, K>));
  return {
    planning: {
      profile,
      suitesDir: options.suitesDir,
      suiteGlob: options.suiteGlob,
      only: options.only,
      budget: options.budget,
      readOnly: options.readOnly,
      ...optional('skip'),
      ...optional('path'),
      ...optional('casePaths'),
      ...optional('families'),
      ...(quick ? { pacedAt: quick.rateLimit } : {}),
    },
    runBudget: options.runBudget,
    opening: {
      access: { origin: options.origin, token: options.token, insecure: options.insecure, allowPlainHttp: options.allowPlainHttp ?? false, embedded: options.embedded, ...optional('caPem'), ...optional('secondToken'), ...optional('webhookSecret'), ...optional('onExchange') },
      checks: { profile, seed: options.seed, replayBase: options.replayBase, readOnly: options.readOnly, budget: options.budget, ...optional('path'), ...optional('casePaths') },
      limits: { ...optional('maxTimeMs'), ...optional('runBudget'), ...optional('interruption') },
      progress: options.progress,
      ...(quick ? { quick } : {}),
      notes: openingNotes(options, quick),
    },
    report: {
      origin: options.origin,
      embedded: options.embedded,
      profile,
      seed: options.seed,
      only: options.only,
      readOnly: options.readOnly,
      suiteGlob: options.suiteGlob,
      budget: options.budget,
      ...optional('skip'),
      ...optional('runBudget'),
      ...optional('rerunOf'),
      ...optional('minRules'),
    },
    createAdminUsers: options.createAdminUsers ?? false,
    onMade: options.onMade,
  };
}

/** The notes a run has before it sends anything: the embedded server's two windows, what --last-failed re-runs (the budget's choice is the plan's). */
function openingNotes(options: CertifyOptions, quick: QuickPacing | undefined): string[] {
  const { profile } = options;
  const notes: string[] = [];
  if (quick) {
    notes.push(`the embedded server served the paced checks at ${formatRateLimit(quick.rateLimit)} and the rate-limit phase at the profile's ${formatRateLimit({ limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window })}, on a fresh limiter`);
  }
  if (options.rerunOf) {
    notes.push(`--last-failed: re-ran the checks that failed, errored or were not run in run ${options.rerunOf.runId} (${options.rerunOf.reportPath}), with its seed ${options.seed}`);
  }
  return notes;
}
