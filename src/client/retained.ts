import type { Exchange, ExchangeResponse } from './exchange.ts';

/**
 * Response body characters an exchange keeps once its check has ended (for the reports and the
 * run-wide monitor): 8 Ki. With at most a few thousand exchanges in a run, what a run holds does not
 * depend on what the target sends: whatever the bodies, the kept text is at most 8 Ki characters an
 * exchange.
 */
export const RETAINED_BODY_CHARS = 8 * 1024;

/**
 * The exchange as a report keeps it: a plain object with the body text cut at RETAINED_BODY_CHARS
 * (`bodyTruncated` then true) and no parsed JSON or its problem (views derived from the whole body
 * live only while a check uses them; its findings say what they showed).
 * The cut text is copied, so it does not keep the whole body alive.
 */
export function retainExchange(exchange: Exchange): Exchange {
  let kept = RETAINED.get(exchange);
  if (kept === undefined) {
    kept = retained(exchange);
    RETAINED.set(exchange, kept);
    RETAINED.set(kept, kept); // retaining a retained exchange (a check's, then its result's) is the same copy
  }
  return kept;
}

/** One retained copy per exchange, however many holders (a check's result, the run-wide monitor) keep it. */
const RETAINED = new WeakMap<Exchange, Exchange>();

function retained(exchange: Exchange): Exchange {
  const { response } = exchange;
  return {
    id: exchange.id,
    ...(exchange.direction === undefined ? {} : { direction: exchange.direction }),
    ...(exchange.company === undefined ? {} : { company: exchange.company }),
    startedAt: exchange.startedAt,
    sentAtMs: exchange.sentAtMs,
    durationMs: exchange.durationMs,
    request: { ...exchange.request, ...(exchange.request.body === undefined ? {} : { body: retainedText(exchange.request.body) }) },
    ...(response === undefined ? {} : { response: retainedResponse(response) }),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
  };
}

function retainedResponse(response: ExchangeResponse): ExchangeResponse {
  const cut = response.body.length > RETAINED_BODY_CHARS;
  return {
    status: response.status,
    headers: response.headers,
    body: retainedText(response.body),
    bodyBytes: response.bodyBytes,
    bodyTruncated: response.bodyTruncated || cut,
  };
}

/** The text cut at RETAINED_BODY_CHARS, as a string of its own (a slice would keep its parent alive). */
function retainedText(text: string): string {
  if (text.length <= RETAINED_BODY_CHARS) return text;
  return Buffer.from(text.slice(0, RETAINED_BODY_CHARS), 'utf8').toString('utf8');
}
