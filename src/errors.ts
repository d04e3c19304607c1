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
