import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { startSink, type Sink } from '../../src/webhooks/sink.ts';

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

const operation = (d: { payload: { ok: boolean; value?: { payload: { data: { operation: string; id: number | string } } } } }) => (d.payload.ok ? d.payload.value!.payload.data : null);

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
    expect(first).toMatchObject({ signature: 'verified', payload: { ok: true, value: { payload: { event: 'users', data: { id, operation: 'users_created' } } } } });
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
