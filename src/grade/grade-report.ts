import { retainExchange } from '../client/retained.ts';
import type { Exchange } from '../client/exchange.ts';
import { RULES, type RuleId } from '../contract/rules.ts';
import { coverageOf } from '../report/coverage.ts';
import { REPORT_SCHEMA_VERSION, type CheckResult, type Finding, type RunReport } from '../report/model.ts';
import { runExitCode } from '../report/run-verdict.ts';
import { profileForReport } from '../profile/profile.ts';
import { specIdentity } from '../contract/spec-document.ts';
import { toolVersion } from '../version.ts';
import { exchangeJudgements } from './exchange-judges.ts';
import type { Judgement } from './judgement.ts';
import { notPassiveReason, PASSIVE_RULES } from './passive-rules.ts';
import type { GradeReading } from './request-judges.ts';
import { headParityJudgements, rateLimitJudgements, rawTokenJudgements } from './traffic-judges.ts';
import type { Traffic } from './traffic.ts';

/** Findings a rule's check keeps (the first ones); the rest are counted in a note. */
const KEPT_FINDINGS = 20;
/** Exchanges that held a rule kept as examples in its check. */
const KEPT_EXAMPLES = 3;

/** What the recording showed of one rule. */
interface RuleTally {
  held: number;
  broken: number;
  readonly findings: Finding[];
  readonly examples: number[];
}

/** Every judgement the recording supports, rule by rule (one pass over the exchanges, then the cross-exchange ones). */
export function tallyTraffic(traffic: Traffic, reading: GradeReading): Map<RuleId, RuleTally> {
  const tallies = new Map<RuleId, RuleTally>();
  const add = (j: Judgement) => {
    const tally = tallies.get(j.ruleId) ?? { held: 0, broken: 0, findings: [], examples: [] };
    tallies.set(j.ruleId, tally);
    if (j.ok) {
      tally.held++;
      if (tally.examples.length < KEPT_EXAMPLES) tally.examples.push(...j.exchangeIds.slice(0, KEPT_EXAMPLES - tally.examples.length));
      return;
    }
    tally.broken++;
    if (tally.findings.length < KEPT_FINDINGS) tally.findings.push({ ruleId: j.ruleId, expected: traffic.redact(j.expected), actual: traffic.redact(j.actual), exchangeIds: j.exchangeIds });
  };
  for (const o of traffic.observed) exchangeJudgements(o, reading).forEach(add);
  [...headParityJudgements(traffic.observed), ...rawTokenJudgements(traffic.observed), ...rateLimitJudgements(traffic.observed, reading.profile)].forEach(add);
  return tallies;
}

/** The check of one rule in a grade report: failed, passed, or skipped with what it would need. */
function ruleCheck(ruleId: RuleId, tally: RuleTally | undefined, exchanges: ReadonlyMap<number, Exchange>, replay: string): CheckResult {
  const passive = PASSIVE_RULES[ruleId];
  const base = { id: `grade/${ruleId.toLowerCase()}`, title: `${ruleId}, judged from recorded traffic`, rules: [ruleId], source: { kind: 'builtin', name: 'grade' } as const, durationMs: 0, replay: `${replay} --only ${ruleId}` };
  if (passive === undefined) return { ...base, status: 'skipped', findings: [], exchanges: [], reason: `not judged from traffic: ${notPassiveReason(ruleId)}` };
  if (tally === undefined || tally.held + tally.broken === 0) return { ...base, status: 'skipped', findings: [], exchanges: [], reason: `not seen in the recording: it takes ${passive}` };
  const ids = [...new Set([...tally.findings.flatMap((f) => f.exchangeIds), ...tally.examples])].sort((a, b) => a - b);
  const notes = [`${tally.held} exchange${tally.held === 1 ? '' : 's'} held it, ${tally.broken} broke it${tally.broken > tally.findings.length ? ` (the first ${tally.findings.length} shown)` : ''}`];
  return { ...base, status: tally.broken > 0 ? 'failed' : 'passed', findings: tally.findings, exchanges: ids.flatMap((id) => { const e = exchanges.get(id); return e ? [retainExchange(e)] : []; }), notes };
}

/** What `gradeReport` needs besides the tallies. */
export interface GradeFacts {
  readonly file: string;
  readonly traffic: Traffic;
  readonly unreadable: number;
  readonly reading: GradeReading;
  /** `--only`: the rules to report (empty: all). */
  readonly only: readonly RuleId[];
  readonly startedAt: Date;
}

/**
 * The report of a graded recording, in the run's report format (report.json, report.html,
 * junit.xml read it as they read a run's): one check per rule of the catalog, judged from the
 * recording where it can be, else skipped with what it would take. Nothing was sent.
 */
export function gradeReport(facts: GradeFacts, tallies: ReadonlyMap<RuleId, RuleTally>): RunReport {
  const { traffic, reading } = facts;
  const exchanges = new Map(traffic.observed.map((o) => [o.exchange.id, o.exchange]));
  const rules = RULES.filter((r) => facts.only.length === 0 || facts.only.includes(r.id));
  const checks = rules.map((r) => ruleCheck(r.id, tallies.get(r.id), exchanges, `clockcheck grade ${facts.file}`));
  const { coverage, summary } = coverageOf(checks);
  const finishedAt = new Date();
  const host = traffic.hosts[0];
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: `${facts.startedAt.toISOString().replace(/[:.]/g, '-')}-grade`,
    tool: { name: 'clockcheck', version: toolVersion() },
    spec: specIdentity(),
    target: { baseUrl: reading.profile.target ?? (host ? `https://${host}` : 'https://recorded.invalid'), apiPrefix: reading.profile.api_prefix, tlsFingerprint256: null, embedded: false },
    profile: profileForReport(reading.profile),
    seed: 0,
    options: { only: facts.only, readOnly: true, suites: [], budget: 0 },
    startedAt: facts.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - facts.startedAt.getTime(),
    plannedEtaMs: 0,
    requests: { planned: 0, made: 0, unintended429: 0, resent: 0 },
    tokenForm: 'raw',
    notes: [
      `graded ${traffic.observed.length} recorded exchange${traffic.observed.length === 1 ? '' : 's'} of the API from ${facts.file} (hosts: ${traffic.hosts.join(', ')}); nothing was sent`,
      ...(traffic.elsewhere > 0 ? [`${traffic.elsewhere} entries to other hosts or outside ${reading.profile.api_prefix} left out`] : []),
      ...(facts.unreadable > 0 ? [`${facts.unreadable} entries that are not HAR entries left out`] : []),
      ...(reading.given ? [] : ['no --profile: the spec defaults, and rules that need the server\'s own readings (the company timezone, exact status codes) not judged']),
    ],
    checks,
    coverage,
    createdResources: [],
    summary,
    status: 'complete',
    exitCode: runExitCode({ summary }),
  };
}
