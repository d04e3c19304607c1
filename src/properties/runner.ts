import fc from 'fast-check';
import type { RuleId } from '../contract/rules.ts';
import type { CheckResult, Finding } from '../report/model.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { matchStatus } from '../scenarios/expectations.ts';
import { RunStopped } from '../errors.ts';
import { retainExchange } from '../client/retained.ts';
import type { GeneratedCase, GeneratorContext, PropertyFamily } from './family.ts';

/** How one family is run: how many cases, how many extra requests shrinking may spend, and replay. */
export interface PropertyRunOptions {
  readonly family: PropertyFamily;
  readonly context: GeneratorContext;
  /** Cases sent before shrinking (each one request). */
  readonly numRuns: number;
  /** Extra requests shrinking may spend on a failure; then the smallest counterexample so far is reported. */
  readonly shrinkBudget: number;
  /** The family's fast-check seed. */
  readonly seed: number;
  /** A fast-check path: replays exactly that (shrunk) case. */
  readonly path?: string;
  /** The setup resource's ID, put in place of `{id}` in the family's path. */
  readonly resourceId?: string | number;
  /** The exchange that created the setup resource: kept with a failure, so regressions.yaml can create it again. */
  readonly setupExchange?: Exchange;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  /** The replay command for a seed and path. */
  readonly replay: (seed: number, path: string) => string;
}

interface Verdict {
  readonly finding: Omit<Finding, 'exchangeIds'> | null;
  readonly exchange: Exchange;
  /** The case was valid (it breaks no rule): an accepted one is a baseline. */
  readonly valid: boolean;
}

/** A complete 2xx: the target accepted the case. */
const accepted = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status >= 200 && status < 300;
};

/** A complete answer that is neither a 5xx nor a 429: a verdict may rest on it. */
const definite = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status < 500 && status !== 429;
};

