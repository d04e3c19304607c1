import type { ListNeed } from './list-need.ts';
import type { z } from 'zod';
import type { PacedSend } from '../client/pacer.ts';
import type { RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Profile } from '../profile/profile.ts';
import type { RunSink } from '../webhooks/run-sink.ts';
import { ClockcheckError } from '../errors.ts';

/** Thrown by a check to end its scenario as skipped, with the reason (a need the profile or target does not meet). */
export class SkipCheck extends ClockcheckError {
  constructor(reason: string) {
    super('CLOCKCHECK_CHECK_SKIPPED', reason);
  }
}

/**
 * Thrown when the behaviour a check needs was never shown (a GET that succeeds, a list with items,
 * a created resource): the scenario ends `errored` with the reason, never `passed`, and without a
 * finding under rules it could not test (findings already recorded still make it `failed`).
 */
export class PreconditionFailed extends ClockcheckError {
  constructor(reason: string) {
    super('CLOCKCHECK_PRECONDITION', reason);
  }
}

/** Whether an answer is a definite one: complete, not a 5xx, not a 429 (a verdict may rest on it). */
export function definiteAnswer(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status < 500 && status !== 429;
}

/** Whether an answer is a complete 2xx. */
export function served(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && !exchange.error && status >= 200 && status < 300;
}

/** An answer in a few words, for a reason: "answered 500", "got no response (CONNECTION_RESET)". */
export function describeAnswer(exchange: Exchange): string {
  if (!exchange.response) return `got no response (${exchange.error?.code ?? 'OTHER'})`;
  if (exchange.error) return `answered ${exchange.response.status}, then ${exchange.error.code}`;
  return `answered ${exchange.response.status}`;
}

/** What a built-in check can do: send through the paced client, report findings, skip. */
export interface CheckContext {
  /** Sends one request (paced, recorded in the scenario). */
  send(request: TargetRequest): Promise<Exchange>;
  /** Records a finding against `ruleId`, shown with the given exchanges (default: the last one). */
  fail(ruleId: RuleId, expected: string, actual: string, exchanges?: readonly Exchange[]): void;
  /** Ends the scenario as skipped. */
  skip(reason: string): never;
  /** Ends the scenario as errored: the behaviour the check needs was not shown (say what was shown instead). */
  precondition(reason: string): never;
  /** The previous exchange of the scenario. */
  lastExchange(): Exchange | undefined;
  /** Renders templates in a value (vars, fixtures, dates). */
  render(value: unknown): unknown;
  /** Waits for the pacer, for traffic that does not go through `send` (raw sockets); call `done()` once answered. */
  acquire(): Promise<PacedSend>;
  /** Adds an exchange the check did not send (a delivery the sink received) to the scenario's exchanges, once; returns it. */
  keep(exchange: Exchange): Exchange;
  /** Leaves `rule` out of the check's verdict (its result no longer names it) and says why in a note: what it needs was not there. */
  notJudged(ruleId: RuleId, why: string): void;
  /** An observation that is no verdict, shown with the result. */
  note(text: string): void;
  /**
   * Says the check sends nothing more and only waits (for deliveries at the sink, say): when it is
   * its scenario's last step, the run goes on with the next checks meanwhile, and a send after it
   * is a programming error.
   */
  doneSending(): void;
  /** Time left before the run's time limit (`--max-time`): a check waits no longer than this. */
  remainingMs(): number;
  /** The run's webhook sink (profile `webhook.sink`), or null. */
  readonly sink: RunSink | null;
  readonly profile: Profile;
  /** `https://host:port` of the target. */
  readonly origin: string;
  /** The scenario's first rule: the default rule of a finding. */
  readonly defaultRule: RuleId;
}

/**
 * A built-in check: its arguments (a step's `args:`) declared as a zod object, which the suite
 * loader checks before the run and the scenario runner parses after rendering the templates
 * (src/input/arguments.ts); and the check, which gets them parsed and reports through the context.
 */
export interface BuiltinCheck<S extends z.ZodType = z.ZodType> {
  readonly args: S;
  run(ctx: CheckContext, args: z.output<S>): Promise<void>;
  /** What it needs of the target's data, from its arguments as a suite writes them (templates not rendered). */
  needs(args: Readonly<Record<string, unknown>>): readonly ListNeed[];
  /** It creates, changes or deletes data on the target (the webhook check); absent: it only reads. */
  readonly writes?: true;
}

/** A built-in check of these arguments; `needs` says what data it needs to judge (default: none). */
export function builtinCheck<S extends z.ZodType>(
  args: S,
  run: (ctx: CheckContext, args: z.output<S>) => Promise<void>,
  needs: (args: Readonly<Record<string, unknown>>) => readonly ListNeed[] = () => [],
): BuiltinCheck<S> {
  return { args, run, needs };
}
