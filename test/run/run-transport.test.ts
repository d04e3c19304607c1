import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RunTransport } from '../../src/run/run-transport.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import { Pacer } from '../../src/client/pacer.ts';

/** A plain-HTTP target that answers 429 (with `retryAfter`) to the calls whose numbers are in `refused`, and 200 to the rest. */
async function limitedTarget(refused: ReadonlySet<number>, retryAfter: string | null): Promise<{ origin: string; calls: number[]; server: Server }> {
  const calls: number[] = [];
  const server = createServer((req, res) => {
    calls.push(Date.now());
    const limited = refused.has(calls.length);
    res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited && retryAfter !== null ? { 'retry-after': retryAfter } : {}) });
    res.end(limited ? '{"message":"Too Many Attempts."}' : '{"data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function transportFor(origin: string, windowMs: number): RunTransport {
  const profile = defaultProfile();
  return new RunTransport({
    origin,
    profile: { ...profile, rate_limit: { ...profile.rate_limit, limit: 60, window: windowMs } },
    token: 'run-transport-test-token',
    insecure: false,
    allowPlainHttp: true,
    pacer: new Pacer({ limit: 60, windowMs }),
    progress: null,
  });
}

describe('RunTransport.send: an unintended 429 of a paced call', () => {
  it('waits for Retry-After, sends the call once more, and hands the check the second answer; the 429 stays counted', async () => {
    const target = await limitedTarget(new Set([2]), '1');
    servers.push(target.server);
    const transport = transportFor(target.origin, 500);
    expect((await transport.send({ method: 'GET', path: '/users' })).response?.status).toBe(200);
    const resent = await transport.send({ method: 'GET', path: '/users' });
    expect(resent.response?.status).toBe(200);
    expect(target.calls).toHaveLength(3);
    expect(target.calls[2]! - target.calls[1]!).toBeGreaterThanOrEqual(1000);
    expect(transport.made).toBe(3);
    expect(transport.monitor.resent).toEqual([{ exchangeId: 2, waitMs: 1000 + 25 }]); // Retry-After, and the pacer's guard
    expect(transport.monitor.unintended429).toBe(1);
    const monitor = transport.monitor.check(60, 500, 'clockcheck run --only rate-limit');
    expect(monitor.notes?.join('\n')).toMatch(/1 × 429 outside the rate-limit checks sent once more after the target's Retry-After .*exchanges #2/);
    await transport.close();
  });

  it('waits one window without Retry-After, and a second 429 stands', async () => {
    const target = await limitedTarget(new Set([1, 2]), null);
    servers.push(target.server);
    const transport = transportFor(target.origin, 300);
    const answer = await transport.send({ method: 'GET', path: '/users' });
    expect(answer.response?.status).toBe(429);
    expect(target.calls).toHaveLength(2);
    expect(target.calls[1]! - target.calls[0]!).toBeGreaterThanOrEqual(300);
    expect(transport.monitor.resent).toHaveLength(1);
    expect(transport.monitor.unintended429).toBe(2);
    await transport.close();
  });

  it('never resends a 429 the rate-limit phase provoked', async () => {
    const target = await limitedTarget(new Set([1]), '0');
    servers.push(target.server);
    const transport = transportFor(target.origin, 300);
    const poll = await transport.call((request) => transport.send(request), { method: 'GET', path: '/users' }, 'poll');
    expect(poll.response?.status).toBe(429);
    expect(target.calls).toHaveLength(1);
    expect(transport.monitor.resent).toHaveLength(0);
    await transport.close();
  });
});
