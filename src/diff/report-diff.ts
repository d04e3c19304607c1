import { z } from 'zod';
import { isJudged, ruleOutcome } from '../report/coverage.ts';
import { checksUnder2, isSchema1 } from '../report/legacy-statuses.ts';

/**
 * The part of a report.json that `clockcheck diff` compares (any schema version since 1.0; fields
 * added later are optional here). Parsed with zod: a report is a file from elsewhere, maybe another
 * machine or release.
 */
export const DiffableReport = z.object({
  schemaVersion: z.string(),
  runId: z.string(),
  startedAt: z.string(),
  tool: z.object({ version: z.string() }),
  spec: z.object({ sha256: z.string() }),
  target: z.object({ baseUrl: z.string(), tlsFingerprint256: z.string().nullable(), embedded: z.boolean() }),
  notes: z.array(z.string()).optional(),
  checks: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(['passed', 'failed', 'errored', 'skipped', 'not-run', 'waived']),
      rules: z.array(z.string()),
      findings: z.array(z.object({ ruleId: z.string() })),
      reason: z.string().optional(),
    }),
  ),
  coverage: z.array(z.object({ rule: z.object({ id: z.string() }), outcome: z.string() })),
  summary: z.object({ rulesCovered: z.number() }),
});
export type DiffableReport = z.infer<typeof DiffableReport>;
type Check = DiffableReport['checks'][number];
type Status = Check['status'];

/**
 * What became of one check between OLD and NEW:
 * - `new failure`: failed or errored in NEW, and not in OLD (it passed, was skipped, not run or waived, or was absent);
 * - `still failing`: failed or errored in both; `newRules` are rules it breaks in NEW and did not in OLD;
 * - `fixed`: failed or errored in OLD, passed in NEW;
 * - `not run`: failed or errored in OLD, skipped, not run or absent in NEW (neither fixed nor failing: unknown).
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

/** One report as the diff counts it: its checks' statuses under 2.0.0 and the rules they judged. */
export interface DiffSide {
  readonly runId: string;
  readonly startedAt: string;
  readonly schemaVersion: string;
  readonly failed: number;
  readonly errored: number;
  readonly notRun: number;
  /** Rules judged (a check passed, failed or waived on it), recomputed from the report's checks. */
  readonly rulesCovered: number;
  readonly rulesTotal: number;
}

export interface ReportDiff {
  readonly old: DiffSide;
  readonly new: DiffSide;
  /** One row per check whose state changed or that fails in both, new failures first. */
  readonly checks: readonly CheckChange[];
  /** Rules judged in NEW and not in OLD (a check passed, failed or waived on them); and the other way round. */
  readonly rulesNewlyCovered: readonly string[];
  readonly rulesNewlyUncovered: readonly string[];
  readonly identity: readonly IdentityChange[];
  /** How the comparison read a report, e.g. the coverage of a 1.x report recomputed from its checks. */
  readonly notes: readonly string[];
  /** NEW has a failure OLD did not have: a new failure, or a check still failing on a new rule. */
  readonly regressed: boolean;
}

const isBad = (status: Status | null | undefined): boolean => status === 'failed' || status === 'errored';
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

/** A report as the diff reads it: its checks with their 2.0.0 statuses, and the rules they judged. */
interface ReadSide {
  readonly side: DiffSide;
  readonly checks: readonly Check[];
  readonly judged: ReadonlySet<string>;
  readonly note: string | null;
}

/**
 * Coverage is compared like with like: both reports' coverage is recomputed from their checks by
 * report/coverage.ts (a rule is covered when a check passed, failed or waived on it), over each
 * report's own rule catalog. A 1.x report counted errored checks as covering (its summary and its
 * coverage outcomes say so) and named checks not run errored or skipped; read as it was written, a
 * rule only an errored check named would look "newly uncovered" beside a 2.0.0 report though
 * nothing changed on the target. So its statuses are read as 2.0.0 gives them
 * (report/legacy-statuses.ts) and its coverage comes from its checks, never from its summary.
 */
function readSide(report: DiffableReport): ReadSide {
  const checks = checksUnder2(report);
  const judged = new Set(report.coverage.map((c) => c.rule.id).filter((id) => isJudged(ruleOutcome(checks, id).outcome)));
  const count = (status: Status) => checks.filter((c) => c.status === status).length;
  const side: DiffSide = {
    runId: report.runId,
    startedAt: report.startedAt,
    schemaVersion: report.schemaVersion,
    failed: count('failed'),
    errored: count('errored'),
    notRun: count('not-run'),
    rulesCovered: judged.size,
    rulesTotal: report.coverage.length,
  };
  const note = isSchema1(report.schemaVersion)
    ? `${report.runId} is a report of schema ${report.schemaVersion}: its coverage is recomputed from its checks as 2.0.0 counts it (judged: a check passed, failed or waived on the rule): ${judged.size} rules, where its summary said ${report.summary.rulesCovered} covered`
    : null;
  return { side, checks, judged, note };
}

/** One row per check whose state changed or that fails in both, new failures first. */
function checkRows(before: readonly Check[], after: readonly Check[]): CheckChange[] {
  const oldChecks = new Map(before.map((c) => [c.id, c]));
  const newChecks = new Map(after.map((c) => [c.id, c]));
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
  return rows.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.checkId.localeCompare(b.checkId));
}

function identityChanges(before: DiffableReport, after: DiffableReport): IdentityChange[] {
  const identity: IdentityChange[] = [];
  const compare = (what: IdentityChange['what'], a: string, b: string) => {
    if (a !== b) identity.push({ what, old: a, new: b });
  };
  compare('target', before.target.embedded ? 'the embedded reference server' : before.target.baseUrl, after.target.embedded ? 'the embedded reference server' : after.target.baseUrl);
  compare('tool version', before.tool.version, after.tool.version);
  compare('spec SHA-256', before.spec.sha256, after.spec.sha256);
  // The embedded server makes a new certificate at every start: its fingerprint says nothing.
  if (!before.target.embedded || !after.target.embedded) compare('TLS fingerprint', before.target.tlsFingerprint256 ?? 'not seen', after.target.tlsFingerprint256 ?? 'not seen');
  return identity;
}

/** Compares two reports check by check (by stable check ID) and rule by rule, of any schema version since 1.0. Pure. */
export function diffReports(before: DiffableReport, after: DiffableReport): ReportDiff {
  const [o, n] = [readSide(before), readSide(after)];
  const rows = checkRows(o.checks, n.checks);
  return {
    old: o.side,
    new: n.side,
    checks: rows,
    rulesNewlyCovered: [...n.judged].filter((r) => !o.judged.has(r)).sort(),
    rulesNewlyUncovered: [...o.judged].filter((r) => !n.judged.has(r)).sort(),
    identity: identityChanges(before, after),
    notes: [o.note, n.note].filter((note) => note !== null),
    regressed: rows.some((r) => r.kind === 'new failure' || (r.kind === 'still failing' && r.newRules.length > 0)),
  };
}
