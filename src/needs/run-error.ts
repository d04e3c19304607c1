import type { Exchange } from '../client/exchange.ts';
import { ClockcheckError } from '../errors.ts';

/**
 * The run could not be made (unreachable target, TLS trouble, a refused token, a redirect): exit
 * code 2, one line saying what to fix; `evidence` holds the exchanges that showed it (redacted).
 */
export class RunError extends ClockcheckError {
  constructor(
    message: string,
    readonly evidence: readonly Exchange[] = [],
  ) {
    super('CLOCKCHECK_TARGET', message);
  }
}
