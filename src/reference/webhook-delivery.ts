import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { notificationBody, signDelivery, SIGNATURE_HEADER, TIMESTAMP_HEADER, type ChangeKind, type NotificationBody } from '../spec/webhook-notification.ts';

/** A subscription that notifications go to: the subscribe extension's URL and secret. */
export interface DeliveryTarget {
  readonly url: string;
  readonly secret: string | null;
}

/**
 * The form of a notification: the service's published one (`PUBLISHED_FORM`), or one that the
 * reference server's webhook faults break.
 */
export interface DeliveryForm {
  /**
   * `published`: `x-webhook-timestamp` and `x-webhook-signature`, the HMAC of timestamp + body;
   * `body-only`: both headers, the HMAC of the body alone; `none`: neither header. Only with a secret.
   */
  readonly signature: 'published' | 'body-only' | 'none';
  /** Whether `data` names the record's `id`. */
  readonly includeId: boolean;
}

/** The service's published form (spec/webhook-notification.ts). */
export const PUBLISHED_FORM: DeliveryForm = { signature: 'published', includeId: true };

/** One attempt of one notification, as the server saw it (for its tests and its log). */
export interface DeliveryAttempt {
  readonly url: string;
  readonly body: string;
  readonly attempt: number;
  /** The receiver's status, or the reason no status came. */
  readonly outcome: number | string;
}

/** Attempts per notification: the first and two retries, 1 s then 2 s later. */
export const DELIVERY_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [1_000, 2_000];
/** How long one attempt may take, connect to answer. */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** Notifications waiting or being retried; past this, new ones are dropped (a receiver that never answers cannot grow the server). */
const QUEUE_LIMIT = 256;

/** Whether a URL names this machine: deliveries go only there, and the subscribe extension takes http only there. */
export function isLoopbackUrl(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
}

/**
 * Delivers the reference server's webhook notifications (the service's published form,
 * spec/webhook-notification.ts, unless a `DeliveryForm` breaks it): an HTTPS (or, on loopback,
 * HTTP) POST of `{payload: {event, data: {id, operation, last_updated_at}}}` signed with the
 * subscription's secret, for each create and update of users, schedules, timesheets and breaks. A
 * delivery that fails (no answer within 5 s, or not a 2xx) is tried again after 1 s and 2 s, then
 * dropped. Only loopback URLs are delivered to (the seed's hooks.example.test is never called); at
 * most 256 notifications wait. The receiver's certificate is not verified: the subscriber chose the URL.
 */
export class WebhookDeliverer {
  readonly attempts: DeliveryAttempt[] = [];
  #pending = 0;

  /** Notifications sent or still being tried. */
  get pending(): number {
    return this.#pending;
  }

  /** Sends a notification that `category` record `id` was `change`d, in `form`, if the target is a loopback URL. Never throws. */
  notify(target: DeliveryTarget | null, category: string, id: number, change: ChangeKind, form: DeliveryForm = PUBLISHED_FORM): void {
    if (!target) return;
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return;
    }
    if (!isLoopbackUrl(url) || this.#pending >= QUEUE_LIMIT) return;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const notification = notificationBody(category, id, change, Number(timestamp));
    const body = JSON.stringify(form.includeId ? notification : withoutId(notification));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'clockcheck-reference-server' };
    if (target.secret !== null && form.signature !== 'none') {
      headers[TIMESTAMP_HEADER] = timestamp;
      // The HMAC of '' + body is that of the body alone.
      headers[SIGNATURE_HEADER] = signDelivery(target.secret, form.signature === 'published' ? timestamp : '', body);
    }
    this.#pending++;
    void this.#deliver(url, headers, body, 1).finally(() => this.#pending--);
  }

  async #deliver(url: URL, headers: Record<string, string>, body: string, attempt: number): Promise<void> {
    const outcome = await post(url, headers, body);
    this.attempts.push({ url: url.href, body, attempt, outcome });
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) return;
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (delay === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, delay).unref());
    await this.#deliver(url, headers, body, attempt + 1);
  }
}

/** The notification with no `id` in its `data`. */
function withoutId(notification: NotificationBody): unknown {
  const { event, data } = notification.payload;
  return { payload: { event, data: { operation: data.operation, last_updated_at: data.last_updated_at } } };
}

/** One POST; the status, or why there is none. */
function post(url: URL, headers: Record<string, string>, body: string): Promise<number | string> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers, rejectUnauthorized: false, timeout: ATTEMPT_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error) => resolve(error.message));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve(error.message));
    req.end(body);
  });
}
