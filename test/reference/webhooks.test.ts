import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/reference-client.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  await t?.close();
});

const read = () => t.call('GET', '/webhooks/subscription');
const unsubscribe = () => t.call('DELETE', '/webhooks/subscription/unsubscribe');
const subscribe = (url: unknown) => t.call('POST', '/webhooks/subscription', { body: { url } });

// The tests of this file run in order: they walk the subscription through its states.
describe('DELETE /webhooks/subscription/unsubscribe', () => {
  it('starts with the seeded subscription readable', async () => {
    const reply = await read();
    expect(reply.status).toBe(200);
    expect(reply.json.items.url).toBe(t.server.seed.webhookUrl);
  });

  it('removes the subscription with a 2xx JSON answer', async () => {
    const reply = await unsubscribe();
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof reply.json.message).toBe('string');
  });

  it('leaves no subscription behind: reading it answers 404', async () => {
    const reply = await read();
    expect(reply.status).toBe(404);
    expect(reply.json).toHaveProperty('message');
    expect(t.server.context.webhook).toBeNull();
  });

  it('answers 404 to a second unsubscribe, as there is nothing to remove', async () => {
    const reply = await unsubscribe();
    expect(reply.status).toBe(404);
    expect(reply.json).toHaveProperty('message');
  });

  it('accepts a new https subscription through the subscribe extension, readable afterwards', async () => {
    const url = 'https://hooks.example.test/again';
    const reply = await subscribe(url);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items.url).toBe(url);
    expect((await read()).json.items.url).toBe(url);
  });

  it('removes that new subscription too', async () => {
    expect((await unsubscribe()).status).toBe(200);
    expect((await read()).status).toBe(404);
  });

  it.each([
    ['a plain http URL', 'http://hooks.example.test/x'],
    ['a string that is not a URL', 'not a url'],
    ['no URL', undefined],
    ['a number', 42],
  ])('rejects a subscription with %s with 422 and stores nothing', async (_, url) => {
    const reply = await subscribe(url);
    expect(reply.status, reply.text).toBe(422);
    expect((await read()).status).toBe(404);
  });

  it('answers 405 with an Allow header to other methods on the unsubscribe route', async () => {
    const reply = await t.call('GET', '/webhooks/subscription/unsubscribe');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('DELETE');
    expect(reply.json).toHaveProperty('message');
  });

  it('refuses unsubscribe without a token and keeps the subscription', async () => {
    expect((await subscribe('https://hooks.example.test/kept')).status).toBe(201);
    const reply = await t.call('DELETE', '/webhooks/subscription/unsubscribe', { authorization: null });
    expect(reply.status).toBe(401);
    expect((await read()).json.items.url).toBe('https://hooks.example.test/kept');
  });
});
