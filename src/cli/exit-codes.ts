import type { ErrorCode } from '../errors.ts';

/**
 * The exit codes of every clockcheck command: one table, documented in `clockcheck --help`,
 * docs/exit-codes.md and the README, and tested (test/cli/bad-inputs.test.ts, test/docs/pages.test.ts).
 */
export const EXIT_CODES = {
  /** Everything judged passed (skipped and waived checks do not change it); any other command: done. */
  passed: 0,
  /** A check failed or errored (run, selftest, load), or `diff` found a regression. */
  failed: 1,
  /** The command, a flag, the profile, a suite or another input was wrong, or the run could not be made: nothing was judged. */
  usage: 2,
  /** clockcheck's own bug: one line says so; CLOCKCHECK_DEBUG=1 prints the stack. (EX_SOFTWARE of sysexits.h.) */
  internal: 70,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** What each exit code means, for `--help` and the docs. */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'passed: every check judged passed (skipped and waived checks do not change it); other commands: done',
  1: 'failed: a check failed or errored (run, selftest, load), or diff found a regression',
  2: 'usage: the command, a flag, the profile, a suite or another input was wrong, or the run could not be made (nothing was judged)',
  70: "internal: clockcheck's own bug (one line says so; CLOCKCHECK_DEBUG=1 prints the stack)",
};

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
  CLOCKCHECK_TARGET: EXIT_CODES.usage,
  CLOCKCHECK_TARGET_DATA: EXIT_CODES.failed,
  CLOCKCHECK_LISTEN: EXIT_CODES.usage,
  CLOCKCHECK_RUN_STOPPED: EXIT_CODES.internal,
  CLOCKCHECK_CHECK_SKIPPED: EXIT_CODES.internal,
  CLOCKCHECK_PRECONDITION: EXIT_CODES.internal,
  CLOCKCHECK_REFERENCE_ANSWER: EXIT_CODES.internal,
  CLOCKCHECK_INTERNAL: EXIT_CODES.internal,
};
