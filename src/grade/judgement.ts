import type { RuleId } from '../contract/rules.ts';
import type { Observed } from './traffic.ts';

/** What one recorded exchange (or a few together) shows of one rule: held or broken, and how. */
export interface Judgement {
  readonly ruleId: RuleId;
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** The exchanges that show it (their `exchange.id`). */
  readonly exchangeIds: readonly number[];
}

/** A judgement on one observed exchange. */
export function judged(o: Observed, ruleId: RuleId, ok: boolean, expected: string, actual: string): Judgement {
  return { ruleId, ok, expected, actual, exchangeIds: [o.exchange.id] };
}

/** The status the exchange got, or null when no response came. */
export function statusOf(o: Observed): number | null {
  return o.exchange.response?.status ?? null;
}

export const isSuccess = (status: number | null): status is number => status !== null && status >= 200 && status < 300;

/** A refusal of the request as such: a 4xx other than 401/403 (the token) and 429 (the limit). */
export const isRejection = (status: number | null): status is number => status !== null && status >= 400 && status < 500 && ![401, 403, 429].includes(status);

export const isServerError = (status: number | null): status is number => status !== null && status >= 500;

/** "METHOD /path?query" of an observed exchange, for messages. */
export function requestLine(o: Observed): string {
  const query = o.query.toString();
  return `${o.exchange.request.method} ${o.path}${query ? `?${query}` : ''}`;
}
