/** What a check of a report.json of any schema version holds that its status under 2.0.0 depends on. */
export interface StatusedCheck {
  readonly status: string;
  readonly reason?: string | undefined;
}

/** The reasons 1.x gave a check the run did not get to (src/run/execute.ts, run-preflight.ts of 1.x). */
const PREFLIGHT_NOT_RUN = /^not run: /;
const OVER_BUDGET = /^over budget \(/;
const STOPPED_NOTE = /^the run stopped: /;

/** True for a schema version before 2.0.0, when skipped and errored checks also stood for checks not run. */
export function isSchema1(schemaVersion: string): boolean {
  return Number(schemaVersion.split('.')[0]) < 2;
}

/**
 * A report's checks with the statuses 2.0.0 gives them. Before 2.0.0 a check the run did not get to
 * was `errored` (the run stopped, its reason the stop's, or could not be made, "not run: …") or
 * `skipped` ("over budget (…)"); now it is `not-run`. Of the checks errored with a stopped run's
 * reason (its note "the run stopped: …"), the first in run order was the one in progress and stays
 * errored. Reports of 2.0.0 and later are returned as they are.
 */
export function checksUnder2<C extends StatusedCheck>(report: { readonly schemaVersion: string; readonly notes?: readonly string[] | undefined; readonly checks: readonly C[] }): C[] {
  if (!isSchema1(report.schemaVersion)) return [...report.checks];
  const stopped = (report.notes ?? []).find((n) => STOPPED_NOTE.test(n))?.replace(STOPPED_NOTE, '');
  let inProgressSeen = false;
  return report.checks.map((check) => {
    const reason = check.reason ?? '';
    if (check.status === 'skipped' && OVER_BUDGET.test(reason)) return { ...check, status: 'not-run' };
    if (check.status !== 'errored') return check;
    if (PREFLIGHT_NOT_RUN.test(reason)) return { ...check, status: 'not-run' };
    if (stopped === undefined || reason !== stopped) return check;
    if (!inProgressSeen) {
      inProgressSeen = true;
      return check;
    }
    return { ...check, status: 'not-run', reason: `not run: ${reason}` };
  });
}
