import net from 'node:net';
import tls from 'node:tls';
import { StringDecoder } from 'node:string_decoder';
import autocannon from 'autocannon';
import { ClockcheckError } from '../errors.ts';
import type { Exchange, HttpMethod } from '../client/exchange.ts';
import { Redactor } from '../client/redaction.ts';
import { withLazyJson } from '../client/client.ts';
import { transportFailure } from '../client/transport-error.ts';
import { LARGE_BODIES, LARGE_BODY_BYTES } from '../client/large-body-collector.ts';

/** One request autocannon sends; the list is cycled, each connection starting at the first. */
export interface LoadRequest {
  readonly method: HttpMethod;
  /** Relative to origin + apiPrefix, with any query string: `/users?page_size=101`. */
  readonly path: string;
}

export interface AutocannonRunOptions {
  /** `https://host[:port]` (or `http://` for development servers). */
  readonly origin: string;
  readonly apiPrefix: string;
  /** The access token, redacted from every kept exchange; sent raw as `Authorization` (§5.2) unless `authorization` is given. */
  readonly token: string;
  /** Other secrets redacted like the token (a run's webhook secret). */
  readonly secrets?: readonly string[];
  /** The `Authorization` value to send (e.g. `Bearer <token>` when the run's preflight found only that accepted); default the raw token. */
  readonly authorization?: string;
  /** The same trust as the harness's own client: `caPem` replaces the system store; `insecure` skips verification. */
  readonly tls: { readonly caPem?: string; readonly insecure: boolean };
  readonly requests: readonly LoadRequest[];
  readonly connections: number;
  /** Stop after this many responses in all (a burst). Give `amount` or `durationSeconds`. */
  readonly amount?: number;
  readonly durationSeconds?: number;
  /**
   * Stops the run after this many seconds whatever else it waits for: a hard cap, e.g. for an
   * `amount` run against a target that stopped answering (autocannon sets no timer for `amount`).
   */
  readonly maxDurationSeconds?: number;
  /** Called with each response's status and latency (ms), whether exchanges are kept or not. */
  readonly onResponse?: (status: number, latencyMs: number) => void;
  /** Requests per second over all connections (autocannon's `overallRate`); default unlimited. */
  readonly overallRate?: number;
  /** Keep every call as a redacted Exchange (bursts); `false` keeps only counts (long load runs). */
  readonly keepExchanges: boolean;
  /** Response body bytes kept per kept exchange; default 64 KiB. */
  readonly maxBodyBytes?: number;
  /**
   * Count each large body toward a full collection as it arrives (LARGE_BODIES), for a burst judged on
   * its bodies, not its timing; default false: counted once the run is over, so no collection pauses
   * a burst whose timing is judged.
   */
  readonly collectWhileRunning?: boolean;
  /** Seconds without a response before autocannon counts a timeout; default 10. */
  readonly timeoutSeconds?: number;
  readonly userAgent: string;
  /**
   * How often autocannon samples throughput and checks whether to stop, in ms (autocannon's
   * `sampleInt`); default 1000. A burst sets it low so the run ends right after its last response.
   */
  readonly sampleIntervalMs?: number;
  /** Sequence numbers of kept exchanges start after this (so they continue a run's numbering). */
  readonly firstExchangeId?: number;
}

/** What one autocannon run observed. */
export interface AutocannonRun {
  readonly result: autocannon.Result;
  /** Every call, in the order the responses arrived, when `keepExchanges` was set; else empty. */
  readonly exchanges: readonly Exchange[];
  /** Calls sent that got no response (connection errors, timeouts, the run ending first). */
  readonly unanswered: number;
  /** Whether `maxDurationSeconds` ended the run. */
  readonly cappedByDuration: boolean;
  /** Epoch ms when the first request was written and the last response completed. */
  readonly firstSentAtMs: number | null;
  readonly lastReceivedAtMs: number | null;
}

