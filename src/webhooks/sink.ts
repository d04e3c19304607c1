import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLISHED_FORM, type NotificationForm } from '../contract/webhook-notification.ts';
import { Redactor } from '../client/redaction.ts';
import { headerOf, readDelivery, redactedDelivery, type Delivery, type DeliveryReading } from './delivery.ts';
import { readBoundedJson, type Refuse } from './_internals/bounded-json-body.ts';
import { Mailbox } from './_internals/mailbox.ts';
import { closeGracefully, listenBounded } from './_internals/sink-server.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';


export interface SinkOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** The subscription's secret; without it signatures are not checked. */
  readonly secret?: string | null;
  /**
   * Hides secrets in every delivery the sink keeps and hands to onDelivery (a run's: the token and
   * the secret). Default: one that hides `secret`, when there is one.
   */
  readonly redactor?: Redactor;
  /** The form notifications are read and their signatures checked in (default: the published form). */
  readonly form?: NotificationForm;
  /** The status answered to a delivery (default 200; another to exercise a sender's retries). */
  readonly status?: number;
  /** Largest body read (default 64 KiB); a larger one gets 413 and is not kept. */
  readonly maxBodyBytes?: number;
  /** Deliveries held (default 1000); past that the oldest go. */
  readonly maxHeld?: number;
  readonly toleranceSeconds?: number;
  /** Serve HTTPS with this identity instead of HTTP. */
  readonly tls?: { readonly certPem: string; readonly keyPem: string };
  /** Called with each delivery as it is kept. */
  readonly onDelivery?: (delivery: Delivery) => void;
  /** The time its waits end by and signature timestamps are judged against (default SYSTEM_CLOCK). */
  readonly clock?: Clock;
}

export interface Sink {
  /** `http(s)://host:port/`. */
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  /** Requests refused (not a POST, not JSON, too large, not JSON text), by reason. */
  readonly refused: Readonly<Record<string, number>>;
  /** Deliveries dropped because `maxHeld` were held. */
  readonly dropped: number;
  /** The ID of the latest delivery (0 before the first): what arrives later has a greater ID. */
  readonly lastId: number;
  /** Resolves true once a reachability probe with this nonce (PROBE_HEADER) arrived, false after `timeoutMs`. */
  waitForProbe(nonce: string, timeoutMs: number): Promise<boolean>;
  /** Resolves with the first delivery after `afterId` that `match` accepts, or null after `timeoutMs`. */
  waitFor(match: (delivery: Delivery) => boolean, timeoutMs: number, afterId?: number): Promise<Delivery | null>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 64 * 1024;
/** Probes a harness sends through a sink's public URL (a tunnel) to see that it reaches the sink: kept apart from deliveries. */
export const PROBE_HEADER = 'x-clockcheck-probe';

/** What a sink's requests are answered from: where deliveries go, how they are read, how large a body may be. */
interface SinkHandling {
  readonly mailbox: Mailbox;
  readonly refused: Record<string, number>;
  readonly reading: DeliveryReading;
  readonly maxBody: number;
  readonly redactor: Redactor | null;
  readonly onDelivery?: (delivery: Delivery) => void;
}

/** Answers with JSON. */
function answer(res: ServerResponse, status: number, body: unknown, close = false): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
  res.end(JSON.stringify(body));
}

/**
 * The sink's request handler: a POST of JSON within the size limit is a probe (PROBE_HEADER, noted
 * apart) or a delivery (kept, answered with the sink's status); anything else is refused and counted.
 */
function sinkHandler(sink: SinkHandling): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refuse: Refuse = (status, why, close = false) => {
      sink.refused[why] = (sink.refused[why] ?? 0) + 1;
      answer(res, status, { error: why }, close);
    };
    req.on('error', () => undefined);
    if (req.method !== 'POST') return refuse(405, 'not a POST');
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(415, 'not application/json');
    readBoundedJson(req, sink.maxBody, refuse, (body, json) => {
      const probe = headerOf(req, PROBE_HEADER);
      if (probe !== undefined) {
        sink.mailbox.noteProbe(probe);
        return answer(res, 200, { probe: 'received' });
      }
      // The signature is checked on the body as it came; what is kept, logged and printed is redacted.
      const read = readDelivery(sink.mailbox.takeId(), req, body, json, sink.reading);
      const delivery = sink.redactor ? redactedDelivery(read, sink.redactor) : read;
      sink.mailbox.keep(delivery);
      answer(res, delivery.status, { received: delivery.id });
      sink.onDelivery?.(delivery);
      sink.mailbox.wake();
    });
  };
}

/**
 * A webhook receiver (`clockcheck sink`, and the webhook checks of a run): it keeps each POST of
 * JSON, checks its signature against the secret (constant-time, timestamp within a tolerance) and
 * its payload against the form (the published one unless the profile declares another), and
 * answers. What it keeps is redacted (the secret, and any other secret its redactor knows, in every
 * form). Bounded: a body past `maxBodyBytes` is refused with 413 and not read further, at most
 * `maxHeld` deliveries are kept, a request must arrive whole within 10 s, and at most 128
 * connections are open at once. Anything else (another method, another content type, text that is
 * not JSON) is refused with a 4xx and counted; nothing a sender does can crash it.
 */
export async function startSink(options: SinkOptions = {}): Promise<Sink> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const mailbox = new Mailbox(options.maxHeld ?? 1000, clock);
  const refused: Record<string, number> = {};
  const reading: DeliveryReading = {
    form: options.form ?? PUBLISHED_FORM,
    secret: options.secret,
    toleranceSeconds: options.toleranceSeconds,
    status: options.status ?? 200,
    now: clock.now,
  };
  const redactor = options.redactor ?? (options.secret ? new Redactor(options.secret) : null);
  const handle = sinkHandler({ mailbox, refused, reading, maxBody: options.maxBodyBytes ?? DEFAULT_MAX_BODY, redactor, onDelivery: options.onDelivery });
  const { server, url } = await listenBounded(options, handle);
  return {
    url,
    deliveries: mailbox.deliveries,
    refused,
    get dropped() {
      return mailbox.dropped;
    },
    get lastId() {
      return mailbox.lastId;
    },
    waitFor(match, timeoutMs, afterId = 0) {
      return mailbox.wait(() => mailbox.deliveries.find((d) => d.id > afterId && match(d)) ?? null, null, timeoutMs);
    },
    async waitForProbe(nonce, timeoutMs) {
      return (await mailbox.wait(() => (mailbox.hasProbe(nonce) ? true : null), false, timeoutMs)) ?? false;
    },
    close: () => {
      mailbox.endWaits();
      return closeGracefully(server);
    },
  };
}
