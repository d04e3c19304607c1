import { ClockcheckError } from '../errors.ts';

/**
 * A template that cannot be rendered. `CLOCKCHECK_PRECONDITION`: a value it reads is not there in
 * this run (a var never captured, a fixture the profile lacks), so the scenario is errored with the
 * reason. `CLOCKCHECK_SOURCE`: the template itself is malformed; the suite loader finds these
 * first (src/scenarios/template-issues.ts), so at run time it comes only from a value no loader saw.
 */
export class TemplateError extends ClockcheckError {
  constructor(code: 'CLOCKCHECK_PRECONDITION' | 'CLOCKCHECK_SOURCE', message: string) {
    super(code, message);
  }
}
