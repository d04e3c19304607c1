import type { Exchange } from './exchange.ts';
import type { Redactor } from './redaction.ts';
import { parseBoundedJson } from './bounded-json.ts';

/**
 * The exchange with `response.json` and `response.jsonProblem` derived from the (redacted) body on
 * first read: parsed within the bounds of bounded-json.ts, or the bound it is over. Nothing is
 * parsed for an incomplete body, and nothing until a check reads it. JSON can spell the token with
 * escapes the text forms miss (`\u0061bc`), so a body with an escape is redacted value by value.
 */
export function withLazyJson(exchange: Exchange, redactor: Redactor): Exchange {
  const response = exchange.response;
  if (response === undefined || response.bodyTruncated || exchange.error !== undefined) return exchange;
  let view: { json?: unknown; jsonProblem?: string } | undefined;
  const derive = () => {
    if (view) return view;
    const parsed = parseBoundedJson(response.body);
    if (parsed.kind === 'over-bounds') view = { jsonProblem: parsed.problem };
    else if (parsed.kind === 'json') view = { json: response.body.includes('\\') ? redactor.json(parsed.value) : parsed.value };
    else view = {};
    return view;
  };
  const lazy = { ...response };
  Object.defineProperty(lazy, 'json', { enumerable: true, get: () => derive().json });
  Object.defineProperty(lazy, 'jsonProblem', { enumerable: true, get: () => derive().jsonProblem });
  return { ...exchange, response: lazy };
}
