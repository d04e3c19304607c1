import { jsonText } from '../../contract/json-text.ts';
import type { CheckResult, CheckSource } from '../../report/model.ts';
import type { Exchange } from '../../client/exchange.ts';
import { retainExchange } from '../../client/retained.ts';
import type { GeneratedCase, PropertyFamily } from '../family.ts';
import { accepted, caseKey, definite, type CasesSent, type Verdict } from './case-verdicts.ts';

/** Everything a family's run showed: the cases, and the control case when one was sent. */
export interface FamilyEvidence extends CasesSent {
  readonly control: Verdict | null;
}

/** What a family's result names besides its evidence: the family, its seed, its replay, its setup. */
export interface FamilyResultContext {
  readonly family: PropertyFamily;
  readonly seed: number;
  /** The replay command for a seed and path. */
  readonly replay: (seed: number, path: string) => string;
  /** The exchange that created the setup resource, kept with a failure. */
  readonly setupExchange?: Exchange;
  /** Epoch ms when the family started. */
  readonly started: number;
}

type PropertySource = Extract<CheckSource, { kind: 'property' }>;
type Outcome = Pick<CheckResult, 'status' | 'findings' | 'reason' | 'exchanges'>;

/** "422 ×3, 500 ×2", the answers a family got. */
function histogram(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const e of exchanges) {
    const key = e.response ? String(e.response.status) : (e.error?.code ?? 'no response');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/** A family's CheckResult: its outcome, the fast-check `path` its replay names, and what else its source says. */
function familyResult(context: FamilyResultContext, path: string, outcome: Outcome, source: Partial<PropertySource> = {}): CheckResult {
  const { family, seed } = context;
  return {
    id: `properties/${family.name}`,
    title: family.title,
    rules: family.rules,
    durationMs: Date.now() - context.started,
    source: { kind: 'property', generator: family.name, seed, path, ...source },
    ...outcome,
    replay: context.replay(seed, path),
  };
}

/**
 * The family's status from its evidence. The baseline is an accepted case: rejections mean something
 * only from a target seen to accept this request. A control case's definite refusal (a 4xx) is a
 * finding; its 5xx or no answer, with no definite finding of the cases, makes the family errored,
 * never passed and never failed under its rules. A run the target or its time limit stopped is
 * errored, one its budget or a signal stopped is not-run; a property that threw
 * without a counterexample is errored with the cause; else the smallest counterexample fails it.
 */
export function judgeFamily(context: FamilyResultContext, evidence: FamilyEvidence): CheckResult {
  const { details, verdicts, stopped, control } = evidence;
  const summary = `${evidence.sent} generated cases sent (${evidence.valid} valid, ${evidence.sent - evidence.valid} invalid), seed ${context.seed}`;
  const answered = [...verdicts.values()].map((v) => v.exchange);
  const failure = details.failed && details.counterexample ? (verdicts.get(caseKey(details.counterexample[0])) ?? evidence.firstFailure) : null;
  if (!stopped && control && !definite(control.exchange) && !(failure && definite(failure.exchange))) {
    // Nothing accepted, the control not answered: the target showed nothing the family's rules are about.
    const got = control.exchange.response ? `status ${control.exchange.response.status}` : `no response (${control.exchange.error?.code ?? 'OTHER'})`;
    return familyResult(context, '', {
      status: 'errored',
      findings: [],
      reason: `no generated case was accepted (${histogram(answered) || 'none answered'}) and a valid control case got ${got}: the family's rules could not be tested (${summary})`,
      exchanges: [...answered.slice(-2), control.exchange],
    });
  }
  if (!stopped && !details.failed && control?.finding) {
    // Every case passed, none was accepted, and the target refused a valid control case: a finding.
    const shown = [control.exchange, ...(control.narrowedBy ?? [])];
    return familyResult(context, '', { status: 'failed', findings: [{ ...control.finding, exchangeIds: shown.map((e) => e.id) }], reason: summary, exchanges: shown });
  }
  if (stopped) {
    // The run stopped (e.g. the token was revoked) while this family ran: no verdict on its cases.
    // A budget or a signal that cut it short is not the target's doing: not run, with what was sent.
    const cutShort = stopped.stoppedBy === 'budget' || stopped.stoppedBy === 'interrupted';
    return familyResult(context, '', { status: cutShort ? 'not-run' : 'errored', findings: [], reason: `${cutShort ? 'not run: ' : ''}${stopped.reason} (${summary})`, exchanges: answered.slice(-3) });
  }
  if (!details.failed) return familyResult(context, '', { status: 'passed', findings: [], reason: summary, exchanges: [] });
  if (!details.counterexample) {
    // The property threw (not a verdict): a bug of ours, reported as errored with the cause.
    const path = details.counterexamplePath ?? '';
    return familyResult(context, path, { status: 'errored', findings: [], reason: `property run failed without a counterexample: ${String(details.errorInstance ?? 'unknown')}`, exchanges: [] });
  }
  return counterexampleResult(context, evidence, details.counterexample[0], summary);
}

/**
 * A failed family: the smallest counterexample fast-check found, with what regressions.yaml needs to
 * send it again as a minimal pair: an accepted valid case of this run as the baseline, and the
 * request that created the family's resource.
 */
function counterexampleResult(context: FamilyResultContext, evidence: FamilyEvidence, smallest: GeneratedCase, summary: string): CheckResult {
  const { verdicts, firstFailure, details } = evidence;
  // The smallest case when it was sent, else the first failure (as a narrowing may have restated it: runner.ts).
  const shown = verdicts.get(caseKey(smallest)) ?? (firstFailure ? (verdicts.get(caseKey(firstFailure.sent)) ?? firstFailure) : null);
  const baseline = [...verdicts.values()].find((v) => v.valid && v !== shown && accepted(v.exchange));
  const exchanges = [
    ...new Set([context.setupExchange && retainExchange(context.setupExchange), baseline?.exchange, shown?.exchange, ...(shown?.narrowedBy ?? []), firstFailure?.exchange].filter((e): e is Exchange => e !== undefined)),
  ];
  const finding = shown?.finding ?? firstFailure?.finding;
  const path = details.counterexamplePath ?? '';
  const counterexample = verdicts.has(caseKey(smallest)) && shown ? { label: smallest.label, breaks: smallest.breaks ?? null, exchangeId: shown.exchange.id } : undefined;
  return familyResult(
    context,
    path,
    {
      status: 'failed',
      findings: finding ? [{ ...finding, exchangeIds: shown ? [shown.exchange.id, ...(shown.narrowedBy ?? []).map((e) => e.id)] : [] }] : [],
      reason: `${summary}; smallest counterexample after ${details.numShrinks} shrinks (path ${path}): ${jsonText(smallest.payload)}`,
      exchanges,
    },
    {
      ...(counterexample ? { counterexample } : {}),
      ...(baseline ? { baselineExchangeId: baseline.exchange.id } : {}),
      ...(context.setupExchange ? { setupExchangeId: context.setupExchange.id } : {}),
    },
  );
}
