import net from 'node:net';
import tls from 'node:tls';
import { transportFailure } from '../../client/transport-error.ts';
import type { TransportErrorCode } from '../../client/exchange.ts';
import { boundBroken, MAX_HEADER_BYTES, MAX_HEADER_COUNT, MAX_INTERIM_RESPONSES } from '../../client/connection-bounds.ts';
import type { CertificatePin } from '../../tls/certificate-pin.ts';

/** http-parser-js's callback slots (HTTPParser.kOnHeadersComplete, kOnBody, kOnMessageComplete). */
const ON_HEADERS_COMPLETE = 2;
const ON_BODY = 3;
const ON_MESSAGE_COMPLETE = 4;

/** The head http-parser-js hands its callback (autocannon's `headers` event). */
interface ParsedHead {
  statusCode: number;
  headers: string[];
}

/** autocannon's parser (http-parser-js 0.5), as far as the guard uses it. */
interface ResponseParser {
  execute(chunk: Buffer): number | Error;
  reinitialize(type: unknown): void;
  type: unknown;
  maxHeaderSize: number;
  [ON_HEADERS_COMPLETE]: (head: ParsedHead) => unknown;
  [ON_BODY]: (body: Buffer, start: number, length: number) => void;
  [ON_MESSAGE_COMPLETE]: () => void;
}

