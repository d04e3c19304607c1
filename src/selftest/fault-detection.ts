import type { DialectName } from '../reference/dialect.ts';
import { REPORTED_ALONE, type Fault, type FaultName } from '../reference/faults.ts';
import type { RunReport } from '../report/model.ts';
import type { SecondAttempt } from './selftest-attempts.ts';

/** How the certification fared against one faulty server. */
export interface FaultDetection {
  readonly fault: Fault;
  readonly dialect: DialectName;
  /** caught: a check failed on the fault's own rule; missed: no check did. */
  readonly verdict: 'caught' | 'missed';
  /** Checks that failed on the fault's rule. */
  readonly catchingChecks: readonly string[];
  /** Of a catch by the read-back (records/read-back), the checks whose writes its findings of the fault's rule judged (Finding.writtenBy): where the read-back found it, they wrote it. */
  readonly writers: readonly string[];
  /** How many of those are property checks (generated cases). */
  readonly catchingProperties: number;
  /** Other rules that failed (collateral findings). */
  readonly otherRules: readonly string[];
  /** Certifications it took: 2 when the first could not judge the fault's rule (see `selftest`). */
  readonly attempts: number;
  /** When it took 2: what the first left unjudged, and the window the second's bursts met (selftest-attempts.ts). */
  readonly second?: SecondAttempt;
  /** When missed: each check of the fault's rule and how it ended (`rate-limit/sliding: errored, <reason>`). */
  readonly ruleChecks: readonly string[];
}

/** What a certification of the server with `fault` shows: caught or missed, by which checks, with what else. */
export function detection(fault: Fault, dialect: DialectName, report: RunReport, second?: SecondAttempt): FaultDetection {
  const failing = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
  const catching = failing.filter((c) => c.findings.some((f) => f.ruleId === fault.rule));
  const catchingChecks = catching.map((c) => c.id);
  const writers = [...new Set(catching.flatMap((c) => c.findings.filter((f) => f.ruleId === fault.rule).flatMap((f) => f.writtenBy ?? [])))].sort();
  const catchingProperties = catching.filter((c) => c.source.kind === 'property').length;
  const otherRules = [...new Set(failing.flatMap((c) => c.findings.map((f) => f.ruleId)).filter((r) => r !== fault.rule))];
  // A fault that refuses an edge value must be reported under its own rule alone: under another too, it is missed.
  const misattributed = REPORTED_ALONE.has(fault.name as FaultName) && otherRules.length > 0;
  const verdict = catchingChecks.length > 0 && !misattributed ? 'caught' : 'missed';
  const ruleChecks = misattributed
    ? failing.filter((c) => c.findings.some((f) => f.ruleId !== fault.rule)).map((c) => `${c.id}: failed under ${[...new Set(c.findings.map((f) => f.ruleId))].join(', ')}, not ${fault.rule} alone`)
    : verdict === 'caught' ? [] : report.checks.filter((c) => c.rules.includes(fault.rule)).map((c) => `${c.id}: ${c.status}${c.reason ? `, ${c.reason}` : ''}`);
  return { fault, dialect, verdict, catchingChecks, writers, catchingProperties, otherRules, attempts: second ? 2 : 1, ...(second ? { second } : {}), ruleChecks };
}
