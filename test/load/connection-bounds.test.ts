import { afterAll, describe, expect, it } from 'vitest';
import { runAutocannon, type AutocannonRunOptions } from '../../src/load/autocannon-run.ts';
import { CertificatePin } from '../../src/tls/certificate-pin.ts';
import { TargetClient } from '../../src/client/client.ts';
import { ClockcheckError } from '../../src/errors.ts';
import { startHostileTarget, type HostileMode, type HostileTarget } from '../support/hostile-target.ts';

const TOKEN = 'tok-bounds-41c9e0d2';
const targets: HostileTarget[] = [];

afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

async function target(mode: HostileMode, hostileOn: 'bursts' | 'after-first' = 'bursts'): Promise<HostileTarget> {
  const started = await startHostileTarget({ mode, token: TOKEN, hostileOn });
  targets.push(started);
  return started;
}

function burst(t: HostileTarget, extra: Partial<AutocannonRunOptions> = {}): AutocannonRunOptions {
  return {
    origin: t.origin,
    apiPrefix: '/api/public',
    token: TOKEN,
    tls: { caPem: t.tls.caPem, insecure: false },
    requests: [{ method: 'GET', path: '/users' }],
    connections: 2,
    amount: 8,
    keepExchanges: true,
    sampleIntervalMs: 10,
    timeoutSeconds: 2,
    stopOnFailure: true,
    maxDurationSeconds: 20,
    userAgent: 'clockcheck/test',
    ...extra,
  };
}

/** Heap and external memory now, after a full collection when exposed (vitest runs without --expose-gc: then as is). */
function memoryBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

describe('a burst holds the target to the same bounds as the client, and stops at its first broken call', () => {
  it.each([
    ['endless-headers', 'RESPONSE_TOO_LARGE', /the response head exceeded 16384 bytes/],
    ['negative-length', 'OTHER', /Content-Length is not one number of bytes: "-1"/],
    ['interim-flood', 'OTHER', /more than 16 interim \(1xx\) responses came before a final one/],
    ['endless-chunked', 'RESPONSE_TOO_LARGE', /the response body exceeded 1048576 bytes/],
  ] as const)('%s: cut at once, nothing kept as an answer, memory flat', async (mode, code, message) => {
    const t = await target(mode);
    const before = memoryBytes();
    const started = Date.now();
    const run = await runAutocannon(burst(t, { cutBodyBytes: 2 ** 20 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.failure?.code).toBe(code);
    expect(run.failure?.message).toMatch(message);
    expect(run.exchanges).toEqual([]);
    expect(run.unanswered).toBeGreaterThan(0);
    expect(run.cut).toBeGreaterThan(0);
    // Before the bounds, one burst against endless headers grew by gigabytes.
    expect(memoryBytes() - before).toBeLessThan(64 * 2 ** 20);
  });

  it('answers held open: the burst stops at the first call past its deadline, and says what the wait cost', async () => {
    const t = await target('held-open');
    const started = Date.now();
    const run = await runAutocannon(burst(t, { amount: 20 }));
    // Before: 20 calls over 2 connections waited out one deadline each, in turn (10 deadlines).
    expect(Date.now() - started).toBeLessThan(2_000 + 2_500);
    expect(run.failure).toEqual({ code: 'EXCHANGE_TIMEOUT', message: 'no complete answer within 2 s' });
    expect(run.stalledMs).toBeGreaterThanOrEqual(2_000);
  });

  it('without stopOnFailure (load), a broken connection is counted and replaced until the run ends', async () => {
    const t = await target('endless-headers');
    const run = await runAutocannon(burst(t, { amount: undefined, durationSeconds: 1, stopOnFailure: false, keepExchanges: false }));
    expect(run.cut).toBeGreaterThan(2);
    expect(run.result.errors).toBeGreaterThanOrEqual(run.cut);
    expect(run.failure?.code).toBe('RESPONSE_TOO_LARGE');
  });

  it('a load (no stopOnFailure) that nothing answers ends at its idle stop, says so, and counts every call it sent as unanswered', async () => {
    const t = await target('held-open');
    const started = Date.now();
    const run = await runAutocannon(burst(t, { amount: 500, stopOnFailure: false, keepExchanges: false, timeoutSeconds: 1, idleStopSeconds: 2 }));
    expect(Date.now() - started).toBeLessThan(2_000 + 2_500);
    expect(run.stoppedEarly).toEqual({ code: 'EXCHANGE_TIMEOUT', message: 'nothing was answered for 2 s' });
    expect(run.result.non2xx + run.result['2xx']).toBe(0);
    expect(run.unanswered).toBeGreaterThan(0);
  });

  it('an honest 100 Continue and 103 Early Hints before each answer: each call gets its own answer, not an interim one', async () => {
    const t = await target('early-hints');
    const run = await runAutocannon(burst(t));
    expect(run.failure).toBeNull();
    expect(run.exchanges.map((e) => e.response?.status)).toEqual(Array(8).fill(200));
    expect(run.exchanges.every((e) => e.response?.json !== undefined)).toBe(true);
  });
});

describe('under --insecure the run pins the certificate it saw first, on every connection', () => {
  it('a burst whose connection presents another certificate than the pinned one sends nothing on it', async () => {
    const t = await target('error-500');
    const pin = new CertificatePin();
    expect(pin.check('00:11:22:33')).toBeNull(); // pinned: a certificate the target does not present
    const attempt = runAutocannon(burst(t, { tls: { insecure: true, pin } }));
    await expect(attempt).rejects.toThrow(ClockcheckError);
    await expect(attempt).rejects.toThrow(/presented another certificate .* nothing was sent/);
    expect(t.received).toEqual([]);
  });

  it('the same certificate passes, on the client and the burst alike', async () => {
    const t = await target('error-500');
    const client = new TargetClient({ origin: t.origin, apiPrefix: '/api/public', token: TOKEN, tls: { insecure: true }, timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 }, maxResponseBytes: 1024, userAgent: 't' });
    try {
      expect((await client.send({ method: 'GET', path: '/users' })).response?.status).toBe(500);
      const run = await runAutocannon(burst(t, { tls: { insecure: true, pin: client.certificatePin! } }));
      expect(run.exchanges.length).toBe(8);
    } finally {
      await client.close();
    }
  });

  it("the client's next connection after the target swapped its certificate is refused before the request is written", async () => {
    const t = await target('cert-swap', 'after-first');
    const pin = new CertificatePin();
    const options = { origin: t.origin, apiPrefix: '/api/public', token: TOKEN, tls: { insecure: true, pin }, timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 }, maxResponseBytes: 1024, userAgent: 't' };
    const first = new TargetClient(options);
    expect((await first.send({ method: 'GET', path: '/users' })).response?.status).toBe(200); // the target swaps after it
    await first.close();
    const second = new TargetClient(options);
    try {
      const refused = await second.send({ method: 'GET', path: '/users' });
      expect(refused.error?.code).toBe('TLS_ERROR');
      expect(refused.error?.message).toMatch(/presented another certificate/);
      expect(t.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
