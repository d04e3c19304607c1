import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RunTransport } from '../../src/execute/run-transport.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import { Pacer } from '../../src/client/pacer.ts';
import { FakeClock } from '../support/fake-clock.ts';

/**
 * A plain-HTTP target that answers 429 (with `retryAfter`) to the calls whose numbers are in
 * `refused`, and 200 to the rest; each call's arrival is noted on `clock` (the transport's).
 */
async function limitedTarget(refused: ReadonlySet<number>, retryAfter: string | null, clock: FakeClock): Promise<{ origin: string; calls: number[]; server: Server }> {
  const calls: number[] = [];
  const server = createServer((req, res) => {
    calls.push(clock.now());
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

/** The transport with its pacer and its resend's wait on `clock`. */
function transportFor(origin: string, windowMs: number, clock: FakeClock): RunTransport {
  const profile = defaultProfile();
  return new RunTransport({
    origin,
    profile: { ...profile, rate_limit: { ...profile.rate_limit, limit: 60, window: windowMs } },
    token: 'run-transport-test-token',
    insecure: false,
    allowPlainHttp: true,
    pacer: new Pacer({ limit: 60, windowMs, clock }),
    progress: null,
    clock,
  });
}

/** Real I/O on loopback, time on the clock: how long `run` may wait for a socket in real time. */
const IO = { timeoutMs: 10_000 };

describe('RunTransport.send: an unintended 429 of a paced call (on a controlled clock)', () => {
  it('waits for Retry-After, sends the call once more, and hands the check the second answer; the 429 stays counted', async () => {
    const clock = new FakeClock(1_800_000_000_000);
    const target = await limitedTarget(new Set([2]), '1', clock);
    servers.push(target.server);
    const transport = transportFor(target.origin, 500, clock);
    expect((await clock.run(transport.send({ method: 'GET', path: '/users' }), IO)).response?.status).toBe(200);
    const resent = await clock.run(transport.send({ method: 'GET', path: '/users' }), IO);
    expect(resent.response?.status).toBe(200);
    expect(target.calls).toHaveLength(3);
    // Retry-After's second, and the pacer's guard of 25 ms: exactly, on the clock.
    expect(target.calls[2]! - target.calls[1]!).toBe(1000 + 25);
    expect(transport.made).toBe(3);
    expect(transport.monitor.resent).toEqual([{ exchangeId: 2, waitMs: 1000 + 25 }]);
    expect(transport.monitor.unintended429).toBe(1);
    const monitor = transport.monitor.check(60, 500, 'clockcheck run --only rate-limit');
    expect(monitor.notes?.join('\n')).toMatch(/1 × 429 outside the rate-limit checks sent once more after the target's Retry-After .*exchanges #2/);
    await transport.close();
  });

  it('waits one window without Retry-After, and a second 429 stands', async () => {
    const clock = new FakeClock(1_800_000_000_000);
    const target = await limitedTarget(new Set([1, 2]), null, clock);
    servers.push(target.server);
    const transport = transportFor(target.origin, 300, clock);
    const answer = await clock.run(transport.send({ method: 'GET', path: '/users' }), IO);
    expect(answer.response?.status).toBe(429);
    expect(target.calls).toHaveLength(2);
    // One window and the pacer's guard.
    expect(target.calls[1]! - target.calls[0]!).toBe(300 + 25);
    expect(transport.monitor.resent).toEqual([{ exchangeId: 1, waitMs: 300 + 25 }]);
    expect(transport.monitor.unintended429).toBe(2);
    await transport.close();
  });

  it('waits at most two windows, whatever Retry-After says', async () => {
    const clock = new FakeClock(1_800_000_000_000);
    const target = await limitedTarget(new Set([1]), '3600', clock);
    servers.push(target.server);
    const transport = transportFor(target.origin, 300, clock);
    expect((await clock.run(transport.send({ method: 'GET', path: '/users' }), IO)).response?.status).toBe(200);
    expect(target.calls[1]! - target.calls[0]!).toBe(2 * 300 + 25);
    await transport.close();
  });

  it('never resends a 429 the rate-limit phase provoked', async () => {
    const clock = new FakeClock(1_800_000_000_000);
    const target = await limitedTarget(new Set([1]), '0', clock);
    servers.push(target.server);
    const transport = transportFor(target.origin, 300, clock);
    const poll = await clock.run(transport.call((request) => transport.send(request), { method: 'GET', path: '/users' }, 'poll'), IO);
    expect(poll.response?.status).toBe(429);
    expect(target.calls).toHaveLength(1);
    expect(transport.monitor.resent).toHaveLength(0);
    expect(clock.now()).toBe(1_800_000_000_000);
    await transport.close();
  });
});
