import type { RuleId } from '../spec/rules.ts';
import type { Exchange } from '../target/exchange.ts';
import type { TargetRequest } from '../target/client.ts';
import type { Profile } from '../target/profile.ts';

/** Thrown by a check to end its scenario as skipped, with the reason. */
export class SkipCheck extends Error {}

/** What a built-in check can do: send through the paced client, report findings, skip. */
export interface CheckContext {
  /** Sends one request (paced, recorded in the scenario). */
  send(request: TargetRequest): Promise<Exchange>;
  /** Records a finding against `ruleId`, shown with the given exchanges (default: the last one). */
  fail(ruleId: RuleId, expected: string, actual: string, exchanges?: readonly Exchange[]): void;
  /** Ends the scenario as skipped. */
  skip(reason: string): never;
  /** The previous exchange of the scenario. */
  lastExchange(): Exchange | undefined;
  /** Renders templates in a value (vars, fixtures, dates). */
  render(value: unknown): unknown;
  /** Waits for the pacer, for traffic that does not go through `send` (raw sockets). */
  acquire(): Promise<void>;
  readonly profile: Profile;
  /** `https://host:port` of the target. */
  readonly origin: string;
  /** The scenario's first rule: the default rule of a finding. */
  readonly defaultRule: RuleId;
}

/** A built-in check: validates its own args (throw for bad args) and reports through the context. */
export type BuiltinCheck = (ctx: CheckContext, args: Readonly<Record<string, unknown>>) => Promise<void>;
