import { jsonText } from '../contract/json-text.ts';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { deletePointer } from '../contract/json-pointer.ts';
import { notificationBody, signatureHeaders, signatureValue, signedContent, type ChangeKind, type NotificationForm, type SignatureScheme } from '../contract/webhook-notification.ts';

/** A subscription that notifications go to: the subscribe extension's URL and secret. */
export interface DeliveryTarget {
  readonly url: string;
  readonly secret: string | null;
}

/** How the server's notifications are written: its dialect's form, as the webhook faults break it. */
export interface DeliveryForm {
  /** The dialect's form (contract/webhook-notification.ts): the published one, or the alternative dialect's. */
  readonly form: NotificationForm;
  /**
   * `as-declared`: signed as the form says; `wrong`: the signature header over other content (the body
   * without the timestamp, or, for a form that signs no timestamp, the body re-serialized with
   * indentation: a sender that signs its object, not the bytes it sends); `none`: no signature
   * headers. Only with a secret, and only for a form that signs.
   */
  readonly signing: 'as-declared' | 'wrong' | 'none';
  /** Whether the body names the record's ID. */
  readonly includeId: boolean;
  /** A published body's `last_updated_at`: the time of sending, or `false` (as real deliveries have carried it). */
  readonly lastUpdatedAt: 'time' | false;
}

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
/** Attempts kept for the server's tests and log; past this the oldest go (a long-running server stays bounded). */
const ATTEMPTS_KEPT = 1_000;
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
 * Delivers the reference server's webhook notifications in its dialect's form (the service's
 * published one, contract/webhook-notification.ts, unless the dialect or a fault makes another): an
 * HTTPS (or, on loopback, HTTP) POST of JSON signed with the subscription's secret, for each create
 * and update of users, schedules, timesheets and breaks. A
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
  notify(target: DeliveryTarget | null, category: string, id: number | string | bigint, change: ChangeKind, form: DeliveryForm): void {
    if (!target) return;
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return;
    }
    if (!isLoopbackUrl(url) || this.#pending >= QUEUE_LIMIT) return;
    const timestamp = Math.floor(Date.now() / 1000);
    const notification = notificationBody(form.form, category, id, change, form.lastUpdatedAt === false ? false : timestamp);
    if (!form.includeId) deletePointer(notification, form.form.id);
    const body = jsonText(notification);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'clockcheck-reference-server' };
    const scheme = form.form.signature;
    if (target.secret !== null && scheme !== null && form.signing !== 'none') {
      Object.assign(headers, signatureHeaders(scheme, target.secret, timestamp, body));
      if (form.signing === 'wrong') headers[scheme.header] = signatureValue(scheme, target.secret, wrongContent(scheme, notification, body));
    }
    this.#pending++;
    void this.#deliver(url, headers, body, 1).finally(() => this.#pending--);
  }

  async #deliver(url: URL, headers: Record<string, string>, body: string, attempt: number): Promise<void> {
    const outcome = await post(url, headers, body);
    this.attempts.push({ url: url.href, body, attempt, outcome });
    if (this.attempts.length > ATTEMPTS_KEPT) this.attempts.shift();
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) return;
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (delay === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, delay).unref());
    await this.#deliver(url, headers, body, attempt + 1);
  }
}

/** What the `webhook-wrong-signature` fault signs instead of the scheme's content. */
function wrongContent(scheme: SignatureScheme, notification: unknown, body: string): string {
  return scheme.signed.includes('{timestamp}') ? signedContent(scheme, '', body) : JSON.stringify(notification, null, 2);
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