/** The minimal view of autocannon's per-connection client that this module relies on (autocannon 9). */
interface AutocannonClient {
  on(event: 'request', listener: () => void): void;
  on(event: 'headers', listener: (head: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'body', listener: (chunk: Buffer) => void): void;
  on(event: 'response', listener: () => void): void;
  on(event: 'connError' | 'timeout', listener: (error?: Error) => void): void;
  secure: boolean;
  opts: { hostname: string; port: number; servername?: string; tlsOptions: tls.ConnectionOptions };
  conn: net.Socket;
  /** Its queue of requests in flight; `addBody` appends a response's body text (lib/pipelinedRequestsQueue.js). */
  pipelinedRequests: { addBody(data: Buffer): void };
  _connect(): void;
  destroyed: boolean;
}

interface PendingCall {
  readonly requestIndex: number;
  readonly sentAtMs: number;
  readonly startedPerf: number;
  status?: number;
  headers?: Record<string, string>;
  /** The kept part of the body, decoded as it arrives (no buffer per body: see bounded-body.ts). */
  body: string[];
  decoder: StringDecoder;
  bodyBytes: number;
}

/**
 * autocannon 9 connects with `rejectUnauthorized: false` whatever `tlsOptions` say, and writes the
 * request (with the token) before the handshake completes. This replaces a client's connect with the
 * same connect but the harness's own trust, so the token only ever goes to a verified server. Without
 * it an admin token could be handed to anyone in the path.
 */
function verifyingConnect(client: AutocannonClient, insecure: boolean, onTlsFailure: (error: Error) => void): void {
  const plainConnect = client._connect.bind(client);
  client._connect = function connect(this: AutocannonClient) {
    if (!this.secure) return plainConnect();
    const servername = this.opts.servername ?? (net.isIP(this.opts.hostname) ? undefined : this.opts.hostname);
    const conn = tls.connect(this.opts.port, this.opts.hostname, {
      ...this.opts.tlsOptions,
      rejectUnauthorized: !insecure,
      ...(servername === undefined ? {} : { servername }),
    });
    this.conn = conn;
    // The listeners autocannon's own connect adds (lib/httpClient.js `_connect`), in the same order.
    const self = this as unknown as { emit(event: string, ...args: unknown[]): void; parser: { execute(b: Buffer): void }; pipelinedRequests: { addByteCount(n: number): void }; opts: { pipelining: number }; _doRequest(): void };
    conn.on('error', (error: Error) => {
      if (transportFailure(error).code === 'TLS_ERROR') {
        onTlsFailure(error);
        return;
      }
      self.emit('connError', error);
      if (!this.destroyed) this._connect();
    });
    conn.on('data', (chunk: Buffer) => {
      self.pipelinedRequests.addByteCount(chunk.length);
      self.parser.execute(chunk);
    });
    conn.on('end', () => {
      if (!this.destroyed) this._connect();
    });
    for (let i = 0; i < self.opts.pipelining; i++) self._doRequest();
  };
}

/**
 * autocannon 9 appends every body chunk of every response to a string (`req.body += data`, for its
 * `expectBody`/`verifyBody` options, which the harness does not use): a burst of 600 responses of
 * 1 MB held 600 MB of strings until the next full collection. The harness reads bodies itself (the
 * 'body' event, capped), so this makes that append a no-op.
 */
function keepNoBodyText(client: AutocannonClient): void {
  client.pipelinedRequests.addBody = () => {};
}

function headerMap(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    out[name] = out[name] === undefined ? (raw[i + 1] as string) : `${out[name]}, ${raw[i + 1]}`;
  }
  return out;
}

/**
 * Drives autocannon against the target with the harness's trust, token and redaction. With `keepExchanges`
 * every call becomes a redacted Exchange with its own send time and duration (connections run one
 * request at a time, so responses pair with requests in order on each connection).
 *
 * @throws ClockcheckError `CLOCKCHECK_TARGET` when the target's certificate does not verify (nothing is sent),
 *   `CLOCKCHECK_INTERNAL` for bad options.
 */
