import { createHash } from 'node:crypto';
import type { Exchange, HttpMethod } from '../client/exchange.ts';
import { REDACTED, Redactor, type NamedToken } from '../client/redaction.ts';
import { operationFor, type OperationModel } from '../contract/operations.ts';
import { headerValue, requestBody, responseBody, type HarEntry, type RecordedBody } from './har-input.ts';

/** One recorded exchange of the API, as `grade` judges it. */
export interface Observed {
  /** The exchange in clockcheck's form (redacted; `id` from 1 in time order), as reports show it. */
  readonly exchange: Exchange;
  /** The path under the API prefix (`/breaks`, `/users/7`). */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The documented operation (§4) the request went to, if any. */
  readonly operation: OperationModel | undefined;
  readonly requestBody: RecordedBody;
  readonly responseBody: RecordedBody;
  /** The request body parsed as JSON: undefined when there is none or it is not JSON (`requestJsonProblem`). */
  readonly requestJson: unknown;
  readonly requestJsonProblem?: string;
  /** The response body parsed as JSON, when known and JSON. */
  readonly responseJson: unknown;
  /** The credential sent: its form and a short fingerprint to group calls by token (never the token). */
  readonly credential: { readonly form: 'none' | 'raw' | 'scheme' | 'cookie'; readonly fingerprint: string | null };
  /** Epoch ms the request started, and ended (start + the entry's time). */
  readonly startMs: number;
  readonly endMs: number;
  /** No response came (a HAR status 0): the recorder's error, if it gave one. */
  readonly noResponse?: string;
}

/** What a recording held of the API, and what it held besides. */
export interface Traffic {
  readonly observed: readonly Observed[];
  /** Entries to other hosts or outside the API prefix, left out. */
  readonly elsewhere: number;
  /** The hosts the API exchanges went to. */
  readonly hosts: readonly string[];
  /** Hides the recording's secrets (recordedSecrets) in a text: every message `grade` writes goes through it. */
  readonly redact: (text: string) => string;
}

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** Header values that are credentials in any recording: redacted whole, and their secrets everywhere else. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token'];

/**
 * The secrets a recording carries: each Authorization value (and its token without a scheme), each
 * cookie value, each API-key header, and the environment token the profile names. A team's HAR
 * holds their own credentials; they are hidden like clockcheck's token, in every encoding.
 */
export function recordedSecrets(entries: readonly HarEntry[], envToken: string | undefined): string[] {
  const secrets = new Set<string>();
  if (envToken) secrets.add(envToken);
  for (const entry of entries) {
    for (const h of [...entry.request.headers, ...entry.response.headers]) {
      const name = h.name.toLowerCase();
      if (!CREDENTIAL_HEADERS.includes(name) || h.value.trim() === '') continue;
      if (name === 'cookie' || name === 'set-cookie') {
        for (const part of h.value.split(/[;,]/)) {
          const value = part.split('=').slice(1).join('=').trim();
          if (value.length >= 6 && !/^(?:path|domain|expires|max-age|samesite)$/i.test(part.split('=')[0]!.trim())) secrets.add(value);
        }
        continue;
      }
      secrets.add(h.value.trim());
      const bare = h.value.trim().replace(/^[A-Za-z][A-Za-z0-9-]*\s+/, '');
      if (bare.length > 0) secrets.add(bare);
    }
  }
  return [...secrets].filter((s) => s.length >= 4);
}

/**
 * The tokens a recording's requests were served with (an answer that is no refusal of the token:
 * not 401, 403 or 429, and not missing), each named by its fingerprint, and the environment's token:
 * the ones an answer must never carry (SEC-TOKEN-NOT-RETURNED). A token that was refused was never
 * issued, and an answer that sends it back leaks nothing.
 */
