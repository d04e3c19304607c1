import type { Rule, RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';

/** Bumped on any incompatible change of RunReport; documented in docs/report-schema.json. */
export const REPORT_SCHEMA_VERSION = '1.7.0';

/**
 * passed: every expectation held. failed: the target broke a rule (a finding).
 * errored: the check could not reach a verdict (transport trouble, a missing capture).
 * skipped: not run, with a reason (read-only, missing fixture, not in --only).
 * waived: failed, but the profile waives the rule (reported with the reason; does not fail the run).
 */
export type CheckStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'waived';

/** One broken expectation: which rule, what was expected, what was observed, in which exchange. */
export interface Finding {
  readonly ruleId: RuleId;
  readonly expected: string;
  readonly actual: string;
  /** IDs of the exchanges that show it (see CheckResult.exchanges). */
  readonly exchangeIds: readonly number[];
}

/** Where a check comes from, so a failure can be found and replayed. */
export type CheckSource =
  | { readonly kind: 'scenario'; readonly file: string; readonly line: number }
  | {
      readonly kind: 'property';
      readonly generator: string;
      readonly seed: number;
      readonly path: string;
      /** A failed family: the failing (smallest) case, valid or breaking `breaks`; its label says what it is. */
      readonly counterexample?: { readonly label: string; readonly breaks: RuleId | null; readonly exchangeId: number };
      /** A failed family: an accepted valid case of the same run, the baseline a rejection is judged against. */
      readonly baselineExchangeId?: number;
      /** A failed family that needed a resource (a user to edit, a timesheet for breaks): the request that created it. */
      readonly setupExchangeId?: number;
    }
  | { readonly kind: 'builtin'; readonly name: string };

export interface CheckResult {
  /** Stable ID, e.g. `schedules/date-format-rejects-feb-30`. */
  readonly id: string;
  readonly title: string;
  /** Rules this check covers (its verdict counts for each). */
  readonly rules: readonly RuleId[];
  readonly source: CheckSource;
  readonly status: CheckStatus;
  readonly findings: readonly Finding[];
  /** Why the check was skipped or errored. */
  readonly reason?: string;
  /** The profile's waiver that turned a failure into `waived`. */
  readonly waiver?: { readonly rule: RuleId; readonly reason: string };
  /** Observations that are not verdicts (e.g. the Retry-After a 429 carried, how long a burst took). */
  readonly notes?: readonly string[];
  /** The exchanges this check made, redacted. */
  readonly exchanges: readonly Exchange[];
  readonly durationMs: number;
  /** A command that reruns this check alone: `clockcheck run --target … --only …`. */
  readonly replay: string;
}

/** Per-rule coverage: which checks cover it and what they concluded. */
export interface RuleCoverage {
  readonly rule: Rule;
  /** uncovered: no check names this rule. */
  readonly outcome: CheckStatus | 'uncovered';
  readonly checkIds: readonly string[];
}

/** A resource the run created on the target (the spec has no delete for most). */
export interface CreatedResource {
  readonly kind: 'schedule' | 'user' | 'timesheet' | 'break' | 'webhook';
  readonly id: string;
  readonly checkId: string;
}

export interface RunSummary {
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly skipped: number;
  readonly waived: number;
  readonly rulesCovered: number;
  readonly rulesTotal: number;
}

/** Everything a reporter needs; reporters only read it. Serialized as report.json. */
export interface RunReport {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly tool: { readonly name: 'clockcheck'; readonly version: string };
  /** The spec document certified against and its SHA-256. */
  readonly spec: { readonly title: string; readonly sha256: string };
  readonly target: {
    readonly baseUrl: string;
    readonly apiPrefix: string;
    /** SHA-256 fingerprint of the target's TLS certificate (`AA:BB:…`), null when not seen. */
    readonly tlsFingerprint256: string | null;
    readonly embedded: boolean;
  };
  /** The resolved profile, with secrets removed (token_env name kept, never the token). */
  readonly profile: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** `budget`: generated cases the property phase could send (0: no property checks). */
  /** `maxTimeMs`: the run's time limit (`--max-time`, or three times the plan's ETA and at least 10 min). */
  readonly options: {
    readonly only: readonly string[];
    readonly readOnly: boolean;
    readonly suites: readonly string[];
    readonly budget: number;
    readonly maxTimeMs?: number;
    /** `--last-failed`: the runId of the report whose failed and errored checks this run re-ran. */
    readonly rerunOf?: string;
    /** `--within`, in ms: the checks that cover the most rules for it ran; the rest are skipped as over budget. */
    readonly withinMs?: number;
    /** `--max-requests`: likewise, in requests. */
    readonly maxRequests?: number;
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly requests: {
    readonly planned: number;
    readonly made: number;
    /** 429s outside the rate-limit checks: the pacer should keep this 0. */
    readonly unintended429: number;
    /** Of those, the paced calls sent once more after the target's Retry-After (their checks judged the second answer). */
    readonly resent: number;
  };
  /**
   * How the checks sent the token: `raw` as §5.2 says, or `bearer` when the preflight found the raw
   * form refused and `Bearer <token>` served (AUTH-HEADER-RAW then fails; see `notes`).
   */
  readonly tokenForm: 'raw' | 'bearer';
  /** Run-wide observations for the summary: a token form other than §5.2's, a run that stopped early and why. */
  readonly notes: readonly string[];
  readonly checks: readonly CheckResult[];
  readonly coverage: readonly RuleCoverage[];
  readonly createdResources: readonly CreatedResource[];
  readonly summary: RunSummary;
  /** Why the run could not be made (unreachable, TLS, a refused token, a redirect); then every check is errored and exitCode is 2. */
  readonly runError?: string;
  /** 0 all passed (or waived/skipped), 1 any failed or errored, 2 the run could not be made. */
  readonly exitCode: 0 | 1 | 2;
}
