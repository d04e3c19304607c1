import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Webhook notifications as the service behind the spec publishes them (the spec itself shows none,
 * §4.5, §6: everything here is what a profile may declare, with this as the default): an HTTPS POST
 * whose `x-webhook-timestamp` header holds the Unix time of sending and whose `x-webhook-signature`
 * is the hex HMAC-SHA256 of `timestamp + body` under the subscription's secret.
 */
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';
export const SIGNATURE_HEADER = 'x-webhook-signature';

/** The hex HMAC-SHA256 of `timestamp + body` with `secret`. */
export function signDelivery(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp + body).digest('hex');
}

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly why: string };

/**
 * Whether a delivery is signed with `secret`: the signature compared in constant time, the timestamp
 * a Unix time within `toleranceSeconds` of `nowMs` (a replayed or delayed delivery fails).
 */
export function verifyDelivery(
  secret: string,
  delivery: { readonly timestamp: string | undefined; readonly signature: string | undefined; readonly body: string },
  nowMs: number,
  toleranceSeconds = 300,
): SignatureCheck {
  if (delivery.timestamp === undefined) return { ok: false, why: `no ${TIMESTAMP_HEADER} header` };
  if (delivery.signature === undefined) return { ok: false, why: `no ${SIGNATURE_HEADER} header` };
  if (!/^\d{1,12}$/.test(delivery.timestamp)) return { ok: false, why: `${TIMESTAMP_HEADER} is not a Unix time` };
  const skew = Math.abs(nowMs / 1000 - Number(delivery.timestamp));
  if (skew > toleranceSeconds) return { ok: false, why: `${TIMESTAMP_HEADER} is ${Math.round(skew)} s away from now (tolerance ${toleranceSeconds} s)` };
  const expected = Buffer.from(signDelivery(secret, delivery.timestamp, delivery.body), 'hex');
  const given = /^[0-9a-fA-F]{64}$/.test(delivery.signature) ? Buffer.from(delivery.signature, 'hex') : null;
  if (given === null || !timingSafeEqual(expected, given)) return { ok: false, why: 'the signature does not match the body and timestamp' };
  return { ok: true };
}

/**
 * A notification's body: `{payload: {event, data: {id, operation, last_updated_at}}}`, `operation`
 * being `<event>_<created|updated|deleted>`. Real deliveries have carried `last_updated_at: false`,
 * so a reader accepts that. Loose: a sender may add fields.
 */
export const NotificationBody = z.looseObject({
  payload: z.looseObject({
    event: z.string().min(1),
    data: z.looseObject({
      id: z.union([z.number().int(), z.string().min(1)]),
      operation: z.string().regex(/^[a-z_]+_(created|updated|deleted)$/),
      last_updated_at: z.union([z.number(), z.literal(false)]),
    }),
  }),
});
export type NotificationBody = z.infer<typeof NotificationBody>;

/** What a change of a resource is called in a notification. */
export type ChangeKind = 'created' | 'updated' | 'deleted';

/** The body of a notification that `category` record `id` was `change`d at `atSeconds`. */
export function notificationBody(category: string, id: number | string, change: ChangeKind, atSeconds: number): NotificationBody {
  return { payload: { event: category, data: { id, operation: `${category}_${change}`, last_updated_at: atSeconds } } };
}
