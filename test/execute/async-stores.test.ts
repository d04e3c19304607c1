import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.ts';
import { RunTransport } from '../../src/execute/run-transport.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import { call } from '../ratelimit/synthetic.ts';

/**
 * On Node 20 every AsyncLocalStorage that ever ran stays in the list each new async resource is
 * propagated through: one store per run made the selftest (hundreds of runs in one process) slower
 * with each run (81 stores: async work 11 times slower). The pacer and the transport keep one
 * store each for all their instances.
 */
const originalRun = AsyncLocalStorage.prototype.run;
afterEach(() => {
  AsyncLocalStorage.prototype.run = originalRun;
});

function storesThatRun(): Set<AsyncLocalStorage<unknown>> {
  const seen = new Set<AsyncLocalStorage<unknown>>();
  AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof originalRun>) {
    seen.add(this);
    return originalRun.apply(this, args) as ReturnType<typeof originalRun>;
  } as typeof originalRun;
  return seen;
}

describe('the async stores of runs', () => {
  it('are shared by every pacer and every transport, however many runs a process makes', async () => {
    const seen = storesThatRun();
    for (let i = 0; i < 5; i++) {
      const pacer = new Pacer({ limit: 60, windowMs: 1000 });
      const transport = new RunTransport({ origin: 'https://127.0.0.1:9', profile: defaultProfile(), token: 'not-a-token-for-a-test', insecure: false, allowPlainHttp: false, pacer, progress: null });
      let inside = false;
      const send = async () => {
        inside = transport.provoking && pacer.inUnpaced;
        return call(0, 200);
      };
      await pacer.unpaced(() => transport.call(send, { method: 'GET', path: '/users' }, 'boundary'));
      // Each store still tells its own instance: the call was the phase's and unpaced; outside it, neither.
      expect([inside, transport.provoking, pacer.inUnpaced]).toEqual([true, false, false]);
      await transport.close();
    }
    expect(seen.size).toBe(2);
  });
});
