import { STATUS_CODES } from 'node:http';
import type { Exchange, ExchangeRequest, ExchangeResponse, TransportError } from '../client/exchange.ts';
import { RETAINED_BODY_CHARS } from '../client/retained.ts';
import type { RunReport } from './model.ts';

/**
 * exchanges.har: a run's (or init's) exchanges as an HTTP Archive 1.2 log
 * (http://www.softwareishard.com/blog/har-12-spec/), for Chrome devtools, Charles, Insomnia and the
 * like. One entry per exchange, however many checks share it, in the order sent. Everything in it
 * comes from the exchanges as they were kept, already redacted (client/redaction.ts): the token is
 * `[REDACTED]` in every form. clockcheck's own fields start with `_`, as the spec asks.
 */
export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: 'clockcheck'; readonly version: string };
    readonly entries: readonly HarEntry[];
    readonly comment: string;
  };
}

/** A name and a value: a header, a query parameter. */
export interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

/** One exchange. `time` is the exchange's whole duration (ms), also `timings.wait`: clockcheck times an exchange from sending to the end of its body, not its phases. */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Record<string, never>;
  readonly timings: { readonly blocked: -1; readonly dns: -1; readonly connect: -1; readonly send: number; readonly wait: number; readonly receive: number; readonly ssl: -1 };
  readonly comment?: string;
  /** Ties the entry to report.json: the exchange's ID and the checks that made or share it (none for init's and a cleanup's). */
  readonly _clockcheck: {
    readonly exchangeId: number;
    readonly checkIds: readonly string[];
    /** A webhook notification the run's sink received from the target (`request` the target's POST, `response` the sink's answer). */
    readonly inbound?: true;
    /** A request of an interrupted run's cleanup (RunReport.cleanup). */
    readonly cleanup?: true;
  };
}

export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly cookies: readonly never[];
  readonly headers: readonly HarNameValue[];
  readonly queryString: readonly HarNameValue[];
  readonly postData?: { readonly mimeType: string; readonly text: string };
  readonly headersSize: -1;
  readonly bodySize: number;
  readonly comment?: string;
}

/** The response; status 0 when none came (a transport error: `_error` is its code, `comment` says more). */
export interface HarResponse {
  readonly status: number;
  /** The standard reason phrase of the status (the one received is not kept). */
  readonly statusText: string;
  readonly httpVersion: string;
  readonly cookies: readonly never[];
  readonly headers: readonly HarNameValue[];
  readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly comment?: string };
  readonly redirectURL: string;
  readonly headersSize: -1;
  readonly bodySize: number;
  readonly comment?: string;
  /** The transport error's code (as Chrome's devtools write `_error`), when the exchange had one. */
  readonly _error?: TransportError['code'];
}

/** An exchange as the HAR holds it: with the checks that share it, and whether a cleanup sent it. */
export interface HarExchange {
  readonly exchange: Exchange;
  readonly checkIds: readonly string[];
  readonly cleanup?: boolean;
}

/** What a HAR is made of. */
export interface HarInput {
  /** clockcheck's version (`log.creator.version`). */
  readonly version: string;
  /** `log.comment`: whose exchanges these are (a run's ID, init's target) and that the token is redacted. */
  readonly comment: string;
  readonly exchanges: readonly HarExchange[];
}

export interface HarOptions {
  /**
   * A second redaction (the run's `Redactor.text`) of what the HAR decodes rather than copies from an
   * exchange: the query's names and values, percent-decoded from the (redacted) URL. Absent: as decoded.
   */
  readonly redact?: (text: string) => string;
}

/** The MIME type a HAR viewer is given for a body without a Content-Type (Chrome's devtools write the same). */
const UNKNOWN_MIME = 'x-unknown';
/** The client and the sink speak HTTP/1.1 (undici's Pool, node:http). */
const HTTP_VERSION = 'HTTP/1.1';

/** The HAR of a run: every exchange of its checks and its cleanup once (shared ones merged by ID), in the order sent. */
export function harOfReport(report: RunReport, options: HarOptions = {}): Har {
  const byId = new Map<number, { exchange: Exchange; checkIds: string[]; cleanup?: boolean }>();
  for (const check of report.checks) {
    for (const exchange of check.exchanges) {
      const known = byId.get(exchange.id);
      if (known === undefined) byId.set(exchange.id, { exchange, checkIds: [check.id] });
      else if (!known.checkIds.includes(check.id)) known.checkIds.push(check.id);
    }
  }
  for (const exchange of report.cleanup?.exchanges ?? []) {
    if (!byId.has(exchange.id)) byId.set(exchange.id, { exchange, checkIds: [], cleanup: true });
  }
  const comment =
    `clockcheck run ${report.runId} of ${report.target.baseUrl}${report.target.apiPrefix}: each exchange once, in the order sent; ` +
    `_clockcheck.exchangeId and _clockcheck.checkIds tie an entry to report.json. The token is redacted ([REDACTED]). ` +
    `Each exchange is timed whole (from sending to the end of its body), as timings.wait.`;
  return harOf({ version: report.tool.version, comment, exchanges: [...byId.values()] }, options);
}

