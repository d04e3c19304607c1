import type { Exchange } from './client/exchange.ts';

/**
 * Misuse of the tool or broken infrastructure: one base class, each subclass with a stable code.
 * A server that breaks a rule is not an error: that is a finding (data), reported by the checks.
 */
export class ClockcheckError extends Error {
  constructor(
    readonly code: string,
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

/**
 * The run could not be made (unreachable target, TLS trouble, a refused token, a redirect): exit
 * code 2, one line saying what to fix; `evidence` holds the exchanges that showed it (redacted).
 */
export class RunError extends ClockcheckError {
  constructor(
    message: string,
    readonly evidence: readonly Exchange[] = [],
  ) {
    super('CLOCKCHECK_RUN', message);
  }
}

/**
 * The run cannot go on (the token was revoked mid-run): the check in progress and every check
 * after it are reported `errored` with this reason, and the reports are still written.
 */
export class RunStopped extends ClockcheckError {
  constructor(readonly reason: string) {
    super('CLOCKCHECK_RUN_STOPPED', reason);
  }
}
