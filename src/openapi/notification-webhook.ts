import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { sayForTools } from './_internals/json-schema-of.ts';
import { setPointer } from '../contract/json-pointer.ts';
import { describeSigned, hasPublishedBody, PUBLISHED_FORM, PublishedBody, type NotificationForm, type SignatureScheme } from '../contract/webhook-notification.ts';

type Json = Record<string, unknown>;

/** Bytes of each algorithm's MAC. */
const MAC_BYTES: Readonly<Record<SignatureScheme['algorithm'], number>> = { sha1: 20, sha256: 32, sha512: 64 };

/** A pattern matching exactly `text`. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The signature header's value as a pattern: the prefix, then the MAC in its encoding and length. */
function signaturePattern(scheme: SignatureScheme): string {
  const bytes = MAC_BYTES[scheme.algorithm];
  const mac = scheme.encoding === 'hex' ? `[0-9a-fA-F]{${2 * bytes}}` : `[A-Za-z0-9+/]{${4 * Math.floor(bytes / 3)}}[A-Za-z0-9+/=]{${bytes % 3 === 0 ? 0 : 4}}`;
  return `^${literal(scheme.prefix)}${mac}$`;
}

/**
 * The body of a notification in `form` as JSON Schema: the published shape in full, or, for a
 * declared form, objects along its pointers with the ID (an integer or a non-empty string), the
 * operation and the category required where they point. A sender may add fields.
 */
export function notificationBodySchema(form: NotificationForm): Json {
  if (hasPublishedBody(form)) {
    const { $schema: _, ...schema } = z.toJSONSchema(PublishedBody, { target: 'draft-2020-12', unrepresentable: 'any', override: sayForTools }) as Json;
    return schema;
  }
  // The leaves at their pointers, then each object on the way made a JSON Schema object requiring its members.
  const shape: Record<string, unknown> = {};
  setPointer(shape, form.id, new Leaf({ anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }], description: 'The ID of the resource that changed.' }));
  setPointer(shape, form.operation.at, new Leaf({ type: 'string', description: `The change: ${form.operation.value} ({change}: created, updated or deleted).` }));
  if (form.event) setPointer(shape, form.event.at, new Leaf({ type: 'string', description: `The category: ${form.event.value}.` }));
  const asSchema = (node: unknown): Json =>
    node instanceof Leaf
      ? node.schema
      : { type: 'object', properties: Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([key, child]) => [key, asSchema(child)])), required: Object.keys(node as object) };
  return asSchema(shape);
}

/** A schema placed at a pointer (told apart from the objects on the way, whatever their member names). */
class Leaf {
  constructor(readonly schema: Json) {}
}

/**
 * OpenAPI 3.1's `webhooks` entry for the notifications (§6: kinds, payload, delivery and retries
 * not shown): the POST a subscription's URL receives, in `form` (the published one unless a profile
 * declares another), with its signature headers and how they are computed.
 */
export function notificationWebhook(form: NotificationForm): Json {
  const scheme = form.signature;
  const headers = scheme
    ? [
        ...(scheme.timestamp_header
          ? [{ name: scheme.timestamp_header, in: 'header', required: true, description: 'The Unix time of sending (seconds, or milliseconds); signed with the body.', schema: { type: 'string', pattern: '^[0-9]{1,13}$' }, 'x-rule-ids': ['WH-SIGNATURE'] }]
          : []),
        {
          name: scheme.header,
          in: 'header',
          required: true,
          description: `${scheme.prefix ? `\`${scheme.prefix}\` followed by ` : ''}${describeSigned(scheme)} under the subscription's secret, ${scheme.encoding === 'hex' ? 'in hex' : 'in base64'}.`.replace(/^./, (c) => c.toUpperCase()),
          schema: { type: 'string', pattern: signaturePattern(scheme) },
          'x-rule-ids': ['WH-SIGNATURE'],
        },
      ]
    : [];
  return {
    post: {
      operationId: 'notification',
      summary: 'A change notified to the subscription URL',
      description:
        'Spec §4.5 and §6: a subscription sends notifications to a configured URL, and unsubscribe stops them. Their kinds, payload, delivery and retries are not shown; ' +
        (isDeepStrictEqual(form, PUBLISHED_FORM) ? 'this is the form the service behind the spec publishes.' : 'this is the form the profile declares (webhook.notification).'),
      tags: ['webhooks'],
      security: [],
      ...(headers.length > 0 ? { parameters: headers } : {}),
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NotificationBody' } } } },
      responses: {
        '2XX': { description: 'Received.' },
        '4XX': { description: 'Refused by the receiver (a sender may retry; the spec does not show retries).' },
      },
      'x-rule-ids': ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', ...(scheme ? ['WH-SIGNATURE'] : []), 'WH-NOTIFICATIONS-STOP'],
      ...(scheme ? { 'x-clockcheck-signature': { header: scheme.header, timestamp_header: scheme.timestamp_header, signed: scheme.signed, algorithm: scheme.algorithm, encoding: scheme.encoding, prefix: scheme.prefix } } : {}),
    },
  };
}
