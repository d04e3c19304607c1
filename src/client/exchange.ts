/**
 * One request/response pair as clockcheck keeps it. Exchanges are redacted as they are kept: the
 * token never appears in one (see redaction.ts), so they can go into reports as they are.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

export interface ExchangeRequest {
  readonly method: HttpMethod;
  /** Absolute URL, redacted. */
  readonly url: string;
  /** Header names lower-cased; values redacted (Authorization becomes `[REDACTED]`, or `Bearer [REDACTED]` when the token went with a scheme). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent (text), redacted; undefined when none was sent. */
  readonly body?: string;
}

export interface ExchangeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text, redacted, cut at the keeping cap (see `bodyTruncated`). */
  readonly body: string;
  /** Bytes received (may exceed what was kept). */
  readonly bodyBytes: number;
  readonly bodyTruncated: boolean;
  /**
   * The parsed JSON body, when the body parsed as JSON within the bounds and was not truncated by
   * the size cap. Parsed on first read and kept only as long as the exchange a check holds; the
   * exchanges a report keeps (see retained.ts) carry the body text alone.
   */
  readonly json?: unknown;
  /** Why a complete body was not parsed although it may be JSON: over the bounds of bounded-json.ts (e.g. "nested deeper than 64 levels"). A JSON-RESPONSE finding where a check needs the body. */
  readonly jsonProblem?: string;
}

/** Why no (complete) response came back. */
export type TransportErrorCode =
  | 'CONNECT_TIMEOUT'
  | 'HEADERS_TIMEOUT'
  | 'BODY_TIMEOUT'
  /** The exchange's overall deadline (headers and whole body, `timeouts.exchange`) passed. */
  | 'EXCHANGE_TIMEOUT'
  | 'CONNECTION_RESET'
  | 'CONNECTION_REFUSED'
  | 'TLS_ERROR'
  | 'RESPONSE_TOO_LARGE'
  | 'OTHER';

export interface TransportError {
  readonly code: TransportErrorCode;
  /** Redacted message. */
  readonly message: string;
}

/**
 * A place where the target's answer carried a token, found before redaction: `header <name>`, a JSON
 * pointer into the body (`body /error/headers/authorization`), or `body` when the body is no JSON.
 * For an inbound exchange (a webhook notification) the place is in the target's request.
 */
export interface TokenSighting {
  /** The token's name (NamedToken.name). */
  readonly token: string;
  readonly where: string;
}

export interface Exchange {
  /** Sequence number within the run, from 1. */
  readonly id: number;
  /**
   * `inbound`: an exchange clockcheck received rather than sent, a webhook notification the run's
   * sink got from the target (`request` the target's POST, `response` the sink's answer). Absent:
   * a request clockcheck sent to the target.
   */
  readonly direction?: 'inbound';
  /** When the request was sent (ISO 8601, UTC, ms). */
  readonly startedAt: string;
  /** Epoch ms of sending, for rate-window accounting. */
  readonly sentAtMs: number;
  readonly durationMs: number;
  readonly request: ExchangeRequest;
  /** Absent when no response head arrived (then `error` is set). With both `response` and `error`, the head arrived but the body did not complete (a reset, a stall, an oversize body). */
  readonly response?: ExchangeResponse;
  readonly error?: TransportError;
  /**
   * Where the target's side (its answer; for an inbound exchange, its request) carried one of the
   * run's tokens before redaction (Redactor.tokenSightings): judged by SEC-TOKEN-NOT-RETURNED. Not
   * kept in reports: the finding says where.
   */
  readonly tokensShown?: readonly TokenSighting[];
  /** `second`: sent with the second company's token (the isolation checks); absent: the run's own token, or none. */
  readonly company?: 'second';
}
