import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { PUBLISHED_FORM, readNotification, verifySignature, type NotificationForm, type NotificationReading } from '../contract/webhook-notification.ts';

/** One notification the sink received (a POST of JSON within the size limit). */
export interface Delivery {
  /** 1, 2, … in order of arrival. */
  readonly id: number;
  readonly receivedAt: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** `verified`; `not checked` without a secret or for a form that signs nothing; else why it failed. */
  readonly signature: 'verified' | 'not checked' | { readonly failed: string };
  /** What the body names, read by the sink's form: the resource's ID, the operation, the category. */
  readonly names: NotificationReading;
  /** Whether the body has the form's shape (the published one by default), or why not. */
  readonly payload: { readonly ok: true } | { readonly ok: false; readonly why: string };
  /** The status the sink answered. */
  readonly status: number;
}

export interface SinkOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** The subscription's secret; without it signatures are not checked. */
  readonly secret?: string | null;
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
/** Connections the sink holds at once. */
const MAX_CONNECTIONS = 128;
/** How long close() lets a connection finish the answer it is writing. */
const CLOSE_GRACE_MS = 1_000;
/** Probe nonces held; past that the oldest go. */
const MAX_PROBES = 100;

/**
 * A webhook receiver (`clockcheck sink`, and the webhook checks of a run): it keeps each POST of
 * JSON, checks its signature against the secret (constant-time, timestamp within a tolerance) and
 * its payload against the form (the published one unless the profile declares another), and
 * answers. Bounded: a body past `maxBodyBytes` is refused with 413 and not read further, at most
 * `maxHeld` deliveries are kept, a request must arrive whole within 10 s, and at most 128
 * connections are open at once. Anything else (another method, another content type, text that is
 * not JSON) is refused with a 4xx and counted; nothing a sender does can crash it.
 */
export async function startSink(options: SinkOptions = {}): Promise<Sink> {
  const deliveries: Delivery[] = [];
  const refused: Record<string, number> = {};
  /** The pending waitFor calls: each looks again on a new delivery, and ends (null) when the sink closes. */
  const waiters = new Set<{ look: () => void; end: () => void }>();
  const probes = new Set<string>();
  let dropped = 0;
  let next = 1;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const form = options.form ?? PUBLISHED_FORM;
  const refuse = (res: ServerResponse, status: number, why: string, close = false) => {
    refused[why] = (refused[why] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
    res.end(JSON.stringify({ error: why }));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.on('error', () => undefined);
    if (req.method !== 'POST') return refuse(res, 405, 'not a POST');
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(res, 415, 'not application/json');
    if (Number(req.headers['content-length'] ?? 0) > maxBody) return refuse(res, 413, 'body too large', true);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        if (!over) refuse(res, 413, 'body too large', true);
        over = true;
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return refuse(res, 400, 'not JSON');
      }
      const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
      const probe = header(PROBE_HEADER);
      if (probe !== undefined) {
        probes.add(probe.slice(0, 64));
        if (probes.size > MAX_PROBES) probes.delete(probes.values().next().value as string);
        for (const waiter of waiters) waiter.look();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ probe: 'received' }));
        return;
      }
      const check = options.secret && form.signature ? verifySignature(form.signature, options.secret, { header, body }, Date.now(), options.toleranceSeconds) : null;
      const read = readNotification(form, json);
      const status = options.status ?? 200;
      const delivery: Delivery = {
        id: next++,
        receivedAt: new Date().toISOString(),
        path: req.url ?? '/',
        headers: Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : []))),
        body,
        signature: check === null ? 'not checked' : check.ok ? 'verified' : { failed: check.why },
        names: read.names,
        payload: read.shape,
        status,
      };
      deliveries.push(delivery);
      if (deliveries.length > (options.maxHeld ?? 1000)) {
        deliveries.shift();
        dropped++;
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: delivery.id }));
      options.onDelivery?.(delivery);
      for (const waiter of waiters) waiter.look();
    });
  };

  const server: Server = options.tls ? createHttpsServer({ cert: options.tls.certPem, key: options.tls.keyPem }, handle) : createHttpServer(handle);
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  // Connections open at once: past this, new ones are dropped (no sender can exhaust sockets or memory).
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  /** Resolves with what `look` finds, looking again on each arrival, or `none` after `timeoutMs` or at close. */
  const wait = <T>(look: () => T | null, none: T | null, timeoutMs: number): Promise<T | null> =>
    new Promise((resolve) => {
      const finish = (value: T | null) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(value);
      };
      const waiter = {
        look: () => {
          const found = look();
          if (found !== null) finish(found);
        },
        end: () => finish(none),
      };
      const timer = setTimeout(waiter.end, timeoutMs);
      waiters.add(waiter);
      waiter.look();
    });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}/`,
    deliveries,
    refused,
    get dropped() {
      return dropped;
    },
    get lastId() {
      return next - 1;
    },
    waitFor(match, timeoutMs, afterId = 0) {
      return wait(() => deliveries.find((d) => d.id > afterId && match(d)) ?? null, null, timeoutMs);
    },
    async waitForProbe(nonce, timeoutMs) {
      return (await wait(() => (probes.has(nonce) ? true : null), false, timeoutMs)) ?? false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const waiter of waiters) waiter.end();
        // Answers being written finish (a sender must not see its delivery cut off); idle connections close now, the rest after a grace.
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
