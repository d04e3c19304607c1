import type { TargetRequest } from '../../client/client.ts';
import type { Exchange } from '../../client/exchange.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { DateRangeEnds } from '../../profile/readings.ts';
import { readId, type RecordId } from '../../records/created-id.ts';
import { readField } from '../../records/field-name.ts';
import { locateItems } from '../../records/locate.ts';
import type { RecordReading } from '../../records/record-reading.ts';
import type { Expected } from '../../records/written-record.ts';

/**
 * The model the stateful family's commands share (user-commands.ts, timesheet-commands.ts): what a
 * sequence wrote, what it acts on, and how a command ends when the target disagrees or cannot be judged.
 */

/** A 2xx answer. */
export const ok = (e: Exchange) => e.response !== undefined && e.response.status >= 200 && e.response.status < 300;
/** How a refusal is named in a precondition: `status 422`, `no response (TIMEOUT)`. */
export const answered = (e: Exchange) => (e.response ? `status ${e.response.status}` : `no response (${e.error?.code ?? 'OTHER'})`);
/** The variable a replayed sequence captures the user `n`'s ID in. */
export const userVar = (u: Pick<SequenceUser, 'n'>) => `{{ vars.user_${u.n} }}`;

/** A timesheet the sequence created: its number, ID, day (`YYYY-MM-DD`, noon in the company's zone) and what was written. */
export interface SequenceTimesheet {
  readonly n: number;
  readonly id: RecordId;
  readonly day: string;
  readonly fields: Map<string, Expected>;
}

/** A user the sequence created: its number in the sequence (1, 2, …), its ID, its e-mail, what was written. */
export interface SequenceUser {
  readonly n: number;
  readonly id: RecordId;
  readonly email: string;
  fields: Map<string, Expected>;
}

export interface SequenceModel {
  readonly users: SequenceUser[];
  /** The timesheets it created (timesheet-commands.ts). */
  readonly timesheets: SequenceTimesheet[];
}

/** One step of the sequence as the scenario format writes it (regressions.yaml replays it). */
export type SequenceStep = Readonly<Record<string, unknown>>;

/** What the commands act on: the target, the requests left, and what this run of a sequence sent. */
export interface SequenceReal {
  send(request: TargetRequest): Promise<Exchange>;
  /** A fresh e-mail for the sequence's user `n`. */
  email(n: number): string;
  readonly reading: RecordReading;
  /** The days the sequence writes timesheets on (timesheet-commands.ts), the company's zone, and how the profile reads a range's ends. */
  readonly days: readonly string[];
  readonly companyTimezone: string;
  readonly dateRangeEnds: DateRangeEnds;
  readonly steps: SequenceStep[];
  readonly exchanges: Exchange[];
}

/** A disagreement between the target and the model: a finding. */
export class SequenceFailure extends Error {
  constructor(
    readonly ruleId: RuleId,
    readonly expected: string,
    readonly actual: string,
    readonly exchange: Exchange,
  ) {
    super(`${ruleId}: ${expected}; ${actual}`);
  }
}

/** What the family needs of the target and did not get (a valid write refused, a user its search does not find): no verdict. */
export class SequencePrecondition extends Error {}

/**
 * The requests a family may still send, shared by every run of a sequence and the shrinking; until a
 * sequence fails, `reserve` of them are kept for shrinking it (a command runs only while more are left).
 */
export interface RequestBudget {
  left: number;
  reserve: number;
}

export const affordable = (budget: RequestBudget) => budget.left > budget.reserve;

export async function sent(real: SequenceReal, request: TargetRequest): Promise<Exchange> {
  const exchange = await real.send(request);
  real.exchanges.push(exchange);
  return exchange;
}

export function listed(exchange: Exchange, reading: RecordReading): unknown[] {
  return ok(exchange) ? (locateItems(exchange.response?.json, reading) ?? []) : [];
}

export function sameId(item: unknown, id: RecordId): boolean {
  const read = readId(readField(item, 'id', 'exact').value);
  return read !== null && String(read) === String(id);
}

