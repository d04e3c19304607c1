import type { IncomingMessage, ServerResponse } from 'node:http';
import { TokenCheck, type CompanyToken } from './auth.ts';
import { rateLimitKey, type RateLimitWindows } from './rate-limit-key.ts';
import type { ServerContext } from './context.ts';
import { ApiError, type ApiResponse } from './http/api-response.ts';
import { parseJsonBody, readBody } from './http/read-body.ts';
import { Router } from './http/router.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';
import { breakRoutes } from './handlers/breaks.ts';
import { scheduleRoutes } from './handlers/schedules.ts';
import { timesheetRoutes } from './handlers/timesheets.ts';
import { userRoutes } from './handlers/users.ts';
import { webhookRoutes } from './handlers/webhooks.ts';
import { literalCreatedId, readIds, readPathId, writeIds, type IdWire } from './id-wire.ts';
import { jsonText, parseJsonExact } from '../contract/json-text.ts';
import { BUSY_CONNECTIONS, Concurrency, LoadFaultEffects, SLOW_MS_PER_REQUEST } from './load-faults.ts';

export interface AppOptions {
  readonly ctx: ServerContext;
  /** Each company's token: the first company's, and a second's when the server serves two. */
  readonly tokens: readonly CompanyToken[];
  readonly limiter: RateLimiter;
  /** Whether the companies' tokens count in one rate-limit window or each in its own (default `shared`; rateLimitKey). */
  readonly rateLimitWindows?: RateLimitWindows;
  /** The time the limiter counts calls by (default SYSTEM_CLOCK). */
  readonly clock?: Clock;
  /** Version labels served besides `public` (§9), e.g. `['v2']` serves `/api/v2/...`. */
  readonly versions: readonly string[];
  /** Called with unexpected handler errors (500s). */
  readonly onError?: (error: unknown) => void;
  /** How the IDs of created records are written and read (id-wire.ts; default `integer`, as stored). */
  readonly ids?: IdWire;
}

/** Spec §7: the status and body of a call beyond the limit. */
const TOO_MANY = { message: 'Too Many Attempts.' };

/**
 * Writes an answer. `headLength`: under `head-content-length-zero`, what a HEAD answer says its
 * length is (Node would otherwise send GET's).
 */
function send(res: ServerResponse, response: ApiResponse, asHtml: boolean, headLength?: number): void {
  // JSON, or the JSON media type the dialect's answer names (a problem details body: application/problem+json).
  let type = response.headers?.['content-type'] ?? 'application/json';
  let text = jsonText(response.body);
  if (asHtml && response.status >= 400) {
    type = 'text/html; charset=utf-8';
    text = `<!doctype html><html><body><h1>Error ${response.status}</h1></body></html>`;
  }
  res.writeHead(response.status, {
    ...response.headers,
    'content-type': type,
    'content-length': headLength ?? Buffer.byteLength(text),
  });
  res.end(text); // Node drops the body of a HEAD response itself, keeping the headers.
}

/**
 * Under the media-type faults, a JSON body whose Content-Type is not the bare, lowercase
 * `application/json` is refused 415 (RFC 9110 §8.3.1 makes the type case-insensitive and allows
 * parameters: both are faults). Without them the reference reads any body as JSON (§1). The body's text, when it is not refused.
 */
function refuseMediaType(ctx: ServerContext, text: string, contentType: string | undefined): string {
  if (text.trim() === '' || contentType === undefined) return text;
  const bare = (contentType.split(';')[0] ?? '').trim();
  if (bare.toLowerCase() !== 'application/json') return text;
  if ((ctx.fault('json-charset-refused') && contentType.includes(';')) || (ctx.fault('json-media-type-case-sensitive') && bare !== 'application/json')) {
    throw new ApiError(415, `Unsupported media type ${contentType}: send application/json.`);
  }
  return text;
}

/**
 * Under `debug-error-echoes-headers`: an error answer of a served token (not the 401 of a refused one)
 * carries a debug block with the request's URL and its Authorization header: a
 * framework's debug mode left on in production.
 */
function debugged(ctx: ServerContext, answer: ApiResponse, req: IncomingMessage): ApiResponse {
  if (!ctx.fault('debug-error-echoes-headers') || answer.status === 401 || answer.body === null || typeof answer.body !== 'object' || Array.isArray(answer.body)) return answer;
  return { ...answer, body: { ...answer.body, debug: { url: req.url, authorization: req.headers.authorization ?? null } } };
}

/** Splits `/api/{public|version}/rest` into the API-relative path, or null when no prefix matches. */
function apiPath(pathname: string, labels: ReadonlySet<string>): string | null {
  const match = /^\/api\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match || !labels.has(match[1] as string)) return null;
  return match[2] ?? '/';
}

/** The request's URL from its target and Host header; a 400 when they make none (e.g. `Host: a b`, `Host: x:99999`). */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', `https://${req.headers.host ?? 'localhost'}`);
  } catch {
    throw new ApiError(400, 'The Host header and the request target make no valid URL.');
  }
}