/** The HAR of these exchanges, in the order sent (by send time, then ID). */
export function harOf(input: HarInput, options: HarOptions = {}): Har {
  const ordered = [...input.exchanges].sort((a, b) => a.exchange.sentAtMs - b.exchange.sentAtMs || a.exchange.id - b.exchange.id);
  return {
    log: {
      version: '1.2',
      creator: { name: 'clockcheck', version: input.version },
      entries: ordered.map((e) => harEntry(e, options)),
      comment: input.comment,
    },
  };
}

/** The HAR as its file holds it: JSON, two-space indent, trailing newline (UTF-8 when written, as HAR requires). */
export function renderHar(har: Har): string {
  return `${JSON.stringify(har, null, 2)}\n`;
}

function harEntry({ exchange, checkIds, cleanup }: HarExchange, options: HarOptions): HarEntry {
  const inbound = exchange.direction === 'inbound';
  const time = Math.max(0, exchange.durationMs);
  return {
    startedDateTime: exchange.startedAt,
    time,
    request: harRequest(exchange.request, options),
    response: exchange.response === undefined ? noResponse(exchange.error) : harResponse(exchange.response, exchange.error),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: time, receive: 0, ssl: -1 },
    ...(inbound ? { comment: "received: a webhook notification the target sent to the run's sink, and the sink's answer" } : {}),
    _clockcheck: { exchangeId: exchange.id, checkIds: [...checkIds], ...(inbound ? { inbound: true } : {}), ...(cleanup ? { cleanup: true } : {}) },
  };
}

function harRequest(request: ExchangeRequest, options: HarOptions): HarRequest {
  const { body } = request;
  // A kept request body is cut at RETAINED_BODY_CHARS without a mark: one that long may have been longer.
  const maybeCut = body !== undefined && body.length >= RETAINED_BODY_CHARS;
  return {
    method: request.method,
    url: request.url,
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(request.headers),
    queryString: queryString(request.url, options.redact ?? ((text) => text)),
    ...(body === undefined ? {} : { postData: { mimeType: request.headers['content-type'] ?? UNKNOWN_MIME, text: body } }),
    headersSize: -1,
    bodySize: body === undefined ? 0 : (declaredLength(request.headers) ?? Buffer.byteLength(body)),
    ...(maybeCut ? { comment: `postData.text holds the first ${RETAINED_BODY_CHARS} characters of the body kept` } : {}),
  };
}

function harResponse(response: ExchangeResponse, error: TransportError | undefined): HarResponse {
  const location = response.headers.location;
  const truncated = response.bodyTruncated ? `truncated: text holds the first ${response.body.length} characters of the body (${response.bodyBytes} bytes received)` : undefined;
  return {
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(response.headers),
    content: { size: response.bodyBytes, mimeType: response.headers['content-type'] ?? UNKNOWN_MIME, text: response.body, ...(truncated ? { comment: truncated } : {}) },
    redirectURL: response.status >= 300 && response.status < 400 && location !== undefined ? location : '',
    headersSize: -1,
    bodySize: response.bodyBytes,
    ...(error === undefined ? {} : { comment: `the body did not complete: ${error.code}: ${error.message}`, _error: error.code }),
  };
}

/** The response of an exchange none came back for: status 0, the transport error's code in `_error`. */
function noResponse(error: TransportError | undefined): HarResponse {
  const code = error?.code ?? 'OTHER';
  return {
    status: 0,
    statusText: '',
    httpVersion: '',
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: UNKNOWN_MIME },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    comment: `no response: ${code}${error ? `: ${error.message}` : ''}`,
    _error: code,
  };
}

function nameValues(headers: Readonly<Record<string, string>>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** The URL's query, parsed as a browser would (percent- and `+`-decoded), each name and value through `redact`. */
function queryString(url: string, redact: (text: string) => string): HarNameValue[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  return [...parsed.searchParams].map(([name, value]) => ({ name: redact(name), value: redact(value) }));
}

/** The request's Content-Length, when it states one. */
function declaredLength(headers: Readonly<Record<string, string>>): number | undefined {
  const declared = Number(headers['content-length']);
  return headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
}
