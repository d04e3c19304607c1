import autocannon from 'autocannon';
import { ClockcheckError, InternalError } from '../errors.ts';
import type { Exchange, HttpMethod } from '../client/exchange.ts';
import { Redactor } from '../client/redaction.ts';
import { LARGE_BODIES } from '../client/large-body-collector.ts';
import { guardConnection, keepNoBodyText, type AutocannonClient, type ConnectionFailure } from './_internals/autocannon-client.ts';
import { CertificatePin } from '../tls/certificate-pin.ts';
import { CallRecorder } from './_internals/call-recorder.ts';

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
  /**
   * The `Authorization` value to send (e.g. `Bearer <token>` when the run's preflight found only that
   * accepted; a wrong token for the refused calls' bursts); null sends none; default the raw token.
   */
  readonly authorization?: string | null;
  /**
   * The same trust as the harness's own client: `caPem` replaces the system store; `insecure` skips
   * verification, and then `pin` (the run's, shared with its client) admits only the certificate seen first.
   */
  readonly tls: { readonly caPem?: string; readonly insecure: boolean; readonly pin?: CertificatePin };
  /**
   * Stop at the first call that broke a bound or timed out (a burst: one stall is the verdict, and
   * waiting out every call would hold the run for amount / connections timeouts). Default false
   * (`load` counts them and goes on).
   */
  readonly stopOnFailure?: boolean;
  /**
   * Stops the run when no call was answered for this many seconds (a target that stalls everything:
   * `load` would otherwise wait out one timeout per call until its amount or cap). Default: never.
   */
  readonly idleStopSeconds?: number;
  /** Body bytes of one response beyond which its connection is cut; default 16 MiB. */
  readonly cutBodyBytes?: number;
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
  /** Stops the run when aborted (an interrupted certification): what was answered by then is kept. */
  readonly abortSignal?: AbortSignal;
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
  /** Every call, in the order it was sent, when `keepExchanges` was set; else empty. */
  readonly exchanges: readonly Exchange[];
  /** Calls sent that got no response (connection errors, timeouts, the run ending first). */
  readonly unanswered: number;
  /** Whether `maxDurationSeconds` ended the run. */
  readonly cappedByDuration: boolean;
  /** The first call that broke a bound or timed out (with `stopOnFailure`, what stopped the run), or null. */
  readonly failure: ConnectionFailure | null;
  /**
   * What ended the run before its amount or duration, the target's doing: nothing answered for
   * `idleStopSeconds`, or a connection whose certificate no longer verified after calls were
   * answered (before any, runAutocannon throws: the run could not be made). Null for a run that went to its end.
   */
  readonly stoppedEarly: ConnectionFailure | null;
  /** Calls cut for a broken bound, and calls that timed out (autocannon's `timeouts`). */
  readonly cut: number;
  /** Time spent waiting on calls that timed out, ms (timeouts × the timeout): what the stalls cost. */
  readonly stalledMs: number;
  /** Epoch ms when the first request was written and the last response completed. */
  readonly firstSentAtMs: number | null;
  readonly lastReceivedAtMs: number | null;
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
  assertRunnable(options);
  const redactor = new Redactor(options.token, options.secrets);
  const prefix = options.apiPrefix.replace(/\/+$/, '');
  const urls = options.requests.map((r) => options.origin + prefix + (r.path.startsWith('/') ? r.path : `/${r.path}`));
  const authorization = options.authorization === undefined ? options.token : options.authorization;
  const requestHeaders: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent, ...(authorization === null ? {} : { authorization }) };
  const recorder = new CallRecorder({
    requests: options.requests.map((r, i) => ({ method: r.method, url: urls[i]! })),
    requestHeaders,
    redactor,
    keepExchanges: options.keepExchanges,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    collectWhileRunning: options.collectWhileRunning ?? false,
    onResponse: options.onResponse,
    firstExchangeId: options.firstExchangeId ?? 0,
  });
  const driven = await drive(options, urls, requestHeaders, (client) => recorder.watch(client));
  const { result, tlsFailure, cappedByDuration } = driven;
  LARGE_BODIES.note(recorder.largeBodyBytes);
  if (tlsFailure && recorder.answered === 0) {
    throw new ClockcheckError('CLOCKCHECK_TARGET', `TLS error talking to ${options.origin}: ${redactor.text(tlsFailure.message)}; nothing was sent on that connection`);
  }
  const exchanges = recorder.exchanges.sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
  const { sent, answered, firstSentAtMs, lastReceivedAtMs } = recorder;
  const redacted = (what: ConnectionFailure | null) => (what === null ? null : { code: what.code, message: redactor.text(what.message) });
  const failure = redacted(driven.failure);
  const stoppedEarly = redacted(tlsFailure ? { code: 'TLS_ERROR', message: `a new connection's certificate did not verify: ${tlsFailure.message}` } : driven.idle);
  const stalledMs = result.timeouts * (options.timeoutSeconds ?? 10) * 1000;
  return { result, exchanges, unanswered: Math.max(0, sent - answered), cappedByDuration, firstSentAtMs, lastReceivedAtMs, failure, stoppedEarly, cut: driven.cut + result.timeouts, stalledMs };
}

