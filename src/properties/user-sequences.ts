import fc from 'fast-check';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RuleId } from '../contract/rules.ts';
import type { Profile } from '../profile/profile.ts';
import { recordReading } from '../records/record-reading.ts';
import type { CheckResult } from '../report/model.ts';
import { DateTime } from 'luxon';
import { CreateUser, userCommands } from './_internals/user-commands.ts';
import { affordable, SequenceFailure, SequencePrecondition, type RequestBudget, type SequenceModel, type SequenceReal, type SequenceStep } from './_internals/sequence-model.ts';
import { SEQUENCE_DAY_SPACING, timesheetCommands } from './_internals/timesheet-commands.ts';
import { familySeed } from './runner.ts';

/** The stateful family: random sequences of user operations checked against a model of what they wrote (§1, §4.2). */
export const USER_SEQUENCES_ID = 'properties/user-sequences';
const NAME = 'user-sequences';
const TITLE = 'random sequences of user creates, edits, reads and role filters, timesheet creates and date_range reads agree with a model of what they wrote (fast-check model-based testing)';
export const USER_SEQUENCES_RULES: readonly RuleId[] = [
  'STORE-EDIT',
  'STORE-CREATE',
  'STORE-TEXT',
  'STORE-NUMBER',
  'STORE-DATETIME',
  'USR-LIST-FILTER-ROLE',
  'DATE-RANGE',
  'USR-ROLE-ID-DEFAULT',
  'USR-TRACK-LOCATION-DEFAULT',
  'USR-PAY-RATE-DEFAULT',
  'USR-BILLING-RATE-TYPE-DEFAULT',
];

/** Sequences generated before any shrinking, each of at most MAX_COMMANDS calls (a call that needs a user the sequence has not created is left out, and costs nothing). */
export const SEQUENCE_RUNS = 16;
export const MAX_COMMANDS = 8;
/** The family's request cap: its sequences and the shrinking of a failing one together (past it, no command runs). */
export const SEQUENCE_REQUESTS = 64;
/** Of the cap, what the sequences leave for shrinking the first one that fails. */
export const SHRINK_REQUESTS = 16;
/** The users the family creates at most: one per request of its cap (a sequence creates three at most, so in practice about a third of that). */
export const SEQUENCE_USERS = SEQUENCE_REQUESTS;
/** The timesheets likewise (a sequence creates three at most); users and timesheets together are one per request at most. */
export const SEQUENCE_TIMESHEETS = SEQUENCE_REQUESTS;
/** The first day the sequences may write timesheets on, and how many days after it: each run picks its days by its tag, each sequence its own three. */
const FIRST_DAY = '2018-01-01';
const DAYS = 700;

export interface UserSequenceOptions {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly runSeed: number;
  /** In every e-mail the sequences make: the run's tag. */
  readonly uniqueTag: string;
  /** A fast-check path: replays exactly that (shrunk) sequence. */
  readonly path?: string;
  readonly replayBase: string;
  readonly readOnly: boolean;
}

/** What identifies the family's result, whatever its verdict. */
export function userSequencesCheck(options: Pick<UserSequenceOptions, 'runSeed' | 'path' | 'replayBase'>): Pick<CheckResult, 'id' | 'title' | 'rules' | 'source' | 'replay'> {
  return {
    id: USER_SEQUENCES_ID,
    title: TITLE,
    rules: USER_SEQUENCES_RULES,
    source: { kind: 'property', generator: NAME, seed: familySeed(options.runSeed, NAME), path: options.path ?? '' },
    replay: `${options.replayBase} --only ${USER_SEQUENCES_ID} --seed ${options.runSeed}`,
  };
}

/** The commands a sequence draws from: the user commands twice as often as the timesheet ones (an edit needs a read after it to show). */
function commandMix(budget: RequestBudget): fc.Arbitrary<fc.AsyncCommand<SequenceModel, SequenceReal>> {
  return fc.oneof({ weight: 2, arbitrary: fc.oneof(...userCommands(budget)) }, { weight: 1, arbitrary: fc.oneof(...timesheetCommands(budget)) });
}

interface Failed {
  readonly failure: SequenceFailure;
  readonly steps: readonly SequenceStep[];
  readonly exchanges: readonly Exchange[];
  readonly commands: string;
}

