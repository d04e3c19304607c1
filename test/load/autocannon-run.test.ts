import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { runAutocannon } from '../../src/load/autocannon-run.ts';
import { generateTlsIdentity } from '../../src/tls/certificate.ts';

describe('runAutocannon', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ rateLimit: { limit: 10, windowMs: 60_000 } });
  });
  afterAll(() => server.close());

  it('records every call of a burst as a redacted exchange with its own timing', async () => {
    const run = await runAutocannon({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      requests: [{ method: 'GET', path: '/users?page_size=1' }, { method: 'GET', path: '/breaks' }],
      connections: 4,
      amount: 14,
      keepExchanges: true,
      sampleIntervalMs: 20,
      userAgent: 'clockcheck/test',
      firstExchangeId: 100,
    });
    expect(run.exchanges).toHaveLength(14);
    expect(run.unanswered).toBe(0);
    const statuses = run.exchanges.map((e) => e.response?.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const limited = run.exchanges.find((e) => e.response?.status === 429)!;
    expect(limited.response?.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.response?.json).toEqual({ message: 'Too Many Attempts.' });
    const served = run.exchanges.filter((e) => e.response?.status === 200);
    // Each connection cycles the request list from the first, so both URLs were used.
    expect(new Set(run.exchanges.map((e) => new URL(e.request.url).pathname))).toEqual(new Set(['/api/public/users', '/api/public/breaks']));
    for (const e of served) {
      const list = e.request.url.includes('/users') ? 'users' : 'breaks';
      expect(e.response?.json, list).toBeTypeOf('object');
    }
    expect(run.exchanges.every((e) => e.id > 100 && e.durationMs > 0 && e.sentAtMs >= run.firstSentAtMs!)).toBe(true);
    const text = JSON.stringify(run.exchanges);
    expect(text).not.toContain(server.token);
    expect(run.exchanges[0]!.request.headers.authorization).toBe('[REDACTED]');
  });

  it('stops at maxDurationSeconds when the target never answers, and reports each latency by status', async () => {
    const silent = await generateTlsIdentity(['localhost']);
    const held = new Set<tls.TLSSocket>();
    const mute = tls.createServer({ key: silent.keyPem, cert: silent.certPem }, (socket) => {
      held.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const port = (mute.address() as { port: number }).port;
    try {
      const started = Date.now();
      const run = await runAutocannon({
        origin: `https://localhost:${port}`,
        apiPrefix: '/api/public',
        token: 'secret-token-value',
        tls: { caPem: silent.caPem, insecure: false },
        requests: [{ method: 'GET', path: '/users' }],
        connections: 2,
        amount: 10,
        maxDurationSeconds: 1,
        sampleIntervalMs: 50,
        keepExchanges: false,
        userAgent: 'clockcheck/test',
      });
      expect(run.cappedByDuration).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(run.unanswered).toBe(2);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
    const seen: [number, number][] = [];
    await runAutocannon({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      requests: [{ method: 'GET', path: '/users?page_size=1' }],
      connections: 2,
      amount: 6,
      sampleIntervalMs: 20,
      keepExchanges: false,
      userAgent: 'clockcheck/test',
      onResponse: (status, latencyMs) => seen.push([status, latencyMs]),
    });
    expect(seen).toHaveLength(6);
    expect(seen.every(([status, ms]) => (status === 200 || status === 429) && ms > 0)).toBe(true);
  });

  it('refuses a server whose certificate does not verify, and the token never reaches it', async () => {
    const other = await generateTlsIdentity(["localhost"]);
    const received: Buffer[] = [];
    const impostor = tls.createServer({ key: other.keyPem, cert: other.certPem }, (socket) => {
      socket.on('data', (d) => received.push(d));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const port = (impostor.address() as { port: number }).port;
    try {
      await expect(
        runAutocannon({
          origin: `https://127.0.0.1:${port}`,
          apiPrefix: '/api/public',
          token: 'secret-token-value',
          tls: { caPem: server.tls.caPem, insecure: false },
          requests: [{ method: 'GET', path: '/users' }],
          connections: 2,
          amount: 4,
          keepExchanges: true,
      sampleIntervalMs: 20,
          userAgent: 'clockcheck/test',
        }),
      ).rejects.toThrow(/TLS error.*nothing was sent/);
      expect(Buffer.concat(received).toString()).not.toContain('secret-token-value');
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  });
});
