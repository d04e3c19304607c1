import { z } from 'zod';

/**
 * The part of a report.json that `clockcheck diff` compares (any schema version since 1.0; fields
 * added later are optional here). Parsed with zod: a report is a file from elsewhere, maybe another
 * machine or release.
 */
export const DiffableReport = z.object({
  runId: z.string(),
  startedAt: z.string(),
  tool: z.object({ version: z.string() }),
  spec: z.object({ sha256: z.string() }),
  target: z.object({ baseUrl: z.string(), tlsFingerprint256: z.string().nullable(), embedded: z.boolean() }),
  checks: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(['passed', 'failed', 'errored', 'skipped', 'waived']),
      rules: z.array(z.string()),
      findings: z.array(z.object({ ruleId: z.string() })),
      reason: z.string().optional(),
    }),
  ),
  coverage: z.array(z.object({ rule: z.object({ id: z.string() }), outcome: z.string() })),
  summary: z.object({ failed: z.number(), errored: z.number(), rulesCovered: z.number(), rulesTotal: z.number() }),
});
export type DiffableReport = z.infer<typeof DiffableReport>;
type Check = DiffableReport['checks'][number];
type Status = Check['status'];

/**
 * What became of one check between OLD and NEW:
 * - `new failure`: failed or errored in NEW, and not in OLD (it passed, was skipped or waived, or did not run);
 * - `still failing`: failed or errored in both; `newRules` are rules it breaks in NEW and did not in OLD;
 * - `fixed`: failed or errored in OLD, passed in NEW;
 * - `not run`: failed or errored in OLD, skipped in NEW or absent (neither fixed nor failing: unknown).
 */
export type CheckChangeKind = 'new failure' | 'still failing' | 'fixed' | 'not run';

export interface CheckChange {
  readonly kind: CheckChangeKind;
  readonly checkId: string;
  readonly title: string;
  /** null: the check is not in that report. */
  readonly old: Status | null;
  readonly new: Status | null;
  /** The rules its findings name in NEW (new failure, still failing) or in OLD (fixed, not run). */
  readonly rules: readonly string[];
  /** Still failing: the rules broken in NEW that were not in OLD (a regression within the check). */
  readonly newRules: readonly string[];
  /** Why NEW skipped or errored it, when it says. */
  readonly reason?: string;
}

/** Something that identifies the run besides its verdicts, and differs. */
export interface IdentityChange {
  readonly what: 'tool version' | 'spec SHA-256' | 'TLS fingerprint' | 'target';
  readonly old: string;
  readonly new: string;
}

export interface ReportDiff {
  readonly old: { readonly runId: string; readonly startedAt: string; readonly failed: number; readonly errored: number; readonly rulesCovered: number; readonly rulesTotal: number };
  readonly new: { readonly runId: string; readonly startedAt: string; readonly failed: number; readonly errored: number; readonly rulesCovered: number; readonly rulesTotal: number };
  /** One row per check whose state changed or that fails in both, new failures first. */
  readonly checks: readonly CheckChange[];
  /** Rules a check passed (or waived) in NEW and none did in OLD; and the other way round. */
  readonly rulesNewlyCovered: readonly string[];
  readonly rulesNewlyUncovered: readonly string[];
  readonly identity: readonly IdentityChange[];
  /** NEW has a failure OLD did not have: a new failure, or a check still failing on a new rule. */
  readonly regressed: boolean;
}

const isBad = (status: Status | null | undefined): boolean => status === 'failed' || status === 'errored';
/** A rule counts as covered when a check concluded on it: passed, failed or waived (not skipped, errored or uncovered). */
const COVERED = new Set(['passed', 'failed', 'waived']);
const KIND_ORDER: readonly CheckChangeKind[] = ['new failure', 'still failing', 'not run', 'fixed'];

function brokenRules(check: Check | undefined): string[] {
  return [...new Set((check?.findings ?? []).map((f) => f.ruleId))].sort();
}

function change(kind: CheckChangeKind, id: string, before: Check | undefined, after: Check | undefined, rules: readonly string[], newRules: readonly string[] = []): CheckChange {
  return {
    kind,
    checkId: id,
    title: (after ?? before)!.title,
    old: before?.status ?? null,
    new: after?.status ?? null,
    rules,
    newRules,
    ...(after?.reason === undefined || after.status === 'passed' ? {} : { reason: after.reason }),
  };
}

/** Compares two reports check by check (by stable check ID) and rule by rule. Pure. */
export function diffReports(before: DiffableReport, after: DiffableReport): ReportDiff {
  const oldChecks = new Map(before.checks.map((c) => [c.id, c]));
  const newChecks = new Map(after.checks.map((c) => [c.id, c]));
  const rows: CheckChange[] = [];
  for (const id of new Set([...oldChecks.keys(), ...newChecks.keys()])) {
    const o = oldChecks.get(id);
    const n = newChecks.get(id);
    if (isBad(n?.status) && !isBad(o?.status)) rows.push(change('new failure', id, o, n, brokenRules(n)));
    else if (isBad(n?.status) && isBad(o?.status)) {
      const was = new Set(brokenRules(o));
      rows.push(change('still failing', id, o, n, brokenRules(n), brokenRules(n).filter((r) => !was.has(r))));
    } else if (isBad(o?.status) && n?.status === 'passed') rows.push(change('fixed', id, o, n, brokenRules(o)));
    else if (isBad(o?.status)) rows.push(change('not run', id, o, n, brokenRules(o)));
  }
  rows.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.checkId.localeCompare(b.checkId));

  const covered = (report: DiffableReport) => new Set(report.coverage.filter((r) => COVERED.has(r.outcome)).map((r) => r.rule.id));
  const [oldCovered, newCovered] = [covered(before), covered(after)];
  const identity: IdentityChange[] = [];
  const compare = (what: IdentityChange['what'], a: string, b: string) => {
    if (a !== b) identity.push({ what, old: a, new: b });
  };
  compare('target', before.target.embedded ? 'the embedded reference server' : before.target.baseUrl, after.target.embedded ? 'the embedded reference server' : after.target.baseUrl);
  compare('tool version', before.tool.version, after.tool.version);
  compare('spec SHA-256', before.spec.sha256, after.spec.sha256);
  // The embedded server makes a new certificate at every start: its fingerprint says nothing.
  if (!before.target.embedded || !after.target.embedded) compare('TLS fingerprint', before.target.tlsFingerprint256 ?? 'not seen', after.target.tlsFingerprint256 ?? 'not seen');

  const side = (r: DiffableReport) => ({ runId: r.runId, startedAt: r.startedAt, failed: r.summary.failed, errored: r.summary.errored, rulesCovered: r.summary.rulesCovered, rulesTotal: r.summary.rulesTotal });
  return {
    old: side(before),
    new: side(after),
    checks: rows,
    rulesNewlyCovered: [...newCovered].filter((r) => !oldCovered.has(r)).sort(),
    rulesNewlyUncovered: [...oldCovered].filter((r) => !newCovered.has(r)).sort(),
    identity,
    regressed: rows.some((r) => r.kind === 'new failure' || (r.kind === 'still failing' && r.newRules.length > 0)),
  };
}
