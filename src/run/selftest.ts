import { DIALECTS, type DialectName } from '../reference/dialect.ts';
import { FAULTS, type Fault } from '../reference/faults.ts';
import type { RunReport } from '../report/model.ts';
import { certifyEmbedded } from './embedded-target.ts';

/** How the certification fared against one faulty server. */
export interface FaultDetection {
  readonly fault: Fault;
  readonly dialect: DialectName;
  /** caught: a check failed on the fault's own rule; missed: no check did. */
  readonly verdict: 'caught' | 'missed';
  /** Checks that failed on the fault's rule. */
  readonly catchingChecks: readonly string[];
  /** How many of those are property checks (generated cases). */
  readonly catchingProperties: number;
  /** Other rules that failed (collateral findings). */
  readonly otherRules: readonly string[];
}

/** One dialect's share of the selftest: its clean certification and its faults. */
export interface DialectSelftest {
  readonly dialect: DialectName;
  readonly clean: RunReport;
  readonly detections: readonly FaultDetection[];
  /** Faults that make the choice this dialect already makes, so change nothing here (not run). */
  readonly notApplicable: readonly Fault[];
}

export interface SelftestResult {
  readonly dialects: readonly DialectSelftest[];
  readonly passed: boolean;
  readonly durationMs: number;
}

export interface SelftestOptions {
  readonly suitesDir: string;
  readonly suiteGlob: string;
  readonly seed: number;
  /** Generated cases per certification (property checks). */
  readonly budget: number;
  /** Only these faults (default: all). */
  readonly faults?: readonly string[];
  /** The dialects to prove the harness in (default: all of them). */
  readonly dialects?: readonly DialectName[];
  /** Certifications run at once (each against its own server). */
  readonly concurrency: number;
  readonly onDetection?: (detection: FaultDetection) => void;
}

function detection(fault: Fault, dialect: DialectName, report: RunReport): FaultDetection {
  const failing = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
  const catching = failing.filter((c) => c.findings.some((f) => f.ruleId === fault.rule));
  const catchingChecks = catching.map((c) => c.id);
  const catchingProperties = catching.filter((c) => c.source.kind === 'property').length;
  const otherRules = [...new Set(failing.flatMap((c) => c.findings.map((f) => f.ruleId)).filter((r) => r !== fault.rule))];
  return { fault, dialect, verdict: catchingChecks.length > 0 ? 'caught' : 'missed', catchingChecks, catchingProperties, otherRules };
}

/**
 * The harness proves itself on the reference server, in every dialect (the other valid choices
 * where the spec says "not shown", and the Laravel representations): in each, the clean server
 * must pass every check (the rate-limit bursts included), and every fault that changes anything
 * there must be caught by a failing check of the fault's own rule. Each fault is certified by the
 * phases that can observe it: a burst fault by the rate-limit phase at the embedded 1 s window; any
 * other by the scenarios and generated cases at the quick 100 ms window, without bursts.
 */
export async function selftest(options: SelftestOptions): Promise<SelftestResult> {
  const started = Date.now();
  const dialects = options.dialects ?? (Object.keys(DIALECTS) as DialectName[]);
  const chosen: readonly Fault[] = FAULTS.filter((f) => !options.faults || options.faults.includes(f.name));
  const results: DialectSelftest[] = [];
  for (const dialect of dialects) {
    const clean = await certifyEmbedded([], { ...options, dialect });
    const applicable = chosen.filter((f) => f.appliesTo(DIALECTS[dialect]));
    const detections: FaultDetection[] = [];
    const queue = [...applicable];
    const worker = async () => {
      for (let fault = queue.shift(); fault; fault = queue.shift()) {
        const phases = fault.observable === 'burst' ? { only: ['rate-limit'], bursts: true } : { bursts: false };
        const found = detection(fault, dialect, await certifyEmbedded([fault.name], { ...options, ...phases, dialect }));
        detections.push(found);
        options.onDetection?.(found);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    detections.sort((a, b) => applicable.indexOf(a.fault) - applicable.indexOf(b.fault));
    results.push({ dialect, clean, detections, notApplicable: chosen.filter((f) => !applicable.includes(f)) });
  }
  const passed = results.every((r) => r.clean.exitCode === 0 && r.detections.every((d) => d.verdict !== 'missed'));
  return { dialects: results, passed, durationMs: Date.now() - started };
}
