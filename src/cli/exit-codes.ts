import type { ErrorCode } from '../errors.ts';
import { RUN_EXIT_CODES } from '../report/model.ts';

/**
 * The exit codes of every clockcheck command: one table, documented in `clockcheck --help`,
 * docs/exit-codes.md and the README, and tested (test/cli/exit-codes.test.ts, test/docs/pages.test.ts).
 * A run's report holds its code too (RunReport.exitCode): those codes are RUN_EXIT_CODES, which
 * must be rows of this table (checked below, at compile time).
 */
export const EXIT_CODES = {
  /** Nothing judged failed (skipped checks, budget cuts and waived failures do not change it); any other command: done. */
  passed: 0,
  /** A rule failed (run, selftest, load), `run --min-rules` judged too few rules, or `diff` found a regression. */
  failed: 1,
  /** The command, a flag, the profile, a suite or another input was wrong, or the run could not be made: nothing was judged. */
  usage: 2,
  /** `run`: no rule failed, but some checks errored (started and could not reach a verdict). */
  errored: 3,
  /** clockcheck's own bug: one line says so; CLOCKCHECK_DEBUG=1 prints the stack. (EX_SOFTWARE of sysexits.h.) */
  internal: 70,
  /** Interrupted by SIGINT (Ctrl-C): 128 + 2. */
  interrupted: 130,
  /** Interrupted by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** What each exit code means, for `--help` and the docs. */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'passed: nothing judged failed (skipped checks, budget cuts and waived failures do not change it); other commands: done',
  1: 'failed: a rule failed (run, grade, selftest, load), run judged fewer rules than --min-rules, or diff found a regression',
  2: 'usage: the command, a flag, the profile, a suite or another input was wrong, or the run could not be made (nothing was judged)',
  3: 'errored: no rule failed, but some checks errored (could not reach a verdict), or the target or --max-time stopped the run before its end',
  70: "internal: clockcheck's own bug (one line says so; CLOCKCHECK_DEBUG=1 prints the stack)",
  130: 'interrupted: stopped by SIGINT (Ctrl-C)',
  143: 'interrupted: stopped by SIGTERM',
};

/** Each exit code a run's report can hold, as the row of this table it is: a code missing here does not compile. */
export const RUN_EXIT_CODE_ROWS: Readonly<Record<keyof typeof RUN_EXIT_CODES, ExitCode>> = RUN_EXIT_CODES;

/**
 * The exit code of a command that ended with an error of this code. Signals a run handles itself
 * (a run stopped, a check skipped or without its precondition, the reference server's answers)
 * reach the CLI only through a bug, so they exit as one. A Record, so a new code cannot be
 * forgotten here.
 */
export const EXIT_CODE_OF_ERROR: Readonly<Record<ErrorCode, ExitCode>> = {
  CLOCKCHECK_USAGE: EXIT_CODES.usage,
  CLOCKCHECK_INPUT_FILE: EXIT_CODES.usage,
  CLOCKCHECK_SOURCE: EXIT_CODES.usage,
  CLOCKCHECK_PROFILE: EXIT_CODES.usage,
  CLOCKCHECK_REPORT: EXIT_CODES.usage,
  CLOCKCHECK_TRAFFIC: EXIT_CODES.usage,
  CLOCKCHECK_TARGET: EXIT_CODES.usage,
  CLOCKCHECK_TARGET_DATA: EXIT_CODES.failed,
  CLOCKCHECK_LISTEN: EXIT_CODES.usage,
  CLOCKCHECK_RUN_STOPPED: EXIT_CODES.internal,
  CLOCKCHECK_CHECK_SKIPPED: EXIT_CODES.internal,
  CLOCKCHECK_PRECONDITION: EXIT_CODES.internal,
  CLOCKCHECK_REFERENCE_ANSWER: EXIT_CODES.internal,
  CLOCKCHECK_INTERNAL: EXIT_CODES.internal,
};
