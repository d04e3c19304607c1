import { buildConnector, Pool } from 'undici';
import { CertificatePin } from '../tls/certificate-pin.ts';
import { MAX_HEADER_BYTES } from './connection-bounds.ts';
import { ClockcheckError, InternalError } from '../errors.ts';
import type { Exchange, HttpMethod, ExchangeRequest } from './exchange.ts';
import type { Pacer } from './pacer.ts';
import { Redactor } from './redaction.ts';
import { withLazyJson } from './with-lazy-json.ts';
import { jsonText } from '../contract/json-text.ts';
import { peerFingerprint } from './_internals/peer-fingerprint.ts';
import { httpsOrigin } from './_internals/https-origin.ts';
import { pinnedConnector } from './_internals/pinned-connector.ts';
import { requestUrl } from './_internals/request-url.ts';
import { unsendablePart } from './_internals/unsendable-part.ts';
import { performExchange, type ExchangeBounds } from './_internals/perform-exchange.ts';

/** Response bytes kept in an exchange by default: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Response bytes after which reading stops and the connection is aborted by default: 8 MiB. */
export const DEFAULT_ABORT_RESPONSE_BYTES = 8 * 1024 * 1024;
/** The whole of one exchange (response head and whole body) by default: 30 s. */
export const DEFAULT_EXCHANGE_TIMEOUT_MS = 30_000;

/** Resolved options of a TargetClient (the profile layer fills in the defaults). */
export interface TargetClientOptions {
  /** `https://host[:port]`: the spec's `{base_url}` (§1). Only HTTPS is accepted. */
  readonly origin: string;
  /** Prefix of the documented operations, `/api/public` (§1). */
  readonly apiPrefix: string;
  /** The access token, sent raw as `Authorization: <token>` (§5.2); redacted from every exchange. */
  readonly token: string;
  /** Other secrets redacted from every exchange like the token (the webhook subscription's secret). */
  readonly secrets?: readonly string[];
  /** A second company's administrator token (the profile's `second_company`), sent by requests with `auth: 'second-token'`; redacted and looked for in answers like the token. */
  readonly secondToken?: string;
  /**
   * `caPem` replaces the system trust store (like `curl --cacert`); `insecure` skips certificate
   * verification altogether and wins over `caPem`.
   */
  readonly tls: { readonly caPem?: string; readonly insecure: boolean; readonly pin?: CertificatePin };
  /**
   * In ms. `connectMs`: TCP connect plus TLS handshake. `headersMs`: from sending to the complete
   * response head. `bodyMs`: the longest silence between two body chunks (not the whole body).
   * `exchangeMs`: the whole exchange, from sending to the end of the body (default
   * DEFAULT_EXCHANGE_TIMEOUT_MS), so a body that trickles a byte a second still ends.
   * undici checks timeouts above 1 s on a ~0.5 s tick, and the connect and headers timeouts always,
   * so a timeout may fire up to ~1 s late.
   */
  readonly timeouts: { readonly connectMs: number; readonly headersMs: number; readonly bodyMs: number; readonly exchangeMs?: number };
  /** Response body bytes kept in an exchange; longer bodies are cut (`bodyTruncated`, no `json`). */
  readonly maxResponseBytes: number;
  /**
   * Past this many response bytes the client stops reading, aborts the connection and reports
   * `RESPONSE_TOO_LARGE`. Default `max(DEFAULT_ABORT_RESPONSE_BYTES, maxResponseBytes)`.
   */
  readonly abortResponseBytes?: number;
  readonly userAgent: string;
  /** Accept an `http://` origin (`clockcheck run --allow-http`, for development servers); default false. */
  readonly allowPlainHttp?: boolean;
  /** Keep-alive connections to the target at most; default 8. */
  readonly connections?: number;
  /** Paces every send (see Pacer); default: no pacing. Told whose token the send carries (a second company's may have a window of its own). */
  readonly pacer?: { acquire(auth?: RequestAuth): ReturnType<Pacer['acquire']> };
  /** Receives every exchange, already redacted, before `send` returns it. */
  readonly onExchange?: (exchange: Exchange) => void;
}

/**
 * Who signs a request. `token` (default): the token in the form the target accepts (the client's
 * `scheme`, §5.2's raw form unless the preflight found only `Bearer` accepted); `raw-token`: the
 * token exactly as §5.2 sends it, whatever the scheme; `bearer-token`: `Bearer <token>`; `none`: no
 * Authorization header; `{raw}`: this exact value (e.g. a wrong token).
 */
export type RequestAuth = 'token' | 'second-token' | 'raw-token' | 'bearer-token' | 'none' | { readonly raw: string };

/** How the token is written in `Authorization`: as §5.2 says (`raw`), or behind a `Bearer` scheme. */
export type TokenScheme = 'raw' | 'bearer';

