import type { IncomingMessage } from 'node:http';
import { readNotification, verifySignature, type NotificationForm, type NotificationReading } from '../contract/webhook-notification.ts';
import type { Redactor } from '../client/redaction.ts';
import type { TokenSighting } from '../client/exchange.ts';

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
  /** Where the notification carried a token of the run's before redaction (Redactor.sightingsIn): SEC-TOKEN-NOT-RETURNED. */
  readonly tokensShown?: readonly TokenSighting[];
}

/** How the sink reads a delivery: the form, the subscription's secret (none: not checked), the status it answers. */
export interface DeliveryReading {
  readonly form: NotificationForm;
  readonly secret?: string | null;
  readonly toleranceSeconds?: number;
  readonly status: number;
  /** Now, ms, as signature timestamps are judged (default Date.now). */
  readonly now?: () => number;
}

/** A request's single-valued header, or undefined. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A received POST of JSON as a Delivery: its signature checked against the secret (when there is one
 * and the form signs), its body read by the form.
 */
export function readDelivery(id: number, req: IncomingMessage, body: string, json: unknown, reading: DeliveryReading): Delivery {
  const header = (name: string) => headerOf(req, name);
  const check = reading.secret && reading.form.signature ? verifySignature(reading.form.signature, reading.secret, { header, body }, (reading.now ?? Date.now)(), reading.toleranceSeconds) : null;
  const read = readNotification(reading.form, json);
  return {
    id,
    receivedAt: new Date().toISOString(),
    path: req.url ?? '/',
    headers: Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : []))),
    body,
    signature: check === null ? 'not checked' : check.ok ? 'verified' : { failed: check.why },
    names: read.names,
    payload: read.shape,
    status: reading.status,
  };
}

/**
 * The delivery with every secret the redactor knows hidden in all it carries from the sender (its
 * path, header names and values, body, what the body names, why its payload or signature failed):
 * what a sink keeps, logs and prints once the signature has been checked on the body as it came.
 */
export function redactedDelivery(delivery: Delivery, redactor: Redactor): Delivery {
  const { signature, payload } = delivery;
  const shown = redactor.sightingsIn(delivery);
  return {
    ...delivery,
    ...(shown.length === 0 ? {} : { tokensShown: shown }),
    path: redactor.text(delivery.path),
    headers: redactor.headers(delivery.headers),
    body: redactor.text(delivery.body),
    signature: typeof signature === 'string' ? signature : { failed: redactor.text(signature.failed) },
    names: redactor.json(delivery.names) as NotificationReading,
    payload: payload.ok ? payload : { ok: false, why: redactor.text(payload.why) },
  };
}
