import { CREATED_IDS_CHECK_ID } from '../records/created-ids.ts';
import { EVERY_ANSWER_CHECK_ID, EVERY_ANSWER_RULES } from '../records/every-answer-check.ts';
import { SECRETS_CHECK_RULES } from '../records/secrets-watch.ts';
import { ISOLATION_CHECK_IDS, ISOLATION_CHECKS } from '../isolation/isolation-check.ts';
import { READ_BACK_CHECK_ID, READ_BACK_RULES } from '../records/read-back/read-back-check.ts';
import { USER_SEQUENCES_ID, USER_SEQUENCES_RULES } from '../properties/user-sequences.ts';
import { InternalError, UsageError } from '../errors.ts';
import { didYouMean } from '../did-you-mean.ts';
import { RULES, isRuleId, type RuleId } from '../contract/rules.ts';
import { BUILTIN_CHECK_NAMES } from '../checks/names.ts';
import { loadSuites, type LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { PROPERTY_FAMILIES } from '../properties/families.ts';
import { selectsFamily } from '../properties/run-properties.ts';
import { RATE_LIMIT_CHECKS } from '../ratelimit/rate-limit-checks.ts';
import { MONITOR_CHECK_ID } from '../ratelimit/monitor.ts';
import { REGRESSION_SUITE } from '../regressions/regression-suite.ts';
import { TOKEN_FORM_CHECK_ID } from '../needs/preflight.ts';

/**
 * The checks a run has besides its scenarios and property families, with the rules each names:
 * the preflight's token form, the rate-limit phase's checks, the run-wide rate monitor and the
 * watch of the IDs create answers give (created-ids.ts), the watch of the secrets answers never carry
 * (secrets-watch.ts), and the read-back of what the run wrote (read-back.ts).
 */
export const BUILTIN_CHECKS: Readonly<Record<string, readonly RuleId[]>> = {
  [TOKEN_FORM_CHECK_ID]: ['AUTH-HEADER-RAW'],
  ...Object.fromEntries(Object.entries(RATE_LIMIT_CHECKS).map(([id, check]) => [id, check.rules])),
  [MONITOR_CHECK_ID]: ['RATE-LIMIT-CAP'],
  [CREATED_IDS_CHECK_ID]: ['ID-INTEGER'],
  [EVERY_ANSWER_CHECK_ID]: EVERY_ANSWER_RULES,
  ...SECRETS_CHECK_RULES,
  ...Object.fromEntries(ISOLATION_CHECK_IDS.map((id) => [id, ISOLATION_CHECKS[id].rules])),
  [READ_BACK_CHECK_ID]: READ_BACK_RULES,
  [USER_SEQUENCES_ID]: USER_SEQUENCES_RULES,
};

/** What narrows a run: `--only`'s names, then `--skip`'s. Each is a rule ID, a check ID or a suite name. */
export interface SelectionRequest {
  /** Empty: every check. */
  readonly only: readonly string[];
  /** Checks taken out of what `only` selects, by the same names; absent or empty: none. */
  readonly skip?: readonly string[];
  /** `--last-failed`: `only` holds the checks a report's run (this ID) did not pass, not names the user typed. */
  readonly rerunOf?: string;
}

/** What a run could select from: its loaded scenarios and its property families. */
export interface Selectable {
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
}

/** A selection resolved against what a run has: whether it keeps each check. */
export interface Selection {
  readonly scenario: (loaded: LoadedScenario) => boolean;
  readonly family: (family: PropertyFamily) => boolean;
  /** A check of BUILTIN_CHECKS, by its ID. */
  readonly builtin: (id: string) => boolean;
}

const LISTS = "`clockcheck rules` lists the rule IDs, `clockcheck run --plan` the checks";

/** Whether `names` select a built-in check: by ID, by its suite (`rate-limit`, `auth`), or by a rule it names. */
function selectsBuiltin(names: readonly string[], id: string, rules: readonly string[]): boolean {
  if (names.length === 0) return true;
  return names.some((o) => o === id || o === id.split('/')[0] || rules.includes(o));
}

/** Whether `names` select a scenario: by one of its rule IDs, its ID, or its suite name. */
function selects(names: readonly string[], loaded: LoadedScenario): boolean {
  if (names.length === 0) return true;
  return names.some((o) => o === loaded.id || o === loaded.suite || (isRuleId(o) && loaded.scenario.rules.includes(o)));
}

/**
 * Every name a run can be narrowed by, suites first: the suite names (of the scenarios loaded, and
 * `auth`, `rate-limit`, `properties`, `regressions`), the check IDs (scenarios, `properties/NAME`,
 * the built-in checks), then the rule IDs of the catalog.
 */
export function selectionNames(selectable: Selectable): readonly string[] {
  const builtinIds = Object.keys(BUILTIN_CHECKS);
  return [
    ...new Set([
      ...selectable.scenarios.map((s) => s.suite),
      ...builtinIds.map((id) => id.split('/')[0] as string),
      'properties',
      REGRESSION_SUITE,
      ...selectable.scenarios.map((s) => s.id),
      ...selectable.families.map((f) => `properties/${f.name}`),
      ...builtinIds,
      ...RULES.map((r) => r.id),
    ]),
  ];
}

/**
 * Resolves `--only` and `--skip` against what a run has, once, before anything is planned.
 * @throws UsageError naming a name that is none of selectionNames (with a did-you-mean), or when the
 *   selection is empty: nothing `--only` names is in this run, or `--skip` takes out all of it. A
 *   selection whose checks are all planned skipped (the profile lacks their fixtures, --read-only)
 *   is still a selection.
 */
export function resolveSelection(request: SelectionRequest, selectable: Selectable): Selection {
  const skip = request.skip ?? [];
  const known = selectionNames(selectable);
  const knownSet = new Set(known);
  for (const [flag, names] of [['--only', request.only], ['--skip', skip]] as const) {
    const unknown = [...new Set(names.filter((n) => !knownSet.has(n)))];
    if (unknown.length > 0) throw new UsageError(unknownNamesMessage(flag, unknown, known, flag === '--only' ? request.rerunOf : undefined));
  }
  const chosen = matching(request.only);
  const taken = skip.length > 0 ? matching(skip) : null;
  const selection: Selection = {
    scenario: (loaded) => chosen.scenario(loaded) && !(taken?.scenario(loaded) ?? false),
    family: (family) => chosen.family(family) && !(taken?.family(family) ?? false),
    builtin: (id) => chosen.builtin(id) && !(taken?.builtin(id) ?? false),
  };
  if (!selectsAny(selection, selectable)) throw new UsageError(emptySelectionMessage(request, selectsAny(chosen, selectable), selectable));
  return selection;
}

/**
 * Checks `--only` and `--skip` against the suites a run loads and its property families, before
 * anything starts (the embedded server included): the errors of resolveSelection.
 */
export async function checkSelection(
  request: SelectionRequest & { readonly suitesDir: string; readonly suiteGlob: string; readonly families?: readonly PropertyFamily[] },
): Promise<void> {
  const scenarios = await loadSuites(request.suitesDir, request.suiteGlob, BUILTIN_CHECK_NAMES);
  resolveSelection(request, { scenarios, families: request.families ?? PROPERTY_FAMILIES });
}

/** The checks `names` select, as --only selects them (no names: every check). */
function matching(names: readonly string[]): Selection {
  return {
    scenario: (loaded) => selects(names, loaded),
    family: (family) => selectsFamily(names, family),
    builtin: (id) => {
      const rules = BUILTIN_CHECKS[id];
      if (rules === undefined) throw new InternalError(`${id} is not a built-in check (${Object.keys(BUILTIN_CHECKS).join(', ')})`);
      return selectsBuiltin(names, id, rules);
    },
  };
}

function selectsAny(selection: Selection, selectable: Selectable): boolean {
  return selectable.scenarios.some(selection.scenario) || selectable.families.some(selection.family) || Object.keys(BUILTIN_CHECKS).some(selection.builtin);
}

/** `run: --only authh selects nothing (did you mean "auth"?); …`, every unknown name with its own suggestion. */
function unknownNamesMessage(flag: '--only' | '--skip', unknown: readonly string[], known: readonly string[], rerunOf: string | undefined): string {
  const hint = (name: string) => {
    const near = didYouMean(name, known);
    return near === undefined ? '' : ` (did you mean "${near}"?)`;
  };
  const named = unknown.map((name) => `${name}${hint(name)}`).join(', ');
  if (rerunOf !== undefined) return `run: --last-failed: run ${rerunOf} has checks this run does not: ${named}; load the suites it ran with --suite`;
  const verb = flag === '--only' ? 'select' : 'skip';
  const [one] = unknown;
  if (unknown.length === 1 && one !== undefined) return `run: ${flag} ${one} ${verb}s nothing${hint(one)}; ${LISTS}`;
  return `run: ${flag} ${named} ${verb} nothing; ${LISTS}`;
}

/** Why a selection of known names leaves nothing to run: --only names nothing this run has, or --skip takes out all it names. */
function emptySelectionMessage(request: SelectionRequest, onlySelects: boolean, selectable: Selectable): string {
  const only = request.only.join(',');
  if (onlySelects) return `run: --skip ${(request.skip ?? []).join(',')} leaves nothing${only ? ` of --only ${only}` : ''} to run; \`clockcheck run --plan\` lists the checks`;
  const regressions = request.only.includes(REGRESSION_SUITE) && !selectable.scenarios.some((s) => s.suite === REGRESSION_SUITE);
  const why = regressions
    ? `no regressions.yaml is loaded (run one with --suite PATH/${REGRESSION_SUITE}.yaml)`
    : 'no check of the suites loaded, no property family and no built-in check has these names';
  return `run: --only ${only} selects nothing: ${why}; \`clockcheck run --plan\` lists the checks`;
}