export function servedTokens(entries: readonly HarEntry[], envToken: string | undefined): NamedToken[] {
  const tokens = new Map<string, string>();
  if (envToken) tokens.set(envToken, "the environment's token");
  for (const entry of entries) {
    const status = entry.response.status;
    const value = headerValue(entry.request.headers, 'authorization')?.trim();
    // A recording clockcheck wrote holds `[REDACTED]` where the token was: no token to look for.
    if (value === undefined || value.includes(REDACTED) || status === 0 || [401, 403, 429].includes(status)) continue;
    const bare = value.replace(/^[A-Za-z][A-Za-z0-9-]*\s+/, '');
    if (bare.length >= 4 && !tokens.has(bare)) tokens.set(bare, `the token ${fingerprint(bare)} (a fingerprint) the recording was served with`);
  }
  return [...tokens].map(([value, name]) => ({ value, name }));
}

/** A short fingerprint of a credential, to tell tokens apart in a report without showing one. */
function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 8);
}

function credentialOf(entry: HarEntry): Observed['credential'] {
  const value = headerValue(entry.request.headers, 'authorization')?.trim();
  // A browser's call may authenticate with a session cookie instead: not "without a token".
  if (value === undefined || value === '') return { form: headerValue(entry.request.headers, 'cookie') ? 'cookie' : 'none', fingerprint: null };
  const scheme = /^([A-Za-z][A-Za-z0-9-]*)\s+(\S.*)$/.exec(value);
  return { form: scheme ? 'scheme' : 'raw', fingerprint: fingerprint(scheme ? scheme[2]! : value) };
}

function parseJson(body: RecordedBody): { json: unknown; problem?: string } {
  if (!body.known || body.text.trim() === '') return { json: undefined };
  try {
    return { json: JSON.parse(body.text) };
  } catch (error) {
    return { json: undefined, problem: (error as Error).message };
  }
}

function headerMap(list: readonly { name: string; value: string }[], redactor: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const name = h.name.toLowerCase();
    if (name.startsWith(':')) continue; // HTTP/2 pseudo-headers, which some recorders list
    out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  const redacted = redactor.headers(out);
  for (const name of CREDENTIAL_HEADERS) if (redacted[name] !== undefined) redacted[name] = '[REDACTED]';
  return redacted;
}