/**
 * The reference server's request pipeline: rate limit (counts every request, §8: a call refused for
 * its token under `anonymous:<address>`) → authentication (§5) → routing under `/api/public` and the version prefixes (§9) → JSON body (§1) → handler.
 */
export function createRequestListener(options: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { ctx, limiter, clock = SYSTEM_CLOCK } = options;
  const ids = options.ids ?? 'integer';
  const tokens = new TokenCheck(options.tokens, ctx);
  const windows = options.rateLimitWindows ?? 'shared';
  const labels = new Set(['public', ...(ctx.fault('versioned-path-missing') ? [] : options.versions)]);
  const router = new Router();
  userRoutes(router, ctx);
  scheduleRoutes(router, ctx);
  timesheetRoutes(router, ctx);
  breakRoutes(router, ctx);
  webhookRoutes(router, ctx);
  const html = ctx.fault('errors-not-json');
  const limitedStatus = ctx.fault('rate-limit-wrong-status') ? 503 : 429;
  const limitedBody = ctx.fault('rate-limit-silent-body') ? { message: 'Rate limit exceeded.' } : TOO_MANY;
  const loadFaults = new LoadFaultEffects({ fault: (name) => ctx.fault(name), stores: { users: ctx.users, timesheets: ctx.timesheets, breaks: ctx.breaks } });
  const concurrency = new Concurrency();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const busyConnections = concurrency.note(req.socket, clock.now());
    const company = tokens.companyOf(req.headers.authorization);
    const key = rateLimitKey(company, windows, req.socket.remoteAddress);
    // Under rate-limit-skips-refused the limiter sits after authentication: a refused call is never counted.
    const counted = company !== null || !ctx.fault('rate-limit-skips-refused');
    // The check-and-record is synchronous: no request can slip in between (the racy fault's reads lag instead).
    const decision = counted ? limiter.attempt(key, clock.now()) : null;
    const rateHeaders: Record<string, string> =
      decision && Number.isFinite(decision.limit) ? { 'x-ratelimit-limit': String(decision.limit), 'x-ratelimit-remaining': String(decision.remaining) } : {};
    if (decision && !decision.allowed) {
      send(res, { status: limitedStatus, body: limitedBody, headers: { ...rateHeaders, 'retry-after': String(decision.retryAfterSeconds) } }, false);
      return;
    }
    const respond = (response: ApiResponse) => send(res, { ...response, headers: { ...rateHeaders, ...response.headers } }, html, method === 'HEAD' && ctx.fault('head-content-length-zero') ? 0 : undefined);
    try {
      if (company === null) throw new ApiError(401, 'Unauthenticated.');
      const url = requestUrl(req);
      const path = apiPath(url.pathname, labels);
      if (path === null) throw new ApiError(404, `No API route at ${url.pathname}.`);
      if (method === 'HEAD' && ctx.fault('head-unsupported')) {
        throw new ApiError(405, 'HEAD is not supported.');
      }
      const match = router.match(method, path);
      if (match.kind === 'not-found') throw new ApiError(404, `No API route at ${url.pathname}.`);
      if (match.kind === 'method-not-allowed') {
        respond({ status: 405, body: { message: `Method ${method} not allowed.` }, headers: { allow: match.allowed.join(', ') } });
        return;
      }
      const text = refuseMediaType(ctx, await readBody(req), req.headers['content-type']);
      let body: unknown;
      try {
        body = readIds(ids, parseJsonBody(text, ids === 'beyond-2^53' ? parseJsonExact : JSON.parse));
      } catch (error) {
        if (ctx.fault('malformed-json-500')) throw new TypeError('Cannot read properties of undefined');
        throw error;
      }
      const params = Object.fromEntries(Object.entries(match.params).map(([name, value]) => [name, readPathId(ids, value)]));
      // The load faults (load-faults.ts) see how many connections are busy as the answer is made.
      const answer = loadFaults.apply(method, path, match.handler({ method, params, query: url.searchParams, body, origin: url.origin, path: url.pathname, company: ctx.scopeOf(company) }), busyConnections >= BUSY_CONNECTIONS);
      if (ctx.fault('load-slow-timesheets') && method === 'POST' && /^\/timesheets\/?$/.test(path)) await clock.sleep(SLOW_MS_PER_REQUEST * (busyConnections - 1));
      const created = method === 'POST' && answer.status < 300 && !path.startsWith('/webhooks');
      const written = writeIds(ids, answer.body, path.startsWith('/breaks') ? 'break' : 'other');
      const response = { ...answer, body: created ? literalCreatedId(ids, written) : written };
      const headStatus = method === 'HEAD' && ctx.fault('head-status-mismatch') ? 200 : response.status;
      respond({ ...response, status: headStatus });
    } catch (error) {
      if (error instanceof ApiError) {
        const answer = debugged(ctx, ctx.dialect.error(error), req);
        respond({ ...answer, status: method === 'HEAD' && ctx.fault('head-status-mismatch') ? 200 : answer.status });
        return;
      }
      options.onError?.(error);
      respond({ status: 500, body: { message: 'Server Error' } });
    }
  }

  return (req, res) => {
    void handle(req, res);
  };
}
