import { jsonText } from '../../contract/json-text.ts';
import fc from 'fast-check';
import type { RuleId } from '../../contract/rules.ts';
import type { Finding } from '../../report/model.ts';
import type { TargetRequest } from '../../client/client.ts';
import type { Exchange } from '../../client/exchange.ts';
import type { Profile } from '../../profile/profile.ts';
import { matchStatus } from '../../scenarios/expectations.ts';
import { RunStopped } from '../../errors.ts';
import { retainExchange } from '../../client/retained.ts';
import type { GeneratedCase, GeneratorContext, PropertyFamily } from '../family.ts';
import { edgeCases } from '../arbitraries/edges/edge-class.ts';

/** What one case sent showed: its finding (null: treated as the spec says) and its exchange as a report keeps it. */
export interface Verdict {
  readonly finding: Omit<Finding, 'exchangeIds'> | null;
  readonly exchange: Exchange;
  /** The case was valid (it breaks no rule): an accepted one is a baseline. */
  readonly valid: boolean;
  /** The case sent. */
  readonly sent: GeneratedCase;
  /** Exchanges that narrowed the finding (attribute-refusal.ts: the variant the target accepted). */
  readonly narrowedBy?: readonly Exchange[];
}

/** How a family's cases are sent: to which path, how many, with what budget and seed. */
export interface CaseSending {
  readonly family: PropertyFamily;
  readonly context: GeneratorContext;
  readonly profile: Profile;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  /** The family's path with the setup resource's ID in place of `{id}`. */
  readonly path: string;
  /** Cases sent before shrinking (each one request). */
  readonly numRuns: number;
  /** Extra requests shrinking may spend on a failure. */
  readonly shrinkBudget: number;
  readonly seed: number;
  /** A fast-check path: replays exactly that case. */
  readonly replayPath?: string;
}

/** What the generated cases showed. */
export interface CasesSent {
  /** fast-check's account of the property: failed or not, the (shrunk) counterexample and its path. */
  readonly details: fc.RunDetails<[GeneratedCase]>;
  /** Each distinct case sent, by `caseKey`. */
  readonly verdicts: ReadonlyMap<string, Verdict>;
  readonly sent: number;
  /** How many of the cases sent were valid. */
  readonly valid: number;
  readonly firstFailure: Verdict | null;
  /** The run stopped while the cases were sent (e.g. the token was revoked): no verdict on them. */
  readonly stopped: RunStopped | null;
}

/** A complete 2xx: the target accepted the case. */
export const accepted = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status >= 200 && status < 300;
};

/** A complete answer that is neither a 5xx nor a 429: a verdict may rest on it. */
export const definite = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status < 500 && status !== 429;
};

/** A case's identity: the same label and payload are sent once (shrinking revisits cases). */
export const caseKey = (c: GeneratedCase): string => `${c.label}\u0000${jsonText(c.payload)}`;

/** A case and its exchange judged; what is kept is the exchange as a report keeps it (a family sends up to hundreds of cases). */
function judged(generated: GeneratedCase, exchange: Exchange, family: PropertyFamily, profile: Profile): Verdict {
  return { finding: judgeCase(generated, exchange, family, profile), exchange: retainExchange(exchange), valid: !generated.breaks, sent: generated };
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
 * Sends the family's generated cases, each distinct case once, and judges each as it is answered.
 * On a failure fast-check shrinks it, spending at most `shrinkBudget` extra requests (past that,
 * candidates are not sent and count as passing, so the search ends). A RunStopped ends the sending.
 */
export async function sendCases(sending: CaseSending): Promise<CasesSent> {
  const { family, profile } = sending;
  const verdicts = new Map<string, Verdict>();
  let sent = 0;
  let valid = 0;
  let firstFailure: Verdict | null = null;
  let stopped: RunStopped | null = null;
  const maxRequests = sending.numRuns + sending.shrinkBudget;
  const exchangeOf = async (generated: GeneratedCase): Promise<Exchange> => {
    sent++;
    return sending.send({ method: family.request.method, path: sending.path, json: generated.payload });
  };
  const property = fc.asyncProperty(family.cases(sending.context), async (generated) => {
    const known = verdicts.get(caseKey(generated));
    if (known) return known.finding === null;
    if (sent >= maxRequests || stopped) return true; // the request budget is spent (or the run stopped): no more sends
    if (!generated.breaks) valid++;
    let verdict: Verdict;
    try {
      verdict = judged(generated, await exchangeOf(generated), family, profile);
      // A member the target may hold (a code another user has): a refusal fails only when a second member is refused too.
      if (verdict.finding && generated.alternate && definite(verdict.exchange) && sent < maxRequests) {
        const second = judged(generated.alternate, await exchangeOf(generated.alternate), family, profile);
        verdict = second.finding ? { ...second, finding: { ...second.finding, actual: `${second.finding.actual}; a first member of the same edge classes was refused too (exchange ${verdict.exchange.id})` } } : second;
      }
    } catch (error) {
      if (!(error instanceof RunStopped)) throw error;
      stopped = error;
      return true;
    }
    verdicts.set(caseKey(generated), verdict);
    if (verdict.finding && !firstFailure) firstFailure = verdict;
    return verdict.finding === null;
  });
  // The edge cases go first (fast-check's examples count toward numRuns): every edge in every full run, whatever the seed.
  const examples = edgeCases(family.edges, sending.context, sending.seed).map((c): [GeneratedCase] => [c]);
  const details = await fc.check(property, {
    seed: sending.seed,
    numRuns: sending.replayPath ? 1 : sending.numRuns,
    examples,
    ...(sending.replayPath ? { path: sending.replayPath } : {}),
  });
  return { details, verdicts, sent, valid, firstFailure, stopped };
}

/** One valid case of the family for its seed, or null when the generator yields none. */
function controlCase(family: PropertyFamily, context: GeneratorContext, seed: number): GeneratedCase | null {
  try {
    return fc.sample(family.cases(context).filter((c) => c.breaks === undefined), { seed, numRuns: 1 })[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The baseline: when no generated case was accepted, one valid control case, sent after the cases (so
 * their seed and paths stay as they were). Its refusal is a finding that says it was a control case.
 */
export async function sendControl(sending: CaseSending, cases: CasesSent): Promise<{ control: Verdict | null; stopped: RunStopped | null }> {
  const none = { control: null, stopped: null };
  if ([...cases.verdicts.values()].some((v) => accepted(v.exchange))) return none;
  const valid = controlCase(sending.family, sending.context, sending.seed);
  if (!valid) return none;
  try {
    const exchange = await sending.send({ method: sending.family.request.method, path: sending.path, json: valid.payload });
    const control: Verdict = { finding: judgeCase(valid, exchange, sending.family, sending.profile), exchange: retainExchange(exchange), valid: true, sent: valid };
    if (!control.finding) return { control, stopped: null };
    return { control: { ...control, finding: { ...control.finding, expected: `${control.finding.expected} (a control case, sent because no generated case was accepted)` } }, stopped: null };
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    return { control: null, stopped: error };
  }
}