/**
 * Runs SEQUENCE_RUNS random sequences of at most MAX_COMMANDS user operations (fast-check's
 * `fc.commands`, run by `fc.asyncModelRun`): each create, edit, read and role filter is sent, and
 * its answer must agree with the model of what the sequence wrote. A disagreement is shrunk to the
 * shortest sequence that still shows it, within SEQUENCE_REQUESTS requests in all (past them no
 * command runs, so the search ends), and reported with its steps, which regressions.yaml replays
 * as a scenario. A target that refuses a valid write, or whose search does not find a user by its
 * e-mail, leaves the family errored: it cannot be judged, and is never failed for it.
 */
export async function runUserSequences(options: UserSequenceOptions): Promise<CheckResult> {
  const started = Date.now();
  const base = { ...userSequencesCheck(options), findings: [] };
  if (options.readOnly) return { ...base, status: 'skipped', reason: 'the sequences create users on the target (--read-only)', exchanges: [], durationMs: 0 };
  const budget: RequestBudget = { left: SEQUENCE_REQUESTS, reserve: SHRINK_REQUESTS };
  const reading = recordReading(options.profile);
  let emails = 0;
  // Set inside the property: a holder, so the checks after fc.check see what the runs left there.
  const state: { failed: Failed | null; unjudged: Error | null; sequences: number } = { failed: null, unjudged: null, sequences: 0 };
  const all: Exchange[] = [];
  // Days of the run's own (by its tag): each sequence writes its timesheets on three of them, SEQUENCE_DAY_SPACING apart, after the last sequence's.
  const firstDay = DateTime.fromISO(FIRST_DAY, { zone: 'UTC' }).plus({ days: familySeed(options.runSeed, options.uniqueTag) % DAYS });
  const daysOf = (sequence: number) => [0, 1, 2].map((i) => firstDay.plus({ days: (sequence * 3 + i) * SEQUENCE_DAY_SPACING }).toISODate() as string);
  const property = fc.asyncProperty(fc.commands([commandMix(budget)], { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
    if (state.unjudged) return;
    state.sequences++;
    const real: SequenceReal = {
      send: async (request) => {
        budget.left--;
        const exchange = await options.send(request);
        all.push(exchange);
        return exchange;
      },
      email: () => `${options.uniqueTag}.q${++emails}.${familySeed(options.runSeed, NAME).toString(36)}@example.com`,
      reading,
      days: daysOf(state.sequences),
      companyTimezone: options.profile.company_timezone,
      dateRangeEnds: options.profile.date_range_ends,
      steps: [],
      exchanges: [],
    };
    try {
      // Every sequence starts with a user of its own (the other commands need one): its create is the first step.
      const setup = async () => {
        const model: SequenceModel = { users: [], timesheets: [] };
        if (affordable(budget)) await new CreateUser(budget, {}).run(model, real);
        return { model, real };
      };
      await fc.asyncModelRun(setup, commands);
    } catch (error) {
      if (error instanceof SequenceFailure) {
        budget.reserve = 0;
        state.failed = { failure: error, steps: [...real.steps], exchanges: [...real.exchanges], commands: String(commands) };
        throw error;
      }
      // A precondition, the run's stop (a budget, a signal, the target), a bug: no more sequences, and no shrinking on it.
      state.unjudged = error as Error;
      budget.left = 0;
    }
  });
  const details = await fc.check(property, { seed: familySeed(options.runSeed, NAME), numRuns: SEQUENCE_RUNS, ...(options.path ? { path: options.path } : {}) });
  const durationMs = Date.now() - started;
  const { failed, unjudged, sequences } = state;
  if (unjudged !== null && !(unjudged instanceof SequencePrecondition)) throw unjudged;
  const spent = SEQUENCE_REQUESTS - Math.max(0, budget.left);
  if (details.failed && failed) {
    const { failure, steps, exchanges } = failed;
    return {
      ...base,
      source: { kind: 'property', generator: NAME, seed: familySeed(options.runSeed, NAME), path: details.counterexamplePath ?? '', sequence: steps },
      status: 'failed',
      reason: `shrunk to ${steps.length} call${steps.length === 1 ? '' : 's'}: ${steps.map((s) => String(s.name)).join(' → ')} (${spent} requests in ${sequences} sequences)`,
      findings: [{ ruleId: failure.ruleId, expected: failure.expected, actual: failure.actual, exchangeIds: [failure.exchange.id] }],
      exchanges,
      durationMs,
    };
  }
  if (unjudged !== null) return { ...base, status: 'errored', reason: `not judged: ${unjudged.message}`, exchanges: all.slice(-3), durationMs };
  return { ...base, status: 'passed', reason: `${sequences} sequences of up to ${MAX_COMMANDS} calls agreed with the model (${spent} requests)`, exchanges: all.slice(0, 3), durationMs };
}
