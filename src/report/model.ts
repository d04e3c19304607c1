import type { Rule, RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';

/**
 * The exit codes a run can end with: the run's rows of the one exit-code table, src/cli/exit-codes.ts
 * (which checks at compile time that each is in it). report/run-verdict.ts decides which applies.
 */
export const RUN_EXIT_CODES = {
  /** Nothing judged failed: skipped checks, budget cuts and waived failures do not change it. */
  passed: 0,
  /** A rule failed, or fewer rules were judged than `--min-rules`. */
  failed: 1,
  /** The run could not be made: nothing was judged. */
  notMade: 2,
  /** No rule failed, but some checks errored. */
  errored: 3,
  /** clockcheck's own bug stopped the run (`internalError`); the report holds what it judged before. */
  internal: 70,
  /** Interrupted by SIGINT (128 + 2). */
  sigint: 130,
  /** Interrupted by SIGTERM (128 + 15). */
  sigterm: 143,
} as const;

export type RunExitCode = (typeof RUN_EXIT_CODES)[keyof typeof RUN_EXIT_CODES];

/** Bumped on any incompatible change of RunReport; documented in docs/report-schema.json. */
export const REPORT_SCHEMA_VERSION = '2.2.0';

/**
 * passed: every expectation held. failed: the target broke a rule (a finding).
 * waived: failed, but the profile waives the rule (reported with the reason; does not fail the run).
 * Those three judged their rules; the other three judged nothing, and say why in `reason`:
 * errored: the check could not reach a verdict for a cause on the target's side (transport trouble, a
 * missing capture, a value no request can carry), or the run stopped for such a cause (the target
 * stalled or stopped answering, the token was refused mid-run, the time limit passed) while it was
 * in progress or before it started (`RunReport.stopped`).
 * skipped: the check does not apply to this target or selection (read-only, a fixture the profile lacks).
 * not-run: the user's choice left it out: a budget (`--within`, `--max-requests`), `--only`/`--skip`
 * choices recorded as such, a signal; or the run could not be made (`runError`) before it started.
 */
export type CheckStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'not-run' | 'waived';

/** Every status, in the order reporters count them. */
export const CHECK_STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'errored', 'skipped', 'not-run', 'waived'];

/** The statuses of a check that judged its rules: it passed, failed, or failed on a waived rule. */
export type JudgingStatus = Extract<CheckStatus, 'passed' | 'failed' | 'waived'>;

/** The statuses of a check that judged nothing, each with a reason. */
export type UnjudgedStatus = Exclude<CheckStatus, JudgingStatus>;

