import { Pool, errors, type Dispatcher } from 'undici';
import { excerpt, UNSENDABLE_HEADER_VALUE, UNSENDABLE_TARGET, type HostileCategory, type HostileRequest } from './hostile-request.ts';

/** What became of one hostile request. */
export type HostileOutcome =
  | { readonly request: HostileRequest; readonly kind: 'answered'; readonly status: number; readonly closed: boolean; readonly reply: string }
  /** The exchange broke: reset, closed before the answer, timed out. The server dropped the connection. */
  | { readonly request: HostileRequest; readonly kind: 'dropped'; readonly error: string }
  /** The client refused to send it (a catalog mistake, not the server's). */
  | { readonly request: HostileRequest; readonly kind: 'unsent'; readonly error: string };

export interface SendOptions {
  readonly origin: string;
  readonly ca: string;
  readonly token: string;
  /** Keep-alive connections of the pool (default 4). */
  readonly connections?: number;
  /** Requests in flight at once (default 8). */
  readonly concurrency?: number;
  /** Per-request headers and body timeout in ms (default 20 000): longer counts as a dropped exchange. */
  readonly timeoutMs?: number;
}

function headersOf(request: HostileRequest, token: string): Record<string, string> {
  const headers: Record<string, string | null> = { accept: 'application/json', 'content-type': 'application/json', ...request.headers };
  const authorization = request.authorization === undefined ? token : request.authorization;
  if (authorization !== null) headers.authorization = authorization;
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
}

/** The error's code and message, e.g. `UND_ERR_SOCKET: other side closed`. */
function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.code ?? 'ERROR'}: ${e.message ?? String(error)}${cause ? ` (${cause})` : ''}`;
}

async function sendOne(pool: Pool, request: HostileRequest, token: string): Promise<HostileOutcome> {
  const headers = headersOf(request, token);
  // Checked here, not left to undici: a request its pool refuses leaves the pool stuck (undici 7.30).
  if (UNSENDABLE_TARGET.test(request.path)) return { request, kind: 'unsent', error: 'the request target has characters outside latin-1' };
  const badHeader = Object.keys(headers).find((name) => UNSENDABLE_HEADER_VALUE.test(headers[name] as string));
  if (badHeader !== undefined) return { request, kind: 'unsent', error: `the ${badHeader} header has characters outside latin-1` };
  let response;
  try {
    // A fixed TLS server name (the certificate's localhost): else undici derives it from a hostile Host header.
    const options = { method: request.method, path: request.path, headers, body: request.body, servername: 'localhost' };
    response = await pool.request(options as Dispatcher.RequestOptions);
  } catch (error) {
    if (error instanceof errors.InvalidArgumentError || error instanceof errors.NotSupportedError) return { request, kind: 'unsent', error: describe(error) };
    return { request, kind: 'dropped', error: describe(error) };
  }
  try {
    const text = await response.body.text();
    return { request, kind: 'answered', status: response.statusCode, closed: response.headers.connection === 'close', reply: text.slice(0, 200) };
  } catch (error) {
    return { request, kind: 'dropped', error: `while reading the answer (status ${response.statusCode}): ${describe(error)}` };
  }
}

/**
 * Sends every request once over a pool of keep-alive HTTPS connections, `concurrency` at a time,
 * and returns one outcome a request, in catalog order.
 */
export async function sendHostile(requests: readonly HostileRequest[], options: SendOptions): Promise<HostileOutcome[]> {
  const timeout = options.timeoutMs ?? 20_000;
  const pool = new Pool(options.origin, {
    connections: options.connections ?? 4,
    pipelining: 1,
    connect: { ca: options.ca },
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  const outcomes: HostileOutcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      outcomes[index] = await sendOne(pool, requests[index] as HostileRequest, options.token);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  } finally {
    await pool.close();
  }
  return outcomes;
}

/** Counts for the closing note: per category, and statuses per category. */
export interface HostileSummary {
  readonly total: number;
  readonly perCategory: Record<HostileCategory, number>;
  /** status (or `dropped`, `unsent`) → count, over all requests. */
  readonly statuses: Record<string, number>;
  readonly statusesPerCategory: Record<HostileCategory, Record<string, number>>;
  /** Answers that asked to close the connection (`Connection: close`): graceful, not dropped. */
  readonly closedGracefully: number;
}

const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

export function summarize(outcomes: readonly HostileOutcome[]): HostileSummary {
  const perCategory = { 'fuzz-invalid': 0, 'garbage-body': 0, 'hostile-target': 0 };
  const statuses: Record<string, number> = {};
  const statusesPerCategory: Record<HostileCategory, Record<string, number>> = { 'fuzz-invalid': {}, 'garbage-body': {}, 'hostile-target': {} };
  let closedGracefully = 0;
  for (const outcome of outcomes) {
    const key = outcome.kind === 'answered' ? String(outcome.status) : outcome.kind;
    perCategory[outcome.request.category]++;
    bump(statuses, key);
    bump(statusesPerCategory[outcome.request.category], key);
    if (outcome.kind === 'answered' && outcome.closed) closedGracefully++;
  }
  return { total: outcomes.length, perCategory, statuses, statusesPerCategory, closedGracefully };
}

/** A bad outcome in three lines: what the request was, how it was sent, what came back. */
export function describeOutcome(outcome: HostileOutcome): string {
  const { request } = outcome;
  const result = outcome.kind === 'answered' ? `${outcome.status} ${JSON.stringify(outcome.reply.slice(0, 120))}` : `${outcome.kind}: ${outcome.error}`;
  // The Authorization header is left out (it holds the token); the label says what it was.
  const headers = request.headers ? ` headers=${JSON.stringify(request.headers).slice(0, 160)}` : '';
  return `[${request.category}] ${request.label}\n    ${request.method} ${request.path.slice(0, 200)}${request.path.length > 200 ? `… (${request.path.length} chars)` : ''}${headers} body=${excerpt(request.body)}\n    -> ${result}`;
}