/** "422 ×3, 500 ×2", the answers a family got. */
function histogram(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const e of exchanges) {
    const key = e.response ? String(e.response.status) : (e.error?.code ?? 'no response');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/** One valid case of the family for its seed, or null when the generator yields none. */
function controlCase(family: PropertyFamily, context: GeneratorContext, seed: number): GeneratedCase | null {
  try {
    return fc.sample(family.cases(context).filter((c) => c.breaks === undefined), { seed, numRuns: 1 })[0] ?? null;
  } catch {
    return null;
  }
}

/** Whether the target treated a case as the spec says: valid accepted, invalid rejected. */
function judgeCase(generated: GeneratedCase, exchange: Exchange, family: PropertyFamily, profile: Profile): Omit<Finding, 'exchangeIds'> | null {
  const response = exchange.response;
  const what = `${generated.breaks ? 'invalid' : 'valid'} case "${generated.label}"`;
  const rule: RuleId = generated.breaks ?? family.refusalRule?.(generated) ?? (family.rules[0] as RuleId);
  if (!response || exchange.error) {
    return { ruleId: rule, expected: `an answer to the ${what}`, actual: `no complete response: ${exchange.error?.code ?? 'OTHER'}` };
  }
  const operation = family.request.method === 'POST' ? 'create' : 'update';
  const expected = generated.breaks ? 'rejected' : 'success';
  const { ok, wanted } = matchStatus(expected, response.status, profile, operation);
  return ok ? null : { ruleId: rule, expected: `${wanted} for the ${what}`, actual: `status ${response.status}` };
}

/**
 * Runs one property family against the target: `numRuns` generated cases, each sent once; a valid
 * case must be accepted and an invalid one rejected. On a failure fast-check shrinks it, spending at
 * most `shrinkBudget` extra requests (past that, candidates are not sent and count as passing, so the
 * search ends), and the smallest counterexample found is reported with its seed, path and replay command.
 *
 * The family's baseline is an accepted case: rejections mean something only from a target seen to
 * accept this request. When no case was accepted, one valid control case is sent. Its definite
 * refusal (a 4xx) is a finding; its 5xx or no answer, with no definite finding of the cases, makes
 * the family errored ("every case answered 500"), never passed and never failed under its rules.
 */
export async function runPropertyFamily(options: PropertyRunOptions): Promise<CheckResult> {
  const { family, profile } = options;
  const started = Date.now();
  const path = family.request.path.replace('{id}', String(options.resourceId ?? ''));
  const verdicts = new Map<string, Verdict>();
  let sent = 0;
  let valid = 0;
  let firstFailure: Verdict | null = null;
  let stopped: RunStopped | null = null;
  const maxRequests = options.numRuns + options.shrinkBudget;
  const key = (c: GeneratedCase) => `${c.label}\u0000${JSON.stringify(c.payload)}`;

  const property = fc.asyncProperty(family.cases(options.context), async (generated) => {
    const known = verdicts.get(key(generated));
    if (known) return known.finding === null;
    if (sent >= maxRequests || stopped) return true; // the request budget is spent (or the run stopped): no more sends
    sent++;
    if (!generated.breaks) valid++;
    let exchange: Exchange;
    try {
      exchange = await options.send({ method: family.request.method, path, json: generated.payload });
    } catch (error) {
      if (!(error instanceof RunStopped)) throw error;
      stopped = error;
      return true;
    }
    // Judged now; what is kept is the exchange as a report keeps it (a family sends up to hundreds of cases).
    const verdict: Verdict = { finding: judgeCase(generated, exchange, family, profile), exchange: retainExchange(exchange), valid: !generated.breaks };
    verdicts.set(key(generated), verdict);
    if (verdict.finding && !firstFailure) firstFailure = verdict;
    return verdict.finding === null;
  });
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.path ? 1 : options.numRuns,
    ...(options.path ? { path: options.path } : {}),
  });

  // The baseline: when nothing was accepted, one valid control case (after the cases, so their seed and paths stay as they were).
  let control: Verdict | null = null;
  if (!stopped && ![...verdicts.values()].some((v) => accepted(v.exchange))) {
    const valid = controlCase(family, options.context, options.seed);
    if (valid) {
      try {
        const exchange = await options.send({ method: family.request.method, path, json: valid.payload });
        control = { finding: judgeCase(valid, exchange, family, profile), exchange: retainExchange(exchange), valid: true };
        if (control.finding) control = { ...control, finding: { ...control.finding, expected: `${control.finding.expected} (a control case, sent because no generated case was accepted)` } };
      } catch (error) {
        if (!(error instanceof RunStopped)) throw error;
        stopped = error;
      }
    }
  }

  const base = {
    id: `properties/${family.name}`,
    title: family.title,
    rules: family.rules,
    durationMs: 0,
  };
  const summary = `${sent} generated cases sent (${valid} valid, ${sent - valid} invalid), seed ${options.seed}`;
  const answered = [...verdicts.values()].map((v) => v.exchange);
  const failure = details.failed && details.counterexample ? (verdicts.get(key(details.counterexample[0] as GeneratedCase)) ?? (firstFailure as Verdict | null)) : null;
  if (!stopped && control && !definite(control.exchange) && !(failure && definite(failure.exchange))) {
    // Nothing accepted, the control not answered: the target showed nothing the family's rules are about.
    return {
      ...base,
      source: { kind: 'property', generator: family.name, seed: options.seed, path: '' },
      status: 'errored',
      findings: [],
      reason: `no generated case was accepted (${histogram(answered) || 'none answered'}) and a valid control case got ${control.exchange.response ? `status ${control.exchange.response.status}` : `no response (${control.exchange.error?.code ?? 'OTHER'})`}: the family's rules could not be tested (${summary})`,
      exchanges: [...answered.slice(-2), control.exchange],
      durationMs: Date.now() - started,
      replay: options.replay(options.seed, ''),
    };
  }
  if (!stopped && !details.failed && control?.finding) {
    // Every case passed, none was accepted, and the target refused a valid control case: a finding.
    return {
      ...base,
      source: { kind: 'property', generator: family.name, seed: options.seed, path: '' },
      status: 'failed',
      findings: [{ ...control.finding, exchangeIds: [control.exchange.id] }],
      reason: summary,
      exchanges: [control.exchange],
      durationMs: Date.now() - started,
      replay: options.replay(options.seed, ''),
    };
  }
  if (stopped) {
    // The run stopped (e.g. the token was revoked) while this family ran: no verdict on its cases.
    const shown = [...verdicts.values()].map((v) => v.exchange);
    return {
      ...base,
      source: { kind: 'property', generator: family.name, seed: options.seed, path: '' },
      status: 'errored',
      findings: [],
      reason: `${(stopped as RunStopped).reason} (${summary})`,
      exchanges: shown.slice(-3),
      durationMs: Date.now() - started,
      replay: options.replay(options.seed, ''),
    };
  }
  if (!details.failed) {
    return {
      ...base,
      source: { kind: 'property', generator: family.name, seed: options.seed, path: '' },
      status: 'passed',
      findings: [],
      reason: summary,
      exchanges: [],
      durationMs: Date.now() - started,
      replay: options.replay(options.seed, ''),
    };
  }
  if (!details.counterexample) {
    // The property threw (not a verdict): a bug of ours, reported as errored with the cause.
    return {
      ...base,
      source: { kind: 'property', generator: family.name, seed: options.seed, path: details.counterexamplePath ?? '' },
      status: 'errored',
      findings: [],
      reason: `property run failed without a counterexample: ${String(details.errorInstance ?? 'unknown')}`,
      exchanges: [],
      durationMs: Date.now() - started,
      replay: options.replay(options.seed, details.counterexamplePath ?? ''),
    };
  }
  const smallest = details.counterexample[0] as GeneratedCase;
  const shown = verdicts.get(key(smallest)) ?? (firstFailure as Verdict | null);
  // What regressions.yaml needs to send the failing case again as a minimal pair: an accepted valid
  // case of this run as the baseline, and the request that created the family's resource.
  const baseline = [...verdicts.values()].find((v) => v.valid && v !== shown && accepted(v.exchange));
  const exchanges = [
    ...new Set([options.setupExchange && retainExchange(options.setupExchange), baseline?.exchange, shown?.exchange, (firstFailure as Verdict | null)?.exchange].filter((e): e is Exchange => e !== undefined)),
  ];
  const finding = shown?.finding ?? (firstFailure as Verdict | null)?.finding;
  const counterexamplePath = details.counterexamplePath ?? '';
  const counterexample = verdicts.has(key(smallest)) && shown ? { label: smallest.label, breaks: smallest.breaks ?? null, exchangeId: shown.exchange.id } : undefined;
  return {
    ...base,
    source: {
      kind: 'property',
      generator: family.name,
      seed: options.seed,
      path: counterexamplePath,
      ...(counterexample ? { counterexample } : {}),
      ...(baseline ? { baselineExchangeId: baseline.exchange.id } : {}),
      ...(options.setupExchange ? { setupExchangeId: options.setupExchange.id } : {}),
    },
    status: 'failed',
    findings: finding ? [{ ...finding, exchangeIds: shown ? [shown.exchange.id] : [] }] : [],
    reason: `${summary}; smallest counterexample after ${details.numShrinks} shrinks (path ${counterexamplePath}): ${JSON.stringify(smallest.payload)}`,
    exchanges,
    durationMs: Date.now() - started,
    replay: options.replay(options.seed, counterexamplePath),
  };
}

/** A family's seed, derived from the run's seed and the family's name (so one family replays alone). */
export function familySeed(runSeed: number, name: string): number {
  let hash = 2166136261;
  for (const ch of name) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  return ((runSeed ^ hash) >>> 0) % 2 ** 31;
}
