import { FAULTS, type Fault } from '../reference/faults.ts';
import type { RunReport } from '../report/model.ts';
import { certifyEmbedded } from './embedded-target.ts';

/** How the certification fared against one faulty server. */
export interface FaultDetection {
  readonly fault: Fault;
  /** caught: a check failed on the fault's own rule; missed: no check did. */
  readonly verdict: 'caught' | 'missed';
  /** Checks that failed on the fault's rule. */
  readonly catchingChecks: readonly string[];
  /** How many of those are property checks (generated cases). */
  readonly catchingProperties: number;
  /** Other rules that failed (collateral findings). */
  readonly otherRules: readonly string[];
}

export interface SelftestResult {
  readonly clean: RunReport;
  readonly detections: readonly FaultDetection[];
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
  /** Certifications run at once (each against its own server). */
  readonly concurrency: number;
  readonly onDetection?: (detection: FaultDetection) => void;
}

function detection(fault: Fault, report: RunReport): FaultDetection {
  const failing = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
  const catching = failing.filter((c) => c.findings.some((f) => f.ruleId === fault.rule));
  const catchingChecks = catching.map((c) => c.id);
  const catchingProperties = catching.filter((c) => c.source.kind === 'property').length;
  const otherRules = [...new Set(failing.flatMap((c) => c.findings.map((f) => f.ruleId)).filter((r) => r !== fault.rule))];
  return { fault, verdict: catchingChecks.length > 0 ? 'caught' : 'missed', catchingChecks, catchingProperties, otherRules };
}

/**
 * The harness proves itself on the reference server: the clean server must pass every check (the
 * rate-limit bursts included), and every fault must be caught by a failing check of the fault's own
 * rule. Each fault is certified by the phases that can observe it: a burst fault by the rate-limit
 * phase at the embedded 1 s window; any other by the scenarios and generated cases at the quick
 * 100 ms window, without bursts (ten times faster, and the bursts could not see it).
 */
export async function selftest(options: SelftestOptions): Promise<SelftestResult> {
  const started = Date.now();
  const clean = await certifyEmbedded([], options);
  const chosen: readonly Fault[] = FAULTS.filter((f) => !options.faults || options.faults.includes(f.name));
  const detections: FaultDetection[] = [];
  const queue = [...chosen];
  const worker = async () => {
    for (let fault = queue.shift(); fault; fault = queue.shift()) {
      const phases = fault.observable === 'burst' ? { only: ['rate-limit'], bursts: true } : { bursts: false };
      const found = detection(fault, await certifyEmbedded([fault.name], { ...options, ...phases }));
      detections.push(found);
      options.onDetection?.(found);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  detections.sort((a, b) => chosen.indexOf(a.fault) - chosen.indexOf(b.fault));
  const passed = clean.exitCode === 0 && detections.every((d) => d.verdict !== 'missed');
  return { clean, detections, passed, durationMs: Date.now() - started };
}
