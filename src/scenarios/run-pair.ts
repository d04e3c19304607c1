import { definiteAnswer, describeAnswer, PreconditionFailed } from '../checks/context.ts';
import { judge } from './expectations.ts';
import type { Expectation, Pair, Variant } from './format.ts';
import { describeRequest } from './run-steps.ts';
import type { ScenarioRun } from './scenario-run.ts';
import { toTargetRequest } from './target-request.ts';
import { baselineKey } from './shared-baselines.ts';

/**
 * A minimal pair: the valid baseline first, which must be accepted, then each variant, which
 * changes exactly one thing and must be judged by its expectation (rejected, by default).
 */
export async function runPair(run: ScenarioRun, pair: Pair): Promise<void> {
  const baselineBody = () => (pair.request.json === undefined ? undefined : run.render(pair.request.json));
  const key = run.deps.baselines ? baselineKey(pair) : null;
  const shared = key === null ? undefined : run.deps.baselines?.get(key);
  if (shared) {
    run.keep(shared.exchange);
    run.notes.push(`the valid baseline ${describeRequest(shared.exchange)} was accepted earlier in this run (exchange ${shared.exchange.id}, ${shared.checkId}): judged on that answer, not sent again`);
  }
  const baseline = shared?.exchange ?? (await run.send(toTargetRequest(run, pair.request, { json: baselineBody() })));
  const accepted = judge(run.render(pair.accept ?? { status: 'success' }) as Expectation, baseline, run.deps.profile, run.defaultRule);
  if (key !== null && accepted.length === 0 && definiteAnswer(baseline)) run.deps.baselines?.accepted(key, baseline, run.loaded.id);
  if (accepted.length > 0) {
    if (!definiteAnswer(baseline)) {
      // A 5xx or no answer is no refusal: the server showed nothing about the rules (no finding).
      throw new PreconditionFailed(`the valid baseline ${describeRequest(baseline)} ${describeAnswer(baseline)}: the rules could not be tested (a pair needs the baseline accepted; its variants were not sent)`);
    }
    // A definite refusal of the valid baseline: a conforming server accepts it, so that is a finding.
    for (const rule of run.loaded.scenario.rules) {
      run.findings.push({ ruleId: rule, expected: `the valid baseline accepted: ${accepted[0]!.expected}`, actual: accepted[0]!.actual, exchangeIds: [baseline.id] });
    }
    return; // a refused baseline makes every variant's verdict meaningless
  }
  for (const variant of pair.variants) await runVariant(run, pair, variant, baselineBody);
}

async function runVariant(run: ScenarioRun, pair: Pair, variant: Variant, baselineBody: () => unknown): Promise<void> {
  let json = baselineBody();
  if (variant.set || variant.unset) {
    const body = { ...((json ?? {}) as Record<string, unknown>) };
    for (const [key, value] of Object.entries(variant.set ?? {})) body[key] = run.render(value);
    for (const key of variant.unset ?? []) delete body[key];
    json = body;
  }
  const query = variant.query ? (run.render(variant.query) as Record<string, unknown>) : undefined;
  const exchange = await run.send(toTargetRequest(run, pair.request, { json, ...(query ? { query } : {}) }));
  const rule = variant.rule ?? run.defaultRule;
  const expectation = run.render(variant.expect ?? { status: 'rejected' }) as Expectation;
  const judgements = judge({ ...expectation, rule: expectation.rule ?? rule }, exchange, run.deps.profile, rule);
  run.addJudgements(judgements.map((j) => ({ ...j, expected: `${j.expected} (${variant.why})` })), exchange);
}
