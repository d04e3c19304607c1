import { BUILTIN_CHECKS } from '../checks/registry.ts';
import type { BuiltinCheck } from '../checks/context.ts';
import { InternalError } from '../errors.ts';
import { argumentsIssue } from '../input/arguments.ts';
import { didYouMean } from '../did-you-mean.ts';
import type { FieldIssue } from '../input/source-issue.ts';
import type { Scenario } from './format.ts';
import { knownOnlyAtRunTime, templateIssue } from './template-issues.ts';

const CHECKS: Readonly<Record<string, BuiltinCheck>> = BUILTIN_CHECKS;

/**
 * What the format's schema cannot see in a scenario, found when its suite loads (the path is under
 * the scenario): a check that does not exist, a malformed template (src/scenarios/template-issues.ts),
 * and a check step's `args:` its check does not take, with the kinds of values only the run knows
 * (a whole `{{ vars.n }}`) left to the run.
 */
export function scenarioIssue(scenario: Scenario, knownChecks: readonly string[]): FieldIssue | undefined {
  const checkSteps = (['setup', 'steps'] as const).flatMap((part) =>
    (scenario[part] ?? []).flatMap((step, index) => ('check' in step ? [{ step, at: [part, index] as const }] : [])),
  );
  for (const { step, at } of checkSteps) {
    if (!knownChecks.includes(step.check)) {
      const near = didYouMean(step.check, knownChecks);
      return { path: [...at, 'check'], problem: `unknown check "${step.check}"`, hint: near ? `did you mean "${near}"?` : `known: ${knownChecks.join(', ')}` };
    }
  }
  for (const part of ['let', 'setup', 'steps', 'pair'] as const) {
    const issue = templateIssue(scenario[part], [part]);
    if (issue) return issue;
  }
  for (const { step, at } of checkSteps) {
    const check = CHECKS[step.check];
    if (!check) throw new InternalError(`check ${step.check} is known to the loader but has no declaration in src/checks/registry.ts`);
    const issue = argumentsIssue(check.args, step.args, knownOnlyAtRunTime);
    if (issue) return { ...issue, path: [...at, 'args', ...issue.path] };
  }
  return undefined;
}
