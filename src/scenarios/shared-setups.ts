import type { Exchange } from '../client/exchange.ts';
import type { BuiltinCheck } from '../checks/context.ts';
import type { LoadedScenario } from './loader.ts';
import type { Step } from './format.ts';

/** What a scenario's setup left: the vars it captured, its exchanges, and what it noted; or the setup failure that errored it. */
export interface SetupOutcome {
  /** The check that ran it. */
  readonly checkId: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly exchanges: readonly Exchange[];
  readonly observedOptional: number;
  readonly notShown: readonly string[];
  /** The setup's failure (a precondition that did not hold), which errors every scenario that shares it. */
  readonly error?: unknown;
}

/**
 * The setups run so far in a run, by what they send: scenarios whose setup is the same list of
 * requests (the same templates, as written: the query suite's four sort and role scenarios create
 * the same three users and search for them) and that only read what it made share one run of it,
 * its records and its captures. A setup is shared only when it is requests alone, the scenario has
 * no `let` (nothing of its own goes into the setup's templates) and nothing else of the scenario
 * writes (no pair, no step but GET, HEAD or a check that only reads), so no check sees records another
 * changed. Under `--only` a scenario runs its own setup.
 */
export class SharedSetups {
  /** By key: a whole setup's (setupKey) or a `once` step's (onceKey; the keys never collide). */
  readonly #outcomes = new Map<string, SetupOutcome>();

  get(key: string): SetupOutcome | undefined {
    return this.#outcomes.get(key);
  }

  /** Keeps the first outcome of a setup or a `once` step. */
  ran(key: string, outcome: SetupOutcome): void {
    if (!this.#outcomes.has(key)) this.#outcomes.set(key, outcome);
  }
}

/** The key of a `once` setup step (format.ts): what it sends, expects and captures, as written (not its name); `once …`. */
export function onceKey(step: Step): string | null {
  if (!('request' in step) || !step.once) return null;
  return `once ${JSON.stringify({ request: step.request, precondition: step.precondition, expect: step.expect, capture: step.capture })}`;
}

/** The key of a scenario's setup when it may be shared (see SharedSetups), else null. */
export function setupKey(loaded: LoadedScenario, builtins: Readonly<Record<string, BuiltinCheck>>): string | null {
  const { scenario } = loaded;
  if (scenario.setup.length === 0 || scenario.pair || Object.keys(scenario.let).length > 0) return null;
  if (scenario.setup.some((step) => 'check' in step)) return null;
  const reads = (scenario.steps ?? []).every((step) => ('check' in step ? builtins[step.check]?.writes !== true : step.request.method === 'GET' || step.request.method === 'HEAD'));
  return reads ? JSON.stringify(scenario.setup) : null;
}