/** A recorded header list as a map (names lower-cased, repeats joined), unredacted: for looking for tokens, never kept. */
function rawHeaders(list: readonly { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const name = h.name.toLowerCase();
    if (!name.startsWith(':')) out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  return out;
}

/** One entry as clockcheck's exchange: redacted as every artifact is. */
function exchangeOf(entry: HarEntry, id: number, bodies: { request: RecordedBody; response: RecordedBody }, json: unknown, redactor: Redactor): Exchange {
  const startMs = Date.parse(entry.startedDateTime);
  const method = entry.request.method.toUpperCase();
  const request = {
    method: (METHODS.includes(method as HttpMethod) ? method : 'GET') as HttpMethod,
    url: redactor.text(entry.request.url),
    headers: headerMap(entry.request.headers, redactor),
    ...(bodies.request.known && bodies.request.text !== '' ? { body: redactor.text(bodies.request.text) } : {}),
  };
  const base = { id, startedAt: new Date(startMs).toISOString(), sentAtMs: startMs, durationMs: entry.time ?? 0, request };
  if (entry.response.status === 0) return { ...base, error: { code: 'OTHER', message: redactor.text(entry.response._error ?? 'no response recorded') } };
  const body = bodies.response.known ? redactor.text(bodies.response.text) : '';
  const response = { status: entry.response.status, headers: headerMap(entry.response.headers, redactor), body, bodyBytes: bodies.response.known ? bodies.response.bytes : 0, bodyTruncated: false };
  const shown = redactor.sightingsIn({ headers: rawHeaders(entry.response.headers), body: bodies.response.known ? bodies.response.text : '' });
  return { ...base, response: json === undefined ? response : { ...response, json: redactor.json(json) }, ...(shown.length === 0 ? {} : { tokensShown: shown }) };
}

/**
 * The API's exchanges in a recording: the entries whose URL path starts with `apiPrefix` (and, when
 * `host` is given, go to that host), in time order, each with its operation (§4), its bodies and
 * its credential, redacted with the recording's own secrets (recordedSecrets).
 */
export function apiTraffic(entries: readonly HarEntry[], options: { readonly apiPrefix: string; readonly host?: string; readonly envToken?: string }): Traffic {
  const secrets = recordedSecrets(entries, options.envToken);
  const redactor = new Redactor(secrets[0] ?? 'clockcheck-no-secret-in-this-recording', secrets.slice(1), servedTokens(entries, options.envToken));
  const prefix = options.apiPrefix.replace(/\/+$/, '');
  const observed: Observed[] = [];
  const hosts = new Set<string>();
  let elsewhere = 0;
  for (const entry of entries) {
    const url = new URL(entry.request.url);
    const underPrefix = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
    if (!underPrefix || (options.host !== undefined && url.host !== options.host) || !/^https?:$/.test(url.protocol)) {
      elsewhere++;
      continue;
    }
    hosts.add(url.host);
    const path = url.pathname.slice(prefix.length) || '/';
    const bodies = { request: requestBody(entry), response: responseBody(entry) };
    const request = parseJson(bodies.request);
    const response = parseJson(bodies.response);
    const startMs = Date.parse(entry.startedDateTime);
    observed.push({
      exchange: exchangeOf(entry, observed.length + 1, bodies, response.json, redactor),
      path,
      query: url.searchParams,
      operation: operationFor(entry.request.method, path),
      requestBody: bodies.request,
      responseBody: bodies.response,
      requestJson: request.json,
      ...(request.problem === undefined ? {} : { requestJsonProblem: request.problem }),
      responseJson: response.json,
      credential: credentialOf(entry),
      startMs,
      endMs: startMs + Math.max(0, entry.time ?? 0),
      ...(entry.response.status === 0 ? { noResponse: entry.response._error ?? 'no response recorded' } : {}),
    });
  }
  return { observed, elsewhere, hosts: [...hosts].sort(), redact: (text) => redactor.text(text) };
}

/** A body clockcheck sent or received, as a recording has it: known, with its text. */
function sentBody(text: string | undefined, bytes?: number): RecordedBody {
  return { known: true, text: text ?? '', bytes: bytes ?? Buffer.byteLength(text ?? '') };
}

/** Digits enough for an integer beyond 2^53 (9007199254740992 has 16). */
const BIG_INTEGER = /\d{16}/;

/**
 * The answer's JSON as the judges read a recording's: numbers, never a BigInt. The run's bounded
 * parser keeps an integer beyond 2^53 exact as one (which only a run of 16 digits can be): such a
 * body is read again with JSON.parse; any other takes the run's parse.
 */
function judgeableJson(response: Exchange['response'], body: RecordedBody): unknown {
  if (response?.json === undefined || !BIG_INTEGER.test(response.body)) return response?.json;
  return parseJson(body).json;
}

/**
 * An exchange clockcheck itself sent (already redacted), as `grade` judges one: its path under
 * `apiPrefix`, its operation (§4), its bodies parsed. The credential is the token in §5.2's raw form
 * (clockcheck's client sends it so). Null for an exchange outside the API prefix.
 */
export function observeExchange(exchange: Exchange, apiPrefix: string): Observed | null {
  const url = new URL(exchange.request.url);
  const prefix = apiPrefix.replace(/\/+$/, '');
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  const path = url.pathname.slice(prefix.length) || '/';
  const requestBody = exchange.request.body === undefined ? ({ known: true, text: '', bytes: 0 } as const) : sentBody(exchange.request.body);
  const request = parseJson(requestBody);
  const response = exchange.response;
  const responseBody = response === undefined || response.bodyTruncated ? ({ known: false, why: response ? 'cut at the keeping cap' : 'no response' } as const) : sentBody(response.body, response.bodyBytes);
  return {
    exchange,
    path,
    query: url.searchParams,
    operation: operationFor(exchange.request.method, path),
    requestBody,
    responseBody,
    requestJson: request.json,
    ...(request.problem === undefined ? {} : { requestJsonProblem: request.problem }),
    responseJson: judgeableJson(response, responseBody),
    credential: { form: 'raw', fingerprint: null },
    startMs: exchange.sentAtMs,
    endMs: exchange.sentAtMs + exchange.durationMs,
    ...(response === undefined ? { noResponse: exchange.error?.message ?? 'no response' } : {}),
  };
}
