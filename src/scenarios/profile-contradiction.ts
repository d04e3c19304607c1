import { ClockcheckError } from '../errors.ts';

/**
 * A step whose request rests on a profile value (`expect.profile`) got an answer that shows the
 * value does not fit the target (a read path that reads nothing right after a subscribe was
 * served): the check is errored with the key named, and no rule of the target is judged by it.
 */
export class ProfileContradiction extends ClockcheckError {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super('CLOCKCHECK_PROFILE', `profile: ${key}: ${reason}`);
  }
}
