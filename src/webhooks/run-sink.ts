import { readPemFile } from '../tls/pem-file.ts';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../client/exchange.ts';
import type { Redactor } from '../client/redaction.ts';
import type { Profile } from '../profile/profile.ts';
import type { NotificationForm } from '../contract/webhook-notification.ts';
import { PROBE_HEADER, startSink, type Sink } from './sink.ts';
import type { Delivery } from './delivery.ts';

/** The profile's webhook settings with a sink. */
export type SinkProfile = NonNullable<Profile['webhook']> & { readonly sink: NonNullable<NonNullable<Profile['webhook']>['sink']> };

/** How long a reachability probe through the public URL may take, there and back. */
const PROBE_TIMEOUT_MS = 10_000;
/** How long after the probe's answer it may still be on its way to the sink (a proxy that answers first). */
const PROBE_GRACE_MS = 1_000;

/**
 * The sink of a run (profile `webhook.sink`): it receives the target's notifications while the
 * webhook checks run, checks their signatures with the run's secret, and hands each delivery to the
 * report as an inbound exchange, redacted like everything the run records.
 */
export interface RunSink {
  readonly sink: Sink;
  /** The URL the target delivers to: the profile's public_url, else the sink's own. */
  readonly url: string;
  /** The form notifications are read in (the profile's webhook.notification). */
  readonly form: NotificationForm;
  /**
   * Why signatures are not checked, or null when they are (the profile names webhook.secret_env, or
   * the embedded run made a secret, and the form signs notifications).
   */
  readonly signaturesUnchecked: string | null;
  readonly deliveryWithinMs: number;
  readonly quietPeriodMs: number;
  /**
   * When the public URL is not the sink's own (a tunnel), posts a probe through it and waits for it
   * at the sink: null when it arrived, else why not. The token is never sent.
   */
  probe(): Promise<string | null>;
  /** A delivery as an exchange of the run: redacted, numbered among the run's exchanges (the same one each time). */
  exchangeOf(delivery: Delivery): Exchange;
  close(): Promise<void>;
}

export interface RunSinkDeps {
  readonly secret: string | null;
  readonly redactor: Redactor;
  /** The next exchange ID of the run. */
  readonly nextExchangeId: () => number;
}

/** `host:port` of the profile as listen options (`[::1]:8787` is host ::1). */
export function listenAddress(listen: string): { host: string; port: number } {
  const at = listen.lastIndexOf(':');
  const host = listen.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(listen.slice(at + 1)) };
}

/** Starts the run's sink as the profile describes it. */
export async function startRunSink(webhook: SinkProfile, deps: RunSinkDeps): Promise<RunSink> {
  const { host, port } = listenAddress(webhook.sink.listen);
  const tls = webhook.sink.tls ? { certPem: await readPemFile(webhook.sink.tls.cert), keyPem: await readPemFile(webhook.sink.tls.key) } : undefined;
  const sink = await startSink({
    host,
    port,
    secret: deps.secret,
    // The run's redactor: a notification that echoes the token or the secret is kept without it,
    // so neither reaches a finding, a note or an exchange of the report.
    redactor: deps.redactor,
    form: webhook.notification,
    toleranceSeconds: webhook.signature_tolerance / 1000,
    ...(tls ? { tls } : {}),
  });
  const url = webhook.sink.public_url ?? sink.url;
  const exchanges = new Map<number, Exchange>();
  return {
    sink,
    url,
    form: webhook.notification,
    signaturesUnchecked:
      webhook.notification.signature === null
        ? 'the profile declares unsigned notifications (webhook.notification.signature: null)'
        : deps.secret === null
          ? 'the profile names no webhook.secret_env, so signatures were not checked'
          : null,
    deliveryWithinMs: webhook.delivery_within,
    quietPeriodMs: webhook.quiet_period ?? webhook.delivery_within,
    probe: () => (url === sink.url ? Promise.resolve(null) : probeThrough(url, sink)),
    exchangeOf(delivery) {
      let exchange = exchanges.get(delivery.id);
      if (!exchange) {
        exchange = deps.redactor.exchange(deliveryExchange(delivery, new URL(delivery.path, url).href, deps.nextExchangeId()));
        exchanges.set(delivery.id, exchange);
      }
      return exchange;
    },
    close: () => sink.close(),
  };
}

/** The delivery as the target sent it and the sink answered it. */
function deliveryExchange(delivery: Delivery, url: string, id: number): Exchange {
  const answer = JSON.stringify({ received: delivery.id });
  return {
    id,
    direction: 'inbound',
    startedAt: delivery.receivedAt,
    sentAtMs: Date.parse(delivery.receivedAt),
    durationMs: 0,
    request: { method: 'POST', url, headers: delivery.headers, body: delivery.body },
    response: { status: delivery.status, headers: { 'content-type': 'application/json' }, body: answer, bodyBytes: Buffer.byteLength(answer), bodyTruncated: false },
    ...(delivery.tokensShown === undefined ? {} : { tokensShown: delivery.tokensShown }),
  };
}

/** Posts a probe to `url` and waits for the sink to get it: null, or why it did not. */
async function probeThrough(url: string, sink: Sink): Promise<string | null> {
  const nonce = randomBytes(8).toString('hex');
  // The sink keeps a probe before it answers, so once the POST has its answer (or failed) the probe is there or lost.
  const sent = await postProbe(new URL(url), nonce);
  if (await sink.waitForProbe(nonce, PROBE_GRACE_MS)) return null;
  return `a probe posted to the sink's public URL ${url} did not reach the sink at ${sink.url} (${sent}): is the tunnel running and forwarding there?`;
}

/** One POST of `{}` with the probe header; what came back, in a few words. */
function postProbe(url: URL, nonce: string): Promise<string> {
  return new Promise((resolve) => {
    const body = '{}';
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), [PROBE_HEADER]: nonce }, timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(`the public URL answered ${res.statusCode}`));
      res.on('error', (error) => resolve(error.message));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve(`the POST failed: ${error.message}`));
    req.end(body);
  });
}