interface RequestParts {
  readonly method: HttpMethod;
  /** Appended to the URL as `name=value`, percent-encoded; after any query string already in the path. */
  readonly query?: Readonly<Record<string, string | number>>;
  /** Extra headers; they win over the client's own (names are lower-cased). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (serialized as JSON.stringify does; a BigInt, an ID beyond 2^53, as its bare digits). */
  readonly json?: unknown;
  /** A body sent as it is (e.g. malformed JSON); not together with `json`. */
  readonly rawBody?: string;
  readonly auth?: RequestAuth;
}

/**
 * One request to the target: `path` is relative to origin + apiPrefix (`/users?page=2`), or `url` is an
 * absolute URL on the target's origin (e.g. a pagination link).
 */
export type TargetRequest = RequestParts &
  ({ readonly path: string; readonly url?: undefined } | { readonly url: string; readonly path?: undefined });

/**
 * The harness's HTTP client: one undici Pool (keep-alive connections) to one target. Each `send` is paced
 * (when a Pacer is given), timed, read with a size cap, redacted and handed to `onExchange`.
 *
 * It never throws for the target's behaviour: timeouts, resets, refusals, TLS failures and oversize
 * bodies come back as an exchange with `error`; a body that is not JSON gives `response.json`
 * undefined. When the failure came after the response head (a body timeout, a reset mid-body, an
 * oversize body) the exchange has both `error` and a `response` with the part received
 * (`bodyTruncated: true`). It throws ClockcheckError only for misuse.
 */
export class TargetClient {
  /** The normalized origin, e.g. `https://127.0.0.1:8443`. */
  readonly origin: string;
  readonly #options: TargetClientOptions;
  readonly #prefix: string;
  readonly #pool: Pool;
  readonly #redactor: Redactor;
  readonly #bounds: ExchangeBounds;
  #sequence = 0;
  #closed = false;
  #scheme: TokenScheme = 'raw';
  /** Under `insecure`: the certificate first seen, which every later connection must present (shared with the run's bursts). */
  readonly certificatePin: CertificatePin | null;