export async function runAutocannon(options: AutocannonRunOptions): Promise<AutocannonRun> {
  if (options.requests.length === 0) throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'autocannon run without requests');
  if ((options.amount === undefined) === (options.durationSeconds === undefined)) {
    throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'give an amount or a duration, not both nor neither');
  }
  const connections = Math.max(1, Math.min(options.connections, options.amount ?? Number.POSITIVE_INFINITY));
  const redactor = new Redactor(options.token, options.secrets);
  const prefix = options.apiPrefix.replace(/\/+$/, '');
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  const requestHeaders = { accept: 'application/json', 'user-agent': options.userAgent, authorization: options.authorization ?? options.token };
  const urls = options.requests.map((r) => options.origin + prefix + (r.path.startsWith('/') ? r.path : `/${r.path}`));
  const exchanges: Exchange[] = [];
  let sequence = options.firstExchangeId ?? 0;
  let sent = 0;
  let answered = 0;
  let firstSentAtMs: number | null = null;
  let lastReceivedAtMs: number | null = null;
  let tlsFailure: Error | null = null;
  /** Bytes of the large bodies received, counted toward a full collection once the run is over (never during a burst). */
  let largeBodyBytes = 0;
  let instance: autocannon.Instance | undefined;

  const setupClient = (raw: unknown) => {
    const client = raw as AutocannonClient;
    keepNoBodyText(client);
    verifyingConnect(client, options.tls.insecure, (error) => {
      tlsFailure ??= error;
      client.destroyed = true;
      instance?.stop();
    });
    const pending: PendingCall[] = [];
    let made = 0;
    client.on('request', () => {
      const sentAtMs = Date.now();
      firstSentAtMs ??= sentAtMs;
      sent++;
      pending.push({ requestIndex: made++ % options.requests.length, sentAtMs, startedPerf: performance.now(), body: [], decoder: new StringDecoder('utf8'), bodyBytes: 0 });
    });
    if (!options.keepExchanges) {
      let status = 0;
      client.on('headers', (head) => {
        status = head.statusCode;
      });
      client.on('response', () => {
        const call = pending.shift();
        answered++;
        lastReceivedAtMs = Date.now();
        if (call) options.onResponse?.(status, performance.now() - call.startedPerf);
      });
      return;
    }
    client.on('headers', (head) => {
      const call = pending[0];
      if (call) {
        call.status = head.statusCode;
        call.headers = headerMap(head.headers);
      }
    });
    client.on('body', (chunk) => {
      const call = pending[0];
      if (!call) return;
      if (call.bodyBytes < maxBody) call.body.push(call.decoder.write(chunk.subarray(0, maxBody - call.bodyBytes)));
      call.bodyBytes += chunk.length;
    });
    client.on('response', () => {
      const call = pending.shift();
      answered++;
      lastReceivedAtMs = Date.now();
      if (!call) return;
      options.onResponse?.(call.status ?? 0, performance.now() - call.startedPerf);
      if (options.collectWhileRunning) LARGE_BODIES.note(call.bodyBytes);
      else if (call.bodyBytes >= LARGE_BODY_BYTES) largeBodyBytes += call.bodyBytes;
      const text = call.body.join('') + call.decoder.end();
      const truncated = call.bodyBytes > maxBody;
      exchanges.push(
        withLazyJson(redactor.exchange({
          id: ++sequence,
          startedAt: new Date(call.sentAtMs).toISOString(),
          sentAtMs: call.sentAtMs,
          durationMs: Math.round((performance.now() - call.startedPerf) * 1000) / 1000,
          request: { method: options.requests[call.requestIndex]!.method, url: urls[call.requestIndex]!, headers: requestHeaders },
          response: {
            status: call.status ?? 0,
            headers: call.headers ?? {},
            body: text,
            bodyBytes: call.bodyBytes,
            bodyTruncated: truncated,
          },
        }), redactor),
      );
    });
    // A lost connection drops what was in flight on it; autocannon sends afresh on the new one.
    const drop = () => {
      pending.length = 0;
    };
    client.on('connError', drop);
    client.on('timeout', drop);
  };

  let cappedByDuration = false;
  const cap =
    options.maxDurationSeconds === undefined
      ? undefined
      : setTimeout(() => {
          cappedByDuration = true;
          instance?.stop();
        }, options.maxDurationSeconds * 1000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: urls[0]!,
        requests: options.requests.map((r, i) => ({ method: r.method, path: new URL(urls[i]!).pathname + new URL(urls[i]!).search })),
        headers: requestHeaders,
        connections,
        ...(options.amount === undefined ? { duration: options.durationSeconds } : { amount: options.amount }),
        ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
        timeout: options.timeoutSeconds ?? 10,
        sampleInt: options.sampleIntervalMs ?? 1000,
        tlsOptions: options.tls.caPem === undefined ? {} : { ca: options.tls.caPem },
        setupClient,
      },
      (error: Error | null, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
    );
  }).finally(() => clearTimeout(cap));
  LARGE_BODIES.note(largeBodyBytes);
  if (tlsFailure) {
    throw new ClockcheckError('CLOCKCHECK_TARGET', `TLS error talking to ${options.origin}: ${redactor.text((tlsFailure as Error).message)}; nothing was sent`);
  }
  exchanges.sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
  return { result, exchanges, unanswered: Math.max(0, sent - answered), cappedByDuration, firstSentAtMs, lastReceivedAtMs };
}
