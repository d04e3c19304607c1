import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { signDelivery } from '../support/webhooks.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { startSink, type Sink } from '../../src/webhooks/sink.ts';
import type { Delivery } from '../../src/webhooks/delivery.ts';

const SECRET = 'whsec-reference-42';
let server: ReferenceServer | undefined;
let sink: Sink | undefined;
afterEach(async () => {
  await server?.close();
  await sink?.close();
  server = sink = undefined;
});

async function call(method: string, path: string, body?: unknown) {
  const dispatcher = new Agent({ connect: { ca: server!.tls.caPem } });
  const response = await request(`${server!.origin}/api/public${path}`, {
    method: method as 'GET',
    dispatcher,
    headers: { authorization: server!.token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.body.json().catch(() => null)) as { items?: { id: number } } | null;
  await dispatcher.close();
  return { status: response.statusCode, json };
}

/** What a delivery names, when its payload has the form's shape. */
const operation = (d: Delivery) => (d.payload.ok ? { operation: d.names.operation, id: Number(d.names.id) } : null);

describe('the reference server delivers signed webhook notifications (subscribe extension)', () => {
  it('for creates and updates, signed with the secret; and none after unsubscribe', async () => {
    sink = await startSink({ secret: SECRET });
    server = await startReferenceServer({ rateLimit: null });
    // http only on loopback: a plain URL elsewhere is refused.
    expect((await call('POST', '/webhooks/subscription', { url: 'http://hooks.example.test/x', secret: SECRET })).status).toBe(422);
    expect((await call('POST', '/webhooks/subscription', { url: sink.url, secret: SECRET })).status).toBeLessThan(300);
    // The secret is never read back.
    expect(JSON.stringify((await call('GET', '/webhooks/subscription')).json)).not.toContain(SECRET);

    const created = await call('POST', '/users', { first_name: 'Ada', last_name: 'Hook', email: 'ada.hook@example.test', password: 'Valid-pass1' });
    const id = created.json!.items!.id;
    const first = await sink.waitFor((d) => operation(d)?.operation === 'users_created', 5000);
    expect(first).toMatchObject({ signature: 'verified', payload: { ok: true }, names: { event: 'users', id: String(id), operation: 'users_created' } });
    // The published form exactly: HMAC of timestamp + body, and data of these three fields.
    expect(first!.headers['x-webhook-signature']).toBe(signDelivery(SECRET, first!.headers['x-webhook-timestamp']!, first!.body));
    expect(Object.keys(JSON.parse(first!.body).payload.data).sort()).toEqual(['id', 'last_updated_at', 'operation']);
    await call('PUT', `/users/${id}`, { first_name: 'Adah' });
    expect(await sink.waitFor((d) => operation(d)?.operation === 'users_updated' && operation(d)?.id === id, 5000)).not.toBeNull();

    expect((await call('DELETE', '/webhooks/subscription/unsubscribe')).status).toBe(200);
    const seen = sink.deliveries.length;
    await call('POST', '/users', { first_name: 'Bo', last_name: 'After', email: 'bo.after@example.test', password: 'Valid-pass1' });
    expect(await sink.waitFor(() => true, 700, sink.deliveries.at(-1)!.id)).toBeNull();
    expect(sink.deliveries).toHaveLength(seen);
  });

  it('tries a failed delivery again, three attempts in all, then drops it', async () => {
    sink = await startSink({ secret: SECRET, status: 503 });
    server = await startReferenceServer({ rateLimit: null });
    await call('POST', '/webhooks/subscription', { url: sink.url, secret: SECRET });
    await call('POST', '/users', { first_name: 'Re', last_name: 'Try', email: 're.try@example.test', password: 'Valid-pass1' });
    await new Promise((resolve) => setTimeout(resolve, 3800));
    expect(sink.deliveries.map((d) => operation(d)?.operation)).toEqual(['users_created', 'users_created', 'users_created']);
    expect(server.context.webhooks.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
  }, 15_000);

  it('never delivers off loopback: the seed subscription (hooks.example.test) gets nothing', async () => {
    server = await startReferenceServer({ rateLimit: null });
    await call('POST', '/users', { first_name: 'No', last_name: 'Hook', email: 'no.hook@example.test', password: 'Valid-pass1' });
    expect(server.context.webhooks.pending).toBe(0);
    expect(server.context.webhooks.attempts).toEqual([]);
  });
});

describe('the webhook faults break the delivery they name, and only that', () => {
  /** A server with `fault`, subscribed to a fresh sink (with the secret). */
  async function subscribed(fault: string): Promise<void> {
    sink = await startSink({ secret: SECRET });
    server = await startReferenceServer({ rateLimit: null, faults: [fault] });
    expect((await call('POST', '/webhooks/subscription', { url: sink.url, secret: SECRET })).status).toBeLessThan(300);
  }
  /** Creates a user; its ID and the first notification after `afterId` (null when none comes within `timeoutMs`). */
  async function createUser(name: string, timeoutMs = 5000, afterId = 0): Promise<{ id: number; delivery: Delivery | null }> {
    const created = await call('POST', '/users', { first_name: name, last_name: 'Fault', email: `${name.toLowerCase()}.fault@example.test`, password: 'Valid-pass1' });
    expect(created.status).toBe(201);
    return { id: created.json!.items!.id, delivery: await sink!.waitFor(() => true, timeoutMs, afterId) };
  }

  it('notifications-after-unsubscribe: unsubscribed and unreadable, yet changes still go to its URL with its secret; a new subscribe replaces it', async () => {
    await subscribed('notifications-after-unsubscribe');
    expect((await call('DELETE', '/webhooks/subscription/unsubscribe')).status).toBe(200);
    expect((await call('GET', '/webhooks/subscription')).status).toBe(404);
    expect((await call('DELETE', '/webhooks/subscription/unsubscribe')).status).toBe(404);
    const { id, delivery } = await createUser('Ghost');
    expect(delivery).toMatchObject({ signature: 'verified', payload: { ok: true }, names: { event: 'users', id: String(id), operation: 'users_created' } });

    const other = await startSink({ secret: 'whsec-other' });
    try {
      expect((await call('POST', '/webhooks/subscription', { url: other.url, secret: 'whsec-other' })).status).toBeLessThan(300);
      const seen = sink!.deliveries.length;
      await call('POST', '/users', { first_name: 'New', last_name: 'Sub', email: 'new.sub@example.test', password: 'Valid-pass1' });
      expect(await other.waitFor((d) => operation(d)?.operation === 'users_created', 5000)).toMatchObject({ signature: 'verified' });
      expect(await sink!.waitFor(() => true, 500, delivery!.id)).toBeNull();
      expect(sink!.deliveries).toHaveLength(seen);
    } finally {
      await other.close();
    }
  });

  it('notifications-after-unsubscribe changes nothing while the subscription is live', async () => {
    await subscribed('notifications-after-unsubscribe');
    const { id, delivery } = await createUser('Live');
    expect(delivery).toMatchObject({ signature: 'verified', payload: { ok: true }, names: { id: String(id) } });
  });

  it('webhook-wrong-signature: both headers, the signature the HMAC of the body alone', async () => {
    await subscribed('webhook-wrong-signature');
    const { id, delivery } = await createUser('Wrong');
    const timestamp = delivery!.headers['x-webhook-timestamp'];
    expect(timestamp).toMatch(/^\d+$/);
    expect(delivery!.headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(delivery!.body).digest('hex'));
    expect(delivery!.headers['x-webhook-signature']).not.toBe(signDelivery(SECRET, timestamp!, delivery!.body));
    expect(delivery).toMatchObject({ signature: { failed: 'x-webhook-signature does not match the HMAC-SHA256 of x-webhook-timestamp + body' }, payload: { ok: true }, names: { id: String(id) } });
  });

  it('webhook-unsigned: neither header although the subscription has a secret', async () => {
    await subscribed('webhook-unsigned');
    const { id, delivery } = await createUser('Unsigned');
    expect(delivery!.headers).not.toHaveProperty('x-webhook-timestamp');
    expect(delivery!.headers).not.toHaveProperty('x-webhook-signature');
    expect(delivery).toMatchObject({ signature: { failed: 'no x-webhook-timestamp header' }, payload: { ok: true }, names: { id: String(id) } });
  });

  it('webhook-payload-no-id: data without id, the rest of the notification as published', async () => {
    await subscribed('webhook-payload-no-id');
    const { delivery } = await createUser('Noid');
    const { payload } = JSON.parse(delivery!.body);
    expect(payload.event).toBe('users');
    expect(payload.data).not.toHaveProperty('id');
    expect(payload.data).toEqual({ operation: 'users_created', last_updated_at: Number(delivery!.headers['x-webhook-timestamp']) });
    expect(delivery).toMatchObject({ signature: 'verified', payload: { ok: false } });
    expect((delivery!.payload as { why: string }).why).toMatch(/^payload\.data\.id: /);
  });
});
