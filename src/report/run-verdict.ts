import { RUN_EXIT_CODES, type RunExitCode, type RunReport, type RunSummary } from './model.ts';

/** The run's verdict as the terminal, report.html and junit.xml say it; each follows one exit code. */
export type RunVerdict = 'PASSED' | 'FAILED' | 'NOT JUDGED ENOUGH' | 'ERRORED' | 'NOT RUN' | 'INTERRUPTED' | 'INTERNAL ERROR';

/** What decides a run's exit code. */
export interface RunFacts {
  readonly summary: RunSummary;
  /** Why the run could not be made; then nothing was judged. */
  readonly runError?: string | undefined;
  /** `--min-rules`. */
  readonly minRules?: number | undefined;
  /** The signal that interrupted the run, if one did. */
  readonly interruptedBy?: 'SIGINT' | 'SIGTERM' | undefined;
  /** The run stopped before its end for a cause the user did not choose (RunReport.stopped): never green. */
  readonly stopped?: boolean;
  /** clockcheck's own bug ended the run (RunReport.internalError). */
  readonly internalError?: string | undefined;
}

/**
 * The exit code of a run, first match wins: interrupted (130 SIGINT, 143 SIGTERM); clockcheck's own
 * bug ended it (70); the run could not be made (2); a rule failed (1); fewer rules judged than --min-rules (1); a check errored, or
 * the target or the time limit stopped the run before its end (3); else passed (0): skipped checks,
 * budget cuts and waived failures do not change it.
 */
export function runExitCode(facts: RunFacts): RunExitCode {
  if (facts.interruptedBy !== undefined) return facts.interruptedBy === 'SIGINT' ? RUN_EXIT_CODES.sigint : RUN_EXIT_CODES.sigterm;
  if (facts.internalError !== undefined) return RUN_EXIT_CODES.internal;
  if (facts.runError !== undefined) return RUN_EXIT_CODES.notMade;
  if (facts.summary.failed > 0 || minRulesShortfall(facts.summary, facts.minRules) !== null) return RUN_EXIT_CODES.failed;
  if (facts.summary.errored > 0 || facts.stopped === true) return RUN_EXIT_CODES.errored;
  return RUN_EXIT_CODES.passed;
}

/** "judged 37 rules, fewer than --min-rules 60" when the run judged fewer rules than asked; else null. */
export function minRulesShortfall(summary: RunSummary, minRules: number | undefined): string | null {
  if (minRules === undefined || summary.rulesCovered >= minRules) return null;
  return `judged ${summary.rulesCovered} rule${summary.rulesCovered === 1 ? '' : 's'}, fewer than --min-rules ${minRules}`;
}

/** The verdict a report's exit code stands for (1 is FAILED when a rule failed, else NOT JUDGED ENOUGH). */
export function runVerdict(report: Pick<RunReport, 'exitCode' | 'summary'>): RunVerdict {
  switch (report.exitCode) {
    case RUN_EXIT_CODES.passed:
      return 'PASSED';
    case RUN_EXIT_CODES.failed:
      return report.summary.failed > 0 ? 'FAILED' : 'NOT JUDGED ENOUGH';
    case RUN_EXIT_CODES.notMade:
      return 'NOT RUN';
    case RUN_EXIT_CODES.errored:
      return 'ERRORED';
    case RUN_EXIT_CODES.sigint:
    case RUN_EXIT_CODES.sigterm:
      return 'INTERRUPTED';
    case RUN_EXIT_CODES.internal:
      return 'INTERNAL ERROR';
  }
}

/** "37 of 102 rules judged": the coverage every reporter states. */
export function rulesJudgedText(summary: RunSummary): string {
  return `${summary.rulesCovered} of ${summary.rulesTotal} rules judged`;
}