/** The options' own consistency: a run has requests, and an amount or a duration. */
function assertRunnable(options: AutocannonRunOptions): void {
  if (options.requests.length === 0) throw new InternalError('autocannon run without requests');
  if ((options.amount === undefined) === (options.durationSeconds === undefined)) {
    throw new InternalError('give an amount or a duration, not both nor neither');
  }
}

/** What one run of autocannon itself ended with: its result, the TLS failure that stopped it, whether the cap did, the first bound broken. */
interface Driven {
  readonly result: autocannon.Result;
  readonly tlsFailure: ConnectionFailure | null;
  readonly cappedByDuration: boolean;
  readonly failure: ConnectionFailure | null;
  /** Calls cut for a broken bound. */
  readonly cut: number;
  /** Nothing was answered for `idleStopSeconds`: the run was stopped. */
  readonly idle: ConnectionFailure | null;
}

/**
 * Runs autocannon once over `urls` with the harness's trust on every connection (a TLS failure stops
 * the run before anything is sent) and `watch` on each connection's client; `maxDurationSeconds`
 * stops it whatever else it waits for.
 */
async function drive(options: AutocannonRunOptions, urls: readonly string[], headers: Record<string, string>, watch: (client: AutocannonClient) => void): Promise<Driven> {
  let instance: autocannon.Instance | undefined;
  let tlsFailure: ConnectionFailure | null = null;
  let failure: ConnectionFailure | null = null;
  let cut = 0;
  let cappedByDuration = false;
  const failed = (what: ConnectionFailure) => {
    failure ??= what;
    if (options.stopOnFailure) instance?.stop();
  };
  // Under --insecure every connection of the run presents the certificate the first one saw (or the run's client saw).
  const pin = options.tls.pin ?? (options.tls.insecure ? new CertificatePin() : null);
  const setupClient = (raw: unknown) => {
    const client = raw as AutocannonClient;
    keepNoBodyText(client);
    guardConnection(client, {
      insecure: options.tls.insecure,
      pin,
      maxBodyBytes: options.cutBodyBytes ?? 16 * 2 ** 20,
      onTlsFailure: (what) => {
        tlsFailure ??= what;
        // destroy(), not a flag: it also clears the client's timeout timer, which would otherwise reconnect for ever.
        client.destroy();
        instance?.stop();
      },
      onBoundBroken: (what) => {
        cut++;
        failed(what);
      },
    });
    client.on('response', idle.answered);
    client.on('timeout', () => failed({ code: 'EXCHANGE_TIMEOUT', message: `no complete answer within ${options.timeoutSeconds ?? 10} s` }));
    watch(client);
  };
  const cap =
    options.maxDurationSeconds === undefined
      ? undefined
      : setTimeout(() => {
          cappedByDuration = true;
          instance?.stop();
        }, options.maxDurationSeconds * 1000);
  const abort = () => instance?.stop();
  options.abortSignal?.addEventListener('abort', abort, { once: true });
  let idleStop: ConnectionFailure | null = null;
  const idle = idleWatch(options.idleStopSeconds, (seconds) => {
    idleStop = { code: 'EXCHANGE_TIMEOUT', message: `nothing was answered for ${seconds} s` };
    failure ??= idleStop;
    instance?.stop();
  });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: urls[0]!,
        requests: options.requests.map((r, i) => ({ method: r.method, path: new URL(urls[i]!).pathname + new URL(urls[i]!).search })),
        headers,
        connections: Math.max(1, Math.min(options.connections, options.amount ?? Number.POSITIVE_INFINITY)),
        ...(options.amount === undefined ? { duration: options.durationSeconds } : { amount: options.amount }),
        ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
        timeout: options.timeoutSeconds ?? 10,
        sampleInt: options.sampleIntervalMs ?? 1000,
        tlsOptions: options.tls.caPem === undefined ? {} : { ca: options.tls.caPem },
        setupClient,
      },
      (error: Error | null, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
    );
    if (options.abortSignal?.aborted) instance.stop();
  }).finally(() => {
    clearTimeout(cap);
    idle.stop();
    options.abortSignal?.removeEventListener('abort', abort);
  });
  return { result, tlsFailure, cappedByDuration, failure, cut, idle: idleStop };
}

/** Calls `onIdle` once no answer came for `seconds` (checked each second); `answered` notes one. */
function idleWatch(seconds: number | undefined, onIdle: (seconds: number) => void): { answered(): void; stop(): void } {
  let last = Date.now();
  const timer =
    seconds === undefined
      ? undefined
      : setInterval(() => {
          if (Date.now() - last < seconds * 1000) return;
          clearInterval(timer);
          onIdle(seconds);
        }, 1000);
  timer?.unref();
  return {
    answered: () => void (last = Date.now()),
    stop: () => clearInterval(timer),
  };
}