/** The minimal view of autocannon's per-connection client that this module relies on (autocannon 9). */
export interface AutocannonClient {
  on(event: 'request', listener: () => void): void;
  on(event: 'headers', listener: (head: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'body', listener: (chunk: Buffer) => void): void;
  on(event: 'response', listener: () => void): void;
  on(event: 'connError' | 'timeout', listener: (error?: Error) => void): void;
  emit(event: string, ...args: unknown[]): void;
  secure: boolean;
  opts: { hostname: string; port: number; servername?: string; tlsOptions: tls.ConnectionOptions; pipelining: number };
  conn: net.Socket;
  parser: ResponseParser;
  /** Its queue of requests in flight; `addBody` appends a response's body text (lib/pipelinedRequestsQueue.js). */
  pipelinedRequests: { addBody(data: Buffer): void; addByteCount(n: number): void };
  _connect(): void;
  _doRequest(): void;
  _destroyConnection(): void;
  /** Ends the client for good: no reconnect, its timeout timer cleared, `done` emitted. */
  destroy(): void;
  destroyed: boolean;
}

/** Why a connection's answer was cut off: the code an exchange would carry, and the words. */
export interface ConnectionFailure {
  readonly code: TransportErrorCode;
  readonly message: string;
}

/** The harness's trust and bounds for autocannon's connections. */
export interface ConnectionGuard {
  /** Skip certificate verification (`--insecure`); then `pin` holds the run to the first certificate seen. */
  readonly insecure: boolean;
  readonly pin: CertificatePin | null;
  /** Body bytes of one response beyond which the connection is cut. */
  readonly maxBodyBytes: number;
  /** A TLS failure (the certificate does not verify or is not the pinned one): nothing was sent on that connection. */
  readonly onTlsFailure: (failure: ConnectionFailure) => void;
  /** An answer broke a bound (head size or count, interim flood, body size, not HTTP): the connection was cut. */
  readonly onBoundBroken: (failure: ConnectionFailure) => void;
}

/**
 * Replaces a client's connect with one that holds the target to the harness's trust and bounds.
 *
 * Trust: autocannon 9 connects with `rejectUnauthorized: false` whatever `tlsOptions` say. Here the
 * connection verifies as the harness's own client does (the CA or the system store), under
 * `--insecure` checks the pinned certificate, and writes no request before the handshake is done
 * and checked, so the token only ever goes to the verified server.
 *
 * Bounds: autocannon ignores what its parser reports (a head over the parser's limit, a negative
 * `Content-Length`, bytes that are not HTTP) and keeps feeding it: one burst against a target of
 * endless headers took 2.8 GB. Here every parser error, a head over MAX_HEADER_BYTES or
 * MAX_HEADER_COUNT lines, more than MAX_INTERIM_RESPONSES 1xx before a final answer, and a body over
 * `maxBodyBytes` cuts the connection (autocannon counts the call as a connection error and opens a
 * new one). Interim responses are not answers: autocannon would pair a `100 Continue` with the call.
 */
export function guardConnection(client: AutocannonClient, guard: ConnectionGuard): void {
  client.parser.maxHeaderSize = MAX_HEADER_BYTES;
  const broken = watchParser(client, guard);
  client._connect = function connect(this: AutocannonClient) {
    broken.begin();
    this.parser.reinitialize(this.parser.type); // a cut connection leaves the parser mid-message
    const conn = this.secure ? secureSocket(this, guard) : net.connect(this.opts.port, this.opts.hostname);
    this.conn = conn;
    conn.on('error', (error: Error) => {
      const failure = transportFailure(error);
      if (failure.code === 'TLS_ERROR') return guard.onTlsFailure(failure);
      this.emit('connError', error);
      if (!this.destroyed) this._connect();
    });
    conn.on('data', (chunk: Buffer) => {
      this.pipelinedRequests.addByteCount(chunk.length);
      const parsed = this.parser.execute(chunk);
      const failure = broken.take() ?? (parsed instanceof Error ? parseFailure(parsed) : null);
      if (failure) cut(this, failure, guard);
    });
    conn.on('end', () => {
      if (!this.destroyed) this._connect();
    });
    const start = () => {
      for (let i = 0; i < this.opts.pipelining; i++) this._doRequest();
    };
    if (!this.secure) return start();
    conn.once('secureConnect', () => {
      const refused = guard.insecure && guard.pin ? guard.pin.check((conn as tls.TLSSocket).getPeerX509Certificate()?.fingerprint256) : null;
      if (refused !== null) {
        conn.destroy();
        return guard.onTlsFailure({ code: 'TLS_ERROR', message: refused });
      }
      start();
    });
  };
}

/**
 * A head no answer may have: more than MAX_HEADER_COUNT lines, or a `Content-Length` that is not a
 * number of bytes (RFC 9110 §8.6: `-1`, `1e3`, two that differ), which http-parser-js takes as it
 * comes (a negative length ends the body at once, and the bytes after it become the next "answer").
 */
function headViolation(head: ParsedHead): ConnectionFailure | null {
  if (head.headers.length / 2 > MAX_HEADER_COUNT) return { code: 'RESPONSE_TOO_LARGE', message: boundBroken('header-count', MAX_HEADER_COUNT) };
  const lengths = new Set<string>();
  for (let i = 0; i + 1 < head.headers.length; i += 2) {
    if (head.headers[i]!.toLowerCase() === 'content-length') for (const part of head.headers[i + 1]!.split(',')) lengths.add(part.trim());
  }
  const [length, ...others] = lengths;
  if (length === undefined) return null;
  if (others.length === 0 && /^\d{1,15}$/.test(length)) return null;
  return { code: 'OTHER', message: `the answer's Content-Length is not one number of bytes: ${JSON.stringify([...lengths].join(', ').slice(0, 40))}` };
}

/** What the parser's error says, as a failure: its own head-size limit (MAX_HEADER_BYTES), or an answer that is not HTTP/1.1. */
function parseFailure(error: Error): ConnectionFailure {
  if (error.message === 'max header size exceeded') return { code: 'RESPONSE_TOO_LARGE', message: boundBroken('header-bytes', MAX_HEADER_BYTES) };
  const code = (error as { code?: unknown }).code;
  return { code: 'OTHER', message: `the answer is not HTTP/1.1 (${typeof code === 'string' ? code : error.message})` };
}

function secureSocket(client: AutocannonClient, guard: ConnectionGuard): tls.TLSSocket {
  const servername = client.opts.servername ?? (net.isIP(client.opts.hostname) ? undefined : client.opts.hostname);
  return tls.connect(client.opts.port, client.opts.hostname, {
    ...client.opts.tlsOptions,
    rejectUnauthorized: !guard.insecure,
    ...(servername === undefined ? {} : { servername }),
  });
}

/** Cuts the connection of a broken bound: the call is counted as a connection error, and autocannon sends afresh on a new one. */
function cut(client: AutocannonClient, failure: ConnectionFailure, guard: ConnectionGuard): void {
  client._destroyConnection();
  guard.onBoundBroken(failure);
  client.emit('connError', new Error(failure.message)); // counted by autocannon as a connection error; the failure itself went to onBoundBroken
  if (!client.destroyed) client._connect();
}

/**
 * Wraps the parser's callbacks (assigned by autocannon after `setupClient`, so wrapped at the first
 * connect) to count header lines, interim responses and body bytes; a broken bound is held for the
 * data handler to act on once the parser returns.
 */
function watchParser(client: AutocannonClient, guard: ConnectionGuard): { begin(): void; take(): ConnectionFailure | null } {
  let wrapped = false;
  let pending: ConnectionFailure | null = null;
  let interim = 0;
  let bodyBytes = 0;
  let inInterim = false;
  const wrap = () => {
    const parser = client.parser;
    const onHead = parser[ON_HEADERS_COMPLETE];
    const onBody = parser[ON_BODY];
    const onDone = parser[ON_MESSAGE_COMPLETE];
    parser[ON_HEADERS_COMPLETE] = (head) => {
      bodyBytes = 0;
      const violation = headViolation(head);
      if (violation !== null) {
        pending ??= violation;
        return 1; // not handed on: the connection is cut once the parser returns
      }
      inInterim = head.statusCode >= 100 && head.statusCode < 200 && head.statusCode !== 101;
      if (!inInterim) return onHead(head);
      if (++interim > MAX_INTERIM_RESPONSES) pending ??= { code: 'OTHER', message: boundBroken('interim', MAX_INTERIM_RESPONSES) };
      return 1; // an interim response has no body: the parser reads the next head
    };
    parser[ON_BODY] = (body, start, length) => {
      bodyBytes += length;
      if (bodyBytes > guard.maxBodyBytes) pending ??= { code: 'RESPONSE_TOO_LARGE', message: boundBroken('body-bytes', guard.maxBodyBytes) };
      else onBody(body, start, length);
    };
    parser[ON_MESSAGE_COMPLETE] = () => {
      if (inInterim) {
        inInterim = false;
        return;
      }
      interim = 0;
      if (pending === null) onDone();
    };
  };
  return {
    /** At each connect: wraps the callbacks the first time, and starts the counts afresh. */
    begin() {
      if (!wrapped) wrap();
      wrapped = true;
      pending = null;
      interim = 0;
      bodyBytes = 0;
      inInterim = false;
    },
    take() {
      const failure = pending;
      pending = null;
      if (failure) interim = 0;
      return failure;
    },
  };
}

/**
 * autocannon 9 appends every body chunk of every response to a string (`req.body += data`, for its
 * `expectBody`/`verifyBody` options, which the harness does not use): a burst of 600 responses of
 * 1 MB held 600 MB of strings until the next full collection. The harness reads bodies itself (the
 * 'body' event, capped), so this makes that append a no-op.
 */
export function keepNoBodyText(client: AutocannonClient): void {
  client.pipelinedRequests.addBody = () => {};
}
