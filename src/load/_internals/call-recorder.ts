import { StringDecoder } from 'node:string_decoder';
import type { Exchange, HttpMethod } from '../../client/exchange.ts';
import type { Redactor } from '../../client/redaction.ts';
import { withLazyJson } from '../../client/with-lazy-json.ts';
import { LARGE_BODIES, LARGE_BODY_BYTES } from '../../client/large-body-collector.ts';
import type { AutocannonClient } from './autocannon-client.ts';

/** What the recorder needs to know of the run: the requests, how calls are kept, and who hears of each response. */
export interface CallRecorderOptions {
  /** The method and absolute URL of each request of the cycled list. */
  readonly requests: readonly { readonly method: HttpMethod; readonly url: string }[];
  /** The headers every request carries, recorded (redacted) with each kept exchange. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly redactor: Redactor;
  /** Keep every call as a redacted Exchange; `false` keeps only counts. */
  readonly keepExchanges: boolean;
  /** Response body bytes kept per kept exchange. */
  readonly maxBodyBytes: number;
  /** Count each large body toward a full collection as it arrives, not once the run is over. */
  readonly collectWhileRunning: boolean;
  readonly onResponse?: (status: number, latencyMs: number) => void;
  /** Sequence numbers of kept exchanges start after this. */
  readonly firstExchangeId: number;
}

/** A call sent on one connection and not yet answered. */
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

function headerMap(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    out[name] = out[name] === undefined ? (raw[i + 1] as string) : `${out[name]}, ${raw[i + 1]}`;
  }
  return out;
}

/**
 * Records what autocannon's connections send and receive: counts and first/last times always, and,
 * with `keepExchanges`, every call as a redacted Exchange with its own send time and duration
 * (connections run one request at a time, so responses pair with requests in order on each connection).
 */
export class CallRecorder {
  /** Every kept call, in the order the responses arrived. */
  readonly exchanges: Exchange[] = [];
  sent = 0;
  answered = 0;
  firstSentAtMs: number | null = null;
  lastReceivedAtMs: number | null = null;
  /** Bytes of the large bodies received, counted toward a full collection once the run is over (never during a burst). */
  largeBodyBytes = 0;
  private sequence: number;

  constructor(private readonly options: CallRecorderOptions) {
    this.sequence = options.firstExchangeId;
  }

  /** Listens to one connection's client. */
  watch(client: AutocannonClient): void {
    const pending: PendingCall[] = [];
    let made = 0;
    client.on('request', () => {
      const sentAtMs = Date.now();
      this.firstSentAtMs ??= sentAtMs;
      this.sent++;
      pending.push({ requestIndex: made++ % this.options.requests.length, sentAtMs, startedPerf: performance.now(), body: [], decoder: new StringDecoder('utf8'), bodyBytes: 0 });
    });
    if (this.options.keepExchanges) this.keepCalls(client, pending);
    else this.countCalls(client, pending);
  }

  /** Without kept exchanges: each response counted, its status and latency reported. */
  private countCalls(client: AutocannonClient, pending: PendingCall[]): void {
    let status = 0;
    client.on('headers', (head) => {
      status = head.statusCode;
    });
    client.on('response', () => {
      const call = pending.shift();
      this.noteAnswer();
      if (call) this.options.onResponse?.(status, performance.now() - call.startedPerf);
    });
    dropOnLostConnection(client, pending);
  }

  /** With kept exchanges: each response's status, headers and (capped) body read into its call, then kept. */
  private keepCalls(client: AutocannonClient, pending: PendingCall[]): void {
    const maxBody = this.options.maxBodyBytes;
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
      this.noteAnswer();
      if (call) this.keep(call);
    });
    dropOnLostConnection(client, pending);
  }

  private noteAnswer(): void {
    this.answered++;
    this.lastReceivedAtMs = Date.now();
  }

  /** One answered call as a redacted exchange, its large body counted toward a collection. */
  private keep(call: PendingCall): void {
    const { options } = this;
    options.onResponse?.(call.status ?? 0, performance.now() - call.startedPerf);
    if (options.collectWhileRunning) LARGE_BODIES.note(call.bodyBytes);
    else if (call.bodyBytes >= LARGE_BODY_BYTES) this.largeBodyBytes += call.bodyBytes;
    const request = options.requests[call.requestIndex]!;
    this.exchanges.push(
      withLazyJson(options.redactor.exchange({
        id: ++this.sequence,
        startedAt: new Date(call.sentAtMs).toISOString(),
        sentAtMs: call.sentAtMs,
        durationMs: Math.round((performance.now() - call.startedPerf) * 1000) / 1000,
        request: { method: request.method, url: request.url, headers: options.requestHeaders },
        response: {
          status: call.status ?? 0,
          headers: call.headers ?? {},
          body: call.body.join('') + call.decoder.end(),
          bodyBytes: call.bodyBytes,
          bodyTruncated: call.bodyBytes > options.maxBodyBytes,
        },
      }), options.redactor),
    );
  }
}

/**
 * A lost connection (an error, a timeout) drops what was in flight on it, and autocannon sends afresh
 * on the new one: the calls are forgotten, so the next answer is paired with its own call. They stay
 * counted as sent and not answered.
 */
function dropOnLostConnection(client: AutocannonClient, pending: PendingCall[]): void {
  const drop = () => {
    pending.length = 0;
  };
  client.on('connError', drop);
  client.on('timeout', drop);
}
