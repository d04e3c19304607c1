/**
 * Every error clockcheck throws is a ClockcheckError with one of these codes. Two kinds of bad
 * news are kept apart: a server that breaks a rule is not an error but a finding (data, reported
 * by the checks); an error is misuse of the tool, an input that cannot be read, a target the run
 * cannot reach, or a signal inside the run. The CLI maps each code to an exit code in one table
 * (src/cli/exit-codes.ts), and the compiler keeps that table complete.
 */
export const ERROR_CODES = {
  /** A command, flag or option value is wrong; the message says what to type instead. */
  CLOCKCHECK_USAGE: 'a command, flag or option value is wrong',
  /** A file named on the command line or in a profile cannot be read (missing, a directory, not permitted). */
  CLOCKCHECK_INPUT_FILE: 'a file it was given cannot be read',
  /** A YAML file the user wrote (profile, suite, regressions.yaml) is malformed: file, line, key, hint. */
  CLOCKCHECK_SOURCE: 'a profile, suite or regressions.yaml is malformed (file:line)',
  /** A profile value that cannot serve (a fixture that is not what its key says): the key and why. */
  CLOCKCHECK_PROFILE: 'a profile value cannot serve as declared',
  /** A report given to `diff` or `--last-failed` is not one clockcheck can read. */
  CLOCKCHECK_REPORT: 'a report given to it is not one clockcheck reads',
  /** A traffic recording given to `grade` (a HAR file) is malformed, or holds no exchange of the API. */
  CLOCKCHECK_TRAFFIC: 'a HAR file given to grade is malformed or holds no exchange of the API',
  /** The run could not be made: the target unreachable, TLS trouble, the token refused, the API redirected. */
  CLOCKCHECK_TARGET: 'the target could not be reached or refused the token',
  /** A value the target sent cannot go into a request (a link off its origin, an ID no URL or header can hold). */
  CLOCKCHECK_TARGET_DATA: 'a value the target sent cannot be used in a request',
  /** A server, sink or the embedded target could not start (a port in use, no such address). */
  CLOCKCHECK_LISTEN: 'a server or sink could not start where it was told',
  /** Inside a run: the run stops (token revoked, target dead, time or budget spent); the checks not run are errored. */
  CLOCKCHECK_RUN_STOPPED: 'the run stopped before its end (reported, not an exit of its own)',
  /** Inside a check: it is skipped (a need the profile does not meet). */
  CLOCKCHECK_CHECK_SKIPPED: 'a check was skipped (reported, not an exit of its own)',
  /** Inside a check: its precondition was not shown, so it cannot judge (errored, never passed). */
  CLOCKCHECK_PRECONDITION: 'a check could not judge (reported, not an exit of its own)',
  /** Inside the reference server: an answer other than success (a 4xx with its body). */
  CLOCKCHECK_REFERENCE_ANSWER: 'the reference server answers an error (an HTTP answer, not an exit)',
  /** clockcheck's own bug: an assumption of its code did not hold. */
  CLOCKCHECK_INTERNAL: 'a bug in clockcheck',
} as const;

/** The stable code of a ClockcheckError. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error clockcheck throws: a stable `code`, a one-line message that names the place, and a hint. */
export class ClockcheckError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad command-line usage; the message says what to type instead. */
export class UsageError extends ClockcheckError {
  constructor(message: string) {
    super('CLOCKCHECK_USAGE', message);
  }
}

/** An assumption of clockcheck's own code did not hold: a bug, reported as one line with its own exit code. */
export class InternalError extends ClockcheckError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CLOCKCHECK_INTERNAL', message, options);
  }
}

/**
 * Why a run stopped sending: the target (it stopped answering, it revoked the token), the run's time
 * limit (`--max-time`), its budget (`--within`, `--max-requests`: what did not fit is not run, never
 * errored), or a signal (SIGINT, SIGTERM: the run is interrupted).
 */
export type StopCause = 'target' | 'time-limit' | 'budget' | 'interrupted';

/**
 * The run cannot go on (the token was revoked mid-run, the target stopped answering or stalled, the
 * time limit passed, the budget is spent, a signal came): no request is sent any more and the reports
 * are still written. What it leaves unjudged follows `stoppedBy` (`isChosenStop`): a budget or a
 * signal is the user's choice, so the checks it cut are `not-run`; anything else (the target, the
 * time limit) left checks the run meant to judge unjudged, so they are `errored` with this reason and
 * the run is never green (exit 3 unless a rule failed).
 */
export class RunStopped extends ClockcheckError {
  constructor(
    readonly reason: string,
    readonly stoppedBy: StopCause = 'target',
  ) {
    super('CLOCKCHECK_RUN_STOPPED', reason);
  }
}

/** Whether a stop is the user's own choice (a budget, a signal): what it cut is not run, not errored. */
export function isChosenStop(stoppedBy: StopCause): boolean {
  return stoppedBy === 'budget' || stoppedBy === 'interrupted';
}
