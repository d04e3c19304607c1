import type { RecordId } from '../records/created-id.ts';
import type { CheckResult } from '../report/model.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { GeneratorContext, PropertyFamily } from './family.ts';
import { accepted, caseKey, definite, sendCases, sendControl, type CaseSending, type CasesSent, type Verdict } from './_internals/case-verdicts.ts';
import { attributeRefusal, describeValues } from './_internals/attribute-refusal.ts';
import { operationFor } from '../contract/operations.ts';
import { judgeFamily } from './_internals/family-result.ts';

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
  readonly resourceId?: RecordId;
  /** The exchange that created the setup resource: kept with a failure, so regressions.yaml can create it again. */
  readonly setupExchange?: Exchange;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  /** The replay command for a seed and path. */
  readonly replay: (seed: number, path: string) => string;
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
  const started = Date.now();
  const { family, context, profile, send, numRuns, shrinkBudget, seed } = options;
  const path = family.request.path.replace('{id}', String(options.resourceId ?? ''));
  const sending: CaseSending = { family, context, profile, send, path, numRuns, shrinkBudget, seed, replayPath: options.path };
  const cases = await sendCases(sending);
  const { control, stopped } = cases.stopped ? { control: null, stopped: cases.stopped } : await sendControl(sending, cases);
  const narrowed = stopped ? control : await narrowRefusal(sending, cases, control);
  return judgeFamily({ ...options, started }, { ...cases, control: narrowed, stopped });
}

/**
 * A valid counterexample the target refused (a definite 4xx), beside a valid case it accepted:
 * narrowed to the field whose value the refusal follows (attribute-refusal.ts), whose rule the
 * finding then names, with the accepted variant as evidence. Left as judged when nothing narrows it.
 * A refused control case (sent when no case was accepted) is narrowed the same way against plain
 * valid values, so a family of one case names the value a refusal follows too: the control, as
 * narrowed, is returned.
 */
async function narrowRefusal(sending: CaseSending, cases: CasesSent, control: Verdict | null): Promise<Verdict | null> {
  const smallest = cases.details.failed ? cases.details.counterexample?.[0] : undefined;
  // The counterexample as reported (family-result.ts): the smallest case when it was sent, else the first failure.
  const counterexample = smallest === undefined ? undefined : (cases.verdicts.get(caseKey(smallest)) ?? cases.firstFailure ?? undefined);
  const model = operationFor(sending.family.request.method, sending.family.request.path.replace('{id}', '{x}'))?.request;
  // The control's refusal is the finding only where no case failed (family-result.ts).
  const verdict = counterexample ?? (!cases.details.failed && control?.finding ? control : undefined);
  if (!verdict?.finding || !verdict.valid || !definite(verdict.exchange) || !model) return control;
  const refused = verdict.sent;
  // An accepted valid case of the family, else its accepted control case (sent when no case was accepted).
  const baseline = [...cases.verdicts.values(), ...(control ? [control] : [])].find((v) => v.valid && v !== verdict && accepted(v.exchange)) ?? null;
  const family = sending.family;
  const narrowed = await attributeRefusal(
    {
      refused,
      baseline: baseline?.sent ?? null,
      model,
      send: sending.send,
      request: { method: family.request.method, path: sending.path },
      fallback: (_fields, refused) => family.refusalRule?.(refused) ?? null,
    },
    sending.profile.company_timezone,
  );
  if (!narrowed) return control;
  const status = verdict.exchange.response?.status ?? 0;
  const attributed: Verdict = {
    ...verdict,
    finding: {
      ruleId: narrowed.rule,
      expected: `${verdict.finding.expected}: its ${describeValues(refused.payload, narrowed.fields)} is valid (${narrowed.rule})`,
      actual: `status ${status}; the same case with ${describeValues(narrowed.variant.request.body ? (JSON.parse(narrowed.variant.request.body) as Record<string, unknown>) : {}, narrowed.fields)} instead was accepted (exchange ${narrowed.variant.id})`,
    },
    narrowedBy: [narrowed.variant],
  };
  if (verdict === control) return attributed;
  // Under the key the verdict is kept by: its case's, or the case whose alternate it is.
  const key = [...cases.verdicts].find(([, v]) => v === verdict)?.[0] ?? caseKey(refused);
  (cases.verdicts as Map<string, Verdict>).set(key, attributed);
  return control;
}

/** A family's seed, derived from the run's seed and the family's name (so one family replays alone). */
export function familySeed(runSeed: number, name: string): number {
  let hash = 2166136261;
  for (const ch of name) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  return ((runSeed ^ hash) >>> 0) % 2 ** 31;
}
