import { ClockcheckError } from '../errors.ts';

/** The scenario could not reach a verdict (setup failed, a capture was missing, args that rendered to the wrong kind): errored with the reason. */
export class ScenarioError extends ClockcheckError {
  constructor(reason: string) {
    super('CLOCKCHECK_PRECONDITION', reason);
  }
}
