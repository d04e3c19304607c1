import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import { discoverBreakRule } from './discover-records.ts';
import { readList, said } from './list-answer.ts';

/** What init found of a second company's side with its token (`init --second-token-env`), read-only. */
export interface SecondCompanyDiscovery {
  /** The environment variable its token came from: what the profile names. */
  readonly tokenEnv: string;
  /** Whether the target served its token; why not, else. */
  readonly served: Discovery<true>;
  /** Whether the two tokens count in one window (§8 does not say), from the answers' rate-limit headers. */
  readonly rateLimit: Discovery<'shared' | 'per-token'>;
  /** A break rule of the second company, for its break (the isolation checks). */
  readonly breakRuleId: Discovery<number>;
}

/** The requests discoverSecondCompany makes: the first token, the second, the first again; the second company's breaks. */
export const SECOND_COMPANY_READS = 4;

/** The calls left in the caller's window, as the answer's rate-limit headers say; undefined without one. */
function remaining(exchange: Exchange): number | undefined {
  const headers = exchange.response?.headers ?? {};
  const value = headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining'];
  const n = value === undefined ? NaN : Number(value.split(',')[0]);
  return Number.isInteger(n) ? n : undefined;
}

/**
 * The second company's side, read-only: one list read with each token in turn (the first, the second,
 * the first again: a window the two tokens share shows the second's call in the first's remaining
 * count, two fewer; a window per token, one fewer), and the second company's breaks for a break rule.
 */
export async function discoverSecondCompany(send: (request: TargetRequest) => Promise<Exchange>, tokenEnv: string): Promise<SecondCompanyDiscovery> {
  const read = (auth: 'token' | 'second-token') => send({ method: 'GET', path: '/users', query: { page_size: 1 }, auth });
  const before = await read('token');
  const second = await read('second-token');
  const after = await read('token');
  const status = second.response?.status ?? 0;
  const served: Discovery<true> = status >= 200 && status < 300 ? found(true, `${said(second)} with its token`) : notFound(`${said(second)} with the token in $${tokenEnv}: not served, so the isolation checks will error; is it an administrator token of another company on this server?`);
  const [a, b] = [remaining(before), remaining(after)];
  const rateLimit: Discovery<'shared' | 'per-token'> =
    a === undefined || b === undefined
      ? notFound(`${said(before)} and ${said(after)}: no X-RateLimit-Remaining to tell whether the two tokens share one window; declare second_company.rate_limit (default shared: its calls are paced in the first company's window)`)
      : a - b === 2
        ? found('shared', `X-RateLimit-Remaining ${a} then ${b} for the first token around one call of the second: its call counted in the same window`)
        : a - b === 1
          ? found('per-token', `X-RateLimit-Remaining ${a} then ${b} for the first token around one call of the second: only the first token's own call counted`)
          : notFound(`X-RateLimit-Remaining ${a} then ${b} for the first token around one call of the second: neither one nor two fewer, so the window is not told; declare second_company.rate_limit`);
  const breaks = readList(await send({ method: 'GET', path: '/breaks', query: { page_size: 100 }, auth: 'second-token' }));
  return { tokenEnv, served, rateLimit, breakRuleId: discoverBreakRule(breaks) };
}
