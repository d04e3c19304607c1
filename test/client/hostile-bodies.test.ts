import { afterEach, describe, expect, it } from 'vitest';
import { TargetClient } from '../../src/client/client.ts';
import { startHostileTarget, type HostileMode, type HostileTarget } from '../support/hostile-target.ts';

const TOKEN = 'tok-hostile-bodies-31c9';
let target: HostileTarget | undefined;
let client: TargetClient | undefined;

async function clientFor(mode: HostileMode, exchangeMs = 60_000): Promise<TargetClient> {
  target = await startHostileTarget({ mode, token: TOKEN });
  client = new TargetClient({
    origin: target.origin,
    apiPrefix: '/api/public',
    token: TOKEN,
    tls: { caPem: target.tls.caPem, insecure: false },
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000, exchangeMs },
    maxResponseBytes: 1024 * 1024,
    userAgent: 'clockcheck-test/1',
  });
  await client.send({ method: 'GET', path: '/users' }); // the hostile targets answer the first call like an API
  return client;
}

afterEach(async () => {
  await client?.close();
  await target?.close();
});

describe('TargetClient against bodies no check can judge', () => {
  it('ends an exchange whose body trickles a byte a second at the exchange deadline, with what arrived', async () => {
    const c = await clientFor('trickle', 1500);
    const started = Date.now();
    const exchange = await c.send({ method: 'GET', path: '/users' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(exchange.error).toEqual({ code: 'EXCHANGE_TIMEOUT', message: 'the exchange did not complete within 1500 ms (timeouts.exchange)' });
    expect(exchange.response?.status).toBe(200);
    expect(exchange.response?.json).toBeUndefined();
  });

  it('does not parse 300 KB of JSON nested 150 000 levels deep: json stays undefined, jsonProblem says why', async () => {
    const c = await clientFor('deep-json');
    const exchange = await c.send({ method: 'GET', path: '/users' });
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.bodyBytes).toBe(300_000);
    expect(exchange.response?.json).toBeUndefined();
    expect(exchange.response?.jsonProblem).toBe('nested deeper than 64 levels');
  });

  it('does not parse 1 MB of JSON that holds 500 000 values', async () => {
    const c = await clientFor('wide-json');
    const exchange = await c.send({ method: 'GET', path: '/users' });
    expect(exchange.response?.json).toBeUndefined();
    expect(exchange.response?.jsonProblem).toBe('more than 100000 values');
  });
});
