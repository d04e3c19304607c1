import type { RunReport } from '../model.ts';

export type VerdictLabel = 'PASSED' | 'FAILED' | 'ERRORED';

/**
 * The run's overall verdict. It follows `exitCode`: 0 is PASSED (waived and skipped checks do not
 * fail a run); 1 is FAILED when a check failed, else ERRORED (no verdict could be reached).
 */
export function runVerdict(report: RunReport): VerdictLabel {
  if (report.exitCode === 0) return 'PASSED';
  return report.summary.failed > 0 ? 'FAILED' : 'ERRORED';
}
