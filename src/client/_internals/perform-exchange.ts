import type { Pool } from 'undici';
import { ClockcheckError } from '../../errors.ts';
import type { Exchange, ExchangeRequest, TransportError } from '../exchange.ts';
import type { Redactor } from '../redaction.ts';
import { transportFailure } from '../transport-error.ts';
import { readResponse } from './read-response.ts';

/** How one exchange is performed: the client's origin and redactor, its deadline and its body bounds. */
export interface ExchangeBounds {
  /** The pool's origin: a request's path is its URL after it. */
  readonly origin: string;
  /** Redacts what a misuse error shows of the request. */
  readonly redactor: Redactor;
  /** The whole exchange, from sending to the end of the body, ms (timeouts.exchange). */
  readonly exchangeMs: number;
  /** Response body bytes kept. */
  readonly keepBytes: number;
  /** Response bytes after which reading stops and the connection is aborted. */
  readonly abortBytes: number;
}

/**
 * Performs one request on `pool` within the exchange deadline, timed from its sending: timeouts,
 * resets, refusals, TLS failures and oversize bodies come back as an exchange with `error` (a
 * deadline that cut it short as `EXCHANGE_TIMEOUT`).
 * @throws ClockcheckError `CLOCKCHECK_TARGET_DATA` for a request undici refuses to send (a character
 *   from the target's data that a path or header cannot carry).
 */
export async function performExchange(pool: Pool, request: ExchangeRequest, id: number, bounds: ExchangeBounds): Promise<Exchange> {
  const deadlineMs = bounds.exchangeMs;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  try {
    const exchange = await perform(pool, request, id, bounds, deadline.signal);
    if (!deadline.signal.aborted || exchange.error === undefined) return exchange;
    const error: TransportError = { code: 'EXCHANGE_TIMEOUT', message: `the exchange did not complete within ${deadlineMs} ms (timeouts.exchange)` };
    return { ...exchange, error };
  } finally {
    clearTimeout(timer);
  }
}

/** Performs the request; transport failures (and the deadline's abort) become data. */
async function perform(pool: Pool, request: ExchangeRequest, id: number, bounds: ExchangeBounds, signal: AbortSignal): Promise<Exchange> {
  const sentAtMs = Date.now();
  const started = performance.now();
  const timing = () => ({
    id,
    startedAt: new Date(sentAtMs).toISOString(),
    sentAtMs,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  });
  let response: Awaited<ReturnType<Pool['request']>>;
  try {
    response = await pool.request({
      path: request.url.slice(bounds.origin.length),
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal,
    });
  } catch (error) {
    if (isMisuse(error)) {
      // A value the target sent (a created record's ID) put into the path or a header: undici refuses CR, LF, NUL and characters beyond Latin-1.
      const what = `${request.method} ${JSON.stringify(bounds.redactor.text(request.url.slice(bounds.origin.length)))}`;
      throw new ClockcheckError('CLOCKCHECK_TARGET_DATA', `a request built from the target's data cannot be sent: ${what} holds a character a request cannot carry (CR, LF, NUL or beyond Latin-1): ${bounds.redactor.message(error)}`, { cause: error });
    }
    return { ...timing(), request, error: transportFailure(error) };
  }
  const read = await readResponse(response, bounds.keepBytes, bounds.abortBytes);
  return { ...timing(), request, ...read };
}

/** undici's argument errors: the request itself cannot be sent (a bad path or header), whatever the target. */
function isMisuse(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'UND_ERR_INVALID_ARG';
}
