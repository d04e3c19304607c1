import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClockcheckError } from '../../src/errors.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { TargetClient, type TargetClientOptions } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { REDACTED } from '../../src/client/redaction.ts';
import { expectNoToken } from './support.ts';

let server: ReferenceServer;
let client: TargetClient;
const heard: Exchange[] = [];

function options(overrides: Partial<TargetClientOptions> = {}): TargetClientOptions {
  return {
    origin: server.origin,
    apiPrefix: '/api/public',
    token: server.token,
    tls: { caPem: server.tls.caPem, insecure: false },
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    maxResponseBytes: 1024 * 1024,
    userAgent: 'clockcheck-test/1',
    ...overrides,
  };
}

beforeAll(async () => {
  server = await startReferenceServer({ rateLimit: null });
  client = new TargetClient(options({ onExchange: (exchange) => heard.push(exchange) }));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('TargetClient against the reference server', () => {
  it('sends a GET with a JSON body (GET /breaks takes ids)', async () => {
    const exchange = await client.send({ method: 'GET', path: '/breaks', json: { ids: [1, 2] } });
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    const json = exchange.response?.json as { items: Array<{ id: number }> };
    expect(json.items.map((item) => item.id).sort()).toEqual([1, 2]);
    expect(exchange.request.body).toBe('{"ids":[1,2]}');
    expect(exchange.request.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'clockcheck-test/1',
      authorization: REDACTED,
    });
    expectNoToken(exchange, server.token);
  });

  it('sends a POST and records the response', async () => {
    const user = { first_name: 'Cli', last_name: 'Ent', email: `client-${Date.now()}@clockcheck.test`, password: 'Valid-pass1' };
    const exchange = await client.send({ method: 'POST', path: '/users', json: user });
    expect(exchange.response?.status).toBe(201);
    expect(exchange.response?.headers['content-type']).toMatch(/^application\/json/);
    expect(exchange.response?.bodyTruncated).toBe(false);
    expect(exchange.response?.bodyBytes).toBe(Buffer.byteLength(exchange.response?.body ?? ''));
    expect(exchange.response?.json).toMatchObject({ items: { email: user.email } });
    expectNoToken(exchange, server.token);
  });

  it('appends query parameters and follows a pagination link on the same origin', async () => {
    const first = await client.send({ method: 'GET', path: '/users', query: { page_size: 2 } });
    expect(first.request.url).toBe(`${server.origin}/api/public/users?page_size=2`);
    const next = (first.response?.json as { meta_data: { pagination: { next_page_url: string } } }).meta_data.pagination.next_page_url;
    const second = await client.send({ method: 'GET', url: next });
    expect(second.request.url).toBe(next);
    expect((second.response?.json as { meta_data: { pagination: { current_page: number } } }).meta_data.pagination.current_page).toBe(2);
    expectNoToken(second, server.token);
  });

  it('refuses a URL on another origin as misuse', async () => {
    await expect(client.send({ method: 'GET', url: 'https://example.com/api/public/users' })).rejects.toThrow(ClockcheckError);
    await expect(client.send({ method: 'GET', url: `http://${server.origin.slice('https://'.length)}/api/public/users` })).rejects.toMatchObject({
      code: 'CLOCKCHECK_TARGET_DATA',
    });
    expect(client.isSameOrigin(`${server.origin}/x`)).toBe(true);
  });

  it('sends no Authorization with auth "none" and a given value with auth.raw, which it keeps in the record', async () => {
    const none = await client.send({ method: 'GET', path: '/users', auth: 'none' });
    expect(none.response?.status).toBe(401);
    expect(none.request.headers.authorization).toBeUndefined();
    const wrong = await client.send({ method: 'GET', path: '/users', auth: { raw: 'wrong-token' } });
    expect(wrong.response?.status).toBe(401);
    expect(wrong.request.headers.authorization).toBe('wrong-token');
    expectNoToken(wrong, server.token);
  });

  it('redacts the token where the server echoes it (pagination links of a search)', async () => {
    const exchange = await client.send({ method: 'GET', path: '/users', query: { search: server.token } });
    expect(exchange.response?.status).toBe(200);
    expect(exchange.request.url).toBe(`${server.origin}/api/public/users?search=${REDACTED}`);
    const pagination = (exchange.response?.json as { meta_data: { pagination: { first_page_url: string } } }).meta_data.pagination;
    expect(pagination.first_page_url).toContain(REDACTED);
    expectNoToken(exchange, server.token);
  });

  it('numbers exchanges in order, times them, and hands each (redacted) to onExchange', async () => {
    const before = heard.length;
    const [a, b] = [await client.send({ method: 'HEAD', path: '/users' }), await client.send({ method: 'GET', path: '/webhooks/subscription' })];
    expect(b.id).toBe(a.id + 1);
    expect(heard.slice(before)).toEqual([a, b]);
    expect(a.sentAtMs).toBeLessThanOrEqual(b.sentAtMs);
    expect(a.durationMs).toBeGreaterThan(0);
    expect(new Date(a.startedAt).getTime()).toBe(a.sentAtMs);
    expect(a.response?.body).toBe('');
    for (const exchange of heard) expectNoToken(exchange, server.token);
  });

  it('waits for the pacer before each send', async () => {
    const order: string[] = [];
    const paced = new TargetClient(
      options({
        pacer: {
          acquire: async () => {
            order.push('acquire');
            return { done: () => order.push('done') };
          },
        },
        onExchange: () => order.push('exchange'),
      }),
    );
    await paced.send({ method: 'GET', path: '/users' });
    await paced.send({ method: 'GET', path: '/users' });
    await paced.close();
    expect(order).toEqual(['acquire', 'done', 'exchange', 'acquire', 'done', 'exchange']);
  });

  it('throws after close()', async () => {
    const closing = new TargetClient(options());
    await closing.close();
    await expect(closing.send({ method: 'GET', path: '/users' })).rejects.toMatchObject({ code: 'CLOCKCHECK_INTERNAL' });
  });
});

describe('TargetClient TLS', () => {
  it('reports the fingerprint of the certificate the target presents', async () => {
    expect(await client.tlsFingerprint()).toBe(server.tls.fingerprint256);
  });

  it('fails with TLS_ERROR when the target is not trusted, and has no fingerprint then', async () => {
    const untrusting = new TargetClient(options({ tls: { insecure: false } }));
    const exchange = await untrusting.send({ method: 'GET', path: '/users' });
    expect(exchange.error?.code).toBe('TLS_ERROR');
    expect(exchange.response).toBeUndefined();
    expect(await untrusting.tlsFingerprint()).toBeNull();
    expectNoToken(exchange, server.token);
    await untrusting.close();
  });

  it('accepts any certificate with insecure: true', async () => {
    const insecure = new TargetClient(options({ tls: { insecure: true } }));
    const exchange = await insecure.send({ method: 'GET', path: '/users' });
    expect(exchange.response?.status).toBe(200);
    expect(await insecure.tlsFingerprint()).toBe(server.tls.fingerprint256);
    await insecure.close();
  });

  it('refuses a non-HTTPS origin as misuse', () => {
    expect(() => new TargetClient(options({ origin: 'http://127.0.0.1:1' }))).toThrow(ClockcheckError);
  });
});

describe('TargetClient misuse', () => {
  it('throws ClockcheckError for a request that cannot be sent, with the token redacted', async () => {
    const error = await client
      .send({ method: 'GET', path: `/users`, headers: { 'x-bad': `${server.token}\r\ninjected: 1` } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClockcheckError);
    expect(error).toMatchObject({ code: 'CLOCKCHECK_TARGET_DATA' });
    expect((error as Error).message).not.toContain(server.token);
  });

  it.each(['/users/1 && x', '/users/日本', '/users/1\nx', '/users/x\u0000y'])(
    'refuses a path undici cannot send (%j) before the pacer and the pool, which then answer the next request as usual',
    async (path) => {
      const one = new TargetClient(options({ connections: 1 }));
      await expect(one.send({ method: 'PUT', path, json: {} })).rejects.toMatchObject({ code: 'CLOCKCHECK_TARGET_DATA', message: expect.stringMatching(/cannot be sent: PUT ".*" holds ".*" in its path/) });
      // undici 7 refuses such a request too, but its one-connection pool then leaves the next pending forever, past its abort.
      const next = await one.send({ method: 'GET', path: '/users' });
      expect(next.response?.status).toBe(200);
      await one.close();
    },
  );

  it('refuses json and rawBody together', async () => {
    await expect(client.send({ method: 'POST', path: '/users', json: {}, rawBody: '{' })).rejects.toMatchObject({ code: 'CLOCKCHECK_INTERNAL' });
  });

  it('sends a raw body as it is', async () => {
    const exchange = await client.send({ method: 'POST', path: '/users', rawBody: '{"first_name": ' });
    expect(exchange.request.body).toBe('{"first_name": ');
    expect(exchange.response?.status).toBe(400);
  });
});