/** One broken expectation: which rule, what was expected, what was observed, in which exchange. */
export interface Finding {
  readonly ruleId: RuleId;
  readonly expected: string;
  readonly actual: string;
  /** IDs of the exchanges that show it (see CheckResult.exchanges). */
  readonly exchangeIds: readonly number[];
  /** A read-back finding (records/read-back): the checks whose accepted writes it judges, by ID; absent when no check wrote them (the calls that meet the checks' needs). */
  readonly writtenBy?: readonly string[];
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
      /** A failed stateful family (user-sequences): the shrunk sequence, as scenario steps regressions.yaml replays. */
      readonly sequence?: readonly Readonly<Record<string, unknown>>[];
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
  /** Why the check was skipped, errored or not run. */
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

/**
 * What became of a rule. failed, waived, passed: at least one check judged it (the worst of their
 * verdicts on it), and the rule is covered. errored, not-run, skipped: checks name it but none
 * judged it (the most telling of their statuses). uncovered: no check names it.
 */
export type RuleOutcome = JudgingStatus | UnjudgedStatus | 'uncovered';

/** Per-rule coverage: which checks name it and what became of it (report/coverage.ts computes it). */
export interface RuleCoverage {
  readonly rule: Rule;
  readonly outcome: RuleOutcome;
  /** Every check that names the rule or has a finding on it, whatever its status. */
  readonly checkIds: readonly string[];
}

/** Checks that judged nothing for one reason (the reason as the checks give it). */
export interface UnjudgedGroup {
  readonly status: UnjudgedStatus;
  readonly reason: string;
  /** In run order. */
  readonly checkIds: readonly string[];
}

/** A resource the run created on the target (the spec has no delete for most). */
/** Whose record: the run's own company's (its token), or the second company's (profile second_company). */
export type RecordCompany = 'first' | 'second';

/** Appended to the check ID a record of the second company is listed under (`isolation/companies (in the second company)`). */
export const IN_SECOND_COMPANY = ' (in the second company)';

export interface CreatedResource {
  readonly kind: 'schedule' | 'user' | 'timesheet' | 'break' | 'webhook';
  readonly id: string;
  readonly checkId: string;
}

/** What an interrupted run did to remove what it had made and can be removed (§4.5: the webhook subscription; the spec has no delete for the rest). */
export interface RunCleanup {
  /** `removed`: all it could remove is gone; `nothing`: nothing it made can be removed; `skipped`: a second signal; `failed`: the target refused or did not answer. */
  readonly outcome: 'removed' | 'nothing' | 'skipped' | 'failed';
  /** One sentence: what was removed or left, and why. */
  readonly detail: string;
  /** The cleanup's requests (redacted), in order. */
  readonly exchanges: readonly Exchange[];
}

/** The counts and lists every reporter shows; computed once from the checks (report/coverage.ts). */
export interface RunSummary {
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly skipped: number;
  readonly notRun: number;
  readonly waived: number;
  /** Rules judged: at least one check passed, failed or waived on it. Errored, skipped and not-run checks judge nothing. */
  readonly rulesCovered: number;
  /** Rules in the catalog. */
  readonly rulesTotal: number;
  /** The judged rules (`rulesCovered` of them), in catalog order. */
  readonly coveredRules: readonly string[];
  /** The checks that judged nothing, grouped by status (errored, not-run, skipped) and reason, the largest group of each status first. */
  readonly unjudged: readonly UnjudgedGroup[];
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
    /** `--skip`: the checks these names select were taken out of `only`'s; absent when not given. */
    readonly skip?: readonly string[];
    readonly readOnly: boolean;
    readonly suites: readonly string[];
    readonly budget: number;
    readonly maxTimeMs?: number;
    /** `--last-failed`: the runId of the report whose failed and errored checks this run re-ran. */
    readonly rerunOf?: string;
    /** `--within`, in ms: the checks that cover the most rules for it ran; the rest are not-run ("not run: budget …"). */
    readonly withinMs?: number;
    /** `--max-requests`: likewise, in requests. */
    readonly maxRequests?: number;
    /** `--min-rules`: fewer rules judged than this makes the run exit 1 (NOT JUDGED ENOUGH), even when nothing failed. */
    readonly minRules?: number;
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** What the plan expected the run to take at the target's limit (the budget's choice, when one was given), beside `durationMs`. */
  readonly plannedEtaMs: number;
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
  /** Why the run could not be made (unreachable, TLS, a refused token, a redirect); then the preflight is errored, every other check not-run, and exitCode is 2. */
  readonly runError?: string;
  /**
   * The run stopped before its end for a cause the user did not choose (the target stalled or stopped
   * answering, the token was refused mid-run, the time limit passed): the checks it left unjudged are
   * errored with `reason`, and the run is not green (exit 3 unless a rule failed). Absent when the run
   * ran to its end, or a budget or a signal ended it.
   */
  readonly stopped?: { readonly by: 'target' | 'time-limit'; readonly reason: string };
  /**
   * clockcheck's own bug ended the run (a check threw what no check throws, or the run waited on
   * something that could never come): the one-line cause. The checks it left unjudged are errored
   * with it, and exitCode is 70. Absent in a run without one.
   */
  readonly internalError?: string;
  /** An interrupted run's one cleanup attempt of what it could remove (the webhook subscription it made); absent when the run was not interrupted. */
  readonly cleanup?: RunCleanup;
  /** `complete`: the run ended by itself (stopped early or not: see `notes`). `interrupted`: a signal (SIGINT, SIGTERM) ended it; exitCode is then 130 or 143. */
  readonly status: 'complete' | 'interrupted';
  /** The run's exit code (RUN_EXIT_CODES; report/run-verdict.ts decides it). */
  readonly exitCode: RunExitCode;
}