  /** @throws ClockcheckError `CLOCKCHECK_INVALID_OPTION` for a non-HTTPS origin, an empty token or bad limits. */
  constructor(options: TargetClientOptions) {
    this.origin = httpsOrigin(options.origin, options.allowPlainHttp ?? false);
    if (!(Number.isInteger(options.maxResponseBytes) && options.maxResponseBytes >= 0)) {
      throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'maxResponseBytes must be a non-negative integer');
    }
    this.#options = options;
    this.#prefix = options.apiPrefix.replace(/\/+$/, '');
    const second = options.secondToken === undefined ? [] : [{ value: options.secondToken, name: "the second company's token" }];
    this.#redactor = new Redactor(options.token, [...(options.secrets ?? []), ...second.map((t) => t.value)], [{ value: options.token, name: 'the token' }, ...second]);
    this.#bounds = {
      origin: this.origin,
      redactor: this.#redactor,
      exchangeMs: options.timeouts.exchangeMs ?? DEFAULT_EXCHANGE_TIMEOUT_MS,
      keepBytes: options.maxResponseBytes,
      abortBytes: Math.max(options.abortResponseBytes ?? DEFAULT_ABORT_RESPONSE_BYTES, options.maxResponseBytes),
    };
    const { connectMs, headersMs, bodyMs } = options.timeouts;
    // A Pool, not an Agent: the client talks to one origin, and undici 7's Agent closes an origin's
    // whole pool when its connected count reaches 0, where a closing pool's late disconnects count
    // against its successor: on a run against the reference server, 274 TLS handshakes for 1004
    // requests, most connections carrying one request (a HEAD, which undici never reuses, started it).
    this.certificatePin = options.tls.insecure && this.origin.startsWith('https:') ? (options.tls.pin ?? new CertificatePin()) : null;
    this.#pool = new Pool(this.origin, {
      connections: options.connections ?? 8,
      headersTimeout: headersMs,
      bodyTimeout: bodyMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      connect: pinnedConnector(
        buildConnector({
          timeout: connectMs,
          rejectUnauthorized: !options.tls.insecure,
          ...(options.tls.caPem === undefined ? {} : { ca: options.tls.caPem }),
          // A resumed TLS session shows no certificate to check against the pin: every connection does a full handshake.
          ...(this.certificatePin ? { maxCachedSessions: 0 } : {}),
        }),
        this.certificatePin,
      ),
    });
  }

  /** How `auth: 'token'` writes the token (default `raw`, §5.2). */
  get scheme(): TokenScheme {
    return this.#scheme;
  }

  /** Sends `auth: 'token'` requests with the token written as `scheme` from now on. */
  useScheme(scheme: TokenScheme): void {
    this.#scheme = scheme;
  }

  /** The Authorization value of the token in `scheme` (for senders outside this client, e.g. bursts). */
  authorization(scheme: TokenScheme = this.#scheme, token: string = this.#options.token): string {
    return scheme === 'bearer' ? `Bearer ${token}` : token;
  }

  /** The second company's token, for a request that names it. @throws InternalError when the client has none. */
  #secondToken(): string {
    if (this.#options.secondToken === undefined) throw new InternalError("a request asked for the second company's token, and the client has none: the plan runs the isolation checks only with second_company");
    return this.#options.secondToken;
  }

  /** The redactor of this client's token, for redacting anything else that goes into a report. */
  get redactor(): Redactor {
    return this.#redactor;
  }

  /**
   * Takes `count` exchange sequence numbers for exchanges kept elsewhere (autocannon bursts), so
   * numbers stay unique within the run. Returns the first; the block is [first, first + count).
   */
  reserveExchangeIds(count: number): number {
    const first = this.#sequence + 1;
    this.#sequence += Math.max(0, count);
    return first;
  }

  /** Whether an absolute URL is on the target's origin (so `send({ url })` accepts it). */
  isSameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }

  /**
   * Sends one request and keeps it as an exchange (see the class doc for errors). `sentAtMs` is
   * taken after the pacer let the request go; `durationMs` runs from then to the end of the body.
   * @throws ClockcheckError `CLOCKCHECK_FOREIGN_URL` for a URL off the target's origin,
   *   `CLOCKCHECK_INVALID_REQUEST` for a request undici cannot send, `CLOCKCHECK_CLIENT_CLOSED` after close().
   */
  async send(request: TargetRequest): Promise<Exchange> {
    if (this.#closed) throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'send() after close()');
    const prepared = this.#prepare(request);
    const unsendable = unsendablePart(prepared, this.origin.length);
    if (unsendable !== null) {
      // Refused here, before the pacer and the pool: undici 7 refuses such a request too, but its pool
      // (one connection) then leaves the next request pending forever, even past its abort.
      throw new ClockcheckError('CLOCKCHECK_TARGET_DATA', `a request built from the target's data cannot be sent: ${prepared.method} ${JSON.stringify(this.#redactor.text(prepared.url.slice(this.origin.length)))} holds ${this.#redactor.text(unsendable)}, which a request cannot carry (CR, LF, NUL, a space or beyond Latin-1 in the path; a control character in a header)`);
    }
    const paced = await this.#options.pacer?.acquire(request.auth);
    let raw: Exchange;
    try {
      raw = await performExchange(this.#pool, prepared, ++this.#sequence, this.#bounds);
    } finally {
      paced?.done(); // the target counted the call by now: the pacer's window runs from here
    }
    const redacted = withLazyJson(this.#redactor.exchange(raw), this.#redactor);
    const exchange: Exchange = request.auth === 'second-token' ? { ...redacted, company: 'second' } : redacted;
    this.#options.onExchange?.(exchange);
    return exchange;
  }

  /**
   * The SHA-256 fingerprint (`AA:BB:…`, as `X509Certificate.fingerprint256`) of the certificate the
   * target presents, checked with the same trust options as requests; null when no handshake completes.
   */
  tlsFingerprint(): Promise<string | null> {
    const { hostname, port } = new URL(this.origin);
    const { caPem, insecure } = this.#options.tls;
    return peerFingerprint({
      host: hostname.replace(/^\[(.*)\]$/, '$1'),
      port: port === '' ? 443 : Number(port),
      ...(caPem === undefined ? {} : { ca: caPem }),
      rejectUnauthorized: !insecure,
      timeoutMs: this.#options.timeouts.connectMs,
    });
  }

  /** Closes the pool after the requests in flight; `send` throws afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }

  /** Closes the pool at once: requests in flight fail (`CLOCKCHECK_CLIENT_CLOSED`-like transport errors); `send` throws afterwards. */
  async destroy(): Promise<void> {
    this.#closed = true;
    await this.#pool.destroy();
  }

  /** The request as it will go on the wire (and be kept, after redaction). */
  #prepare(request: TargetRequest): ExchangeRequest {
    if (request.json !== undefined && request.rawBody !== undefined) {
      throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'give json or rawBody, not both');
    }
    const body = request.rawBody ?? (request.json === undefined ? undefined : jsonText(request.json));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#options.userAgent };
    const auth = request.auth ?? 'token';
    if (auth === 'token') headers.authorization = this.authorization();
    else if (auth === 'second-token') headers.authorization = this.authorization(this.#scheme, this.#secondToken());
    else if (auth === 'raw-token') headers.authorization = this.authorization('raw');
    else if (auth === 'bearer-token') headers.authorization = this.authorization('bearer');
    else if (auth !== 'none') headers.authorization = auth.raw;
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    return {
      method: request.method,
      url: requestUrl(this.origin, this.#prefix, request, this.#redactor),
      headers,
      ...(body === undefined ? {} : { body }),
    };
  }
}
