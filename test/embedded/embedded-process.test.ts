import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { spawnEmbeddedTarget } from '../../src/embedded/embedded-process.ts';
import { embeddedProfile, EMBEDDED_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import { ClockcheckError } from '../../src/errors.ts';

describe('spawnEmbeddedTarget', () => {
  it('starts the reference server in its own process, announces it over IPC and stops it', async () => {
    const target = await spawnEmbeddedTarget({ faults: [], rateLimit: EMBEDDED_RATE_LIMIT, dialect: 'laravel' });
    const agent = new Agent({ connect: { ca: target.caPem } });
    try {
      expect(target.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(target.dialect.name).toBe('laravel');
      expect(target.rateLimit).toEqual(EMBEDDED_RATE_LIMIT);
      const profile = embeddedProfile(target);
      expect(profile.fixtures.active_user_ids).toHaveLength(3);
      expect(profile.rate_limit.window).toBe(1000);
      const res = await request(`${target.origin}/api/public/users`, { headers: { authorization: target.token }, dispatcher: agent });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      // A new limit over IPC, on a fresh limiter: one call a minute, so the second call is refused.
      await target.setRateLimit({ limit: 1, windowMs: 60_000 });
      const statuses = [];
      for (let i = 0; i < 2; i++) {
        const answer = await request(`${target.origin}/api/public/users`, { headers: { authorization: target.token }, dispatcher: agent });
        statuses.push(answer.statusCode);
        await answer.body.dump();
      }
      expect(statuses).toEqual([200, 429]);
    } finally {
      await agent.close();
      await target.close();
    }
    await expect(request(`${target.origin}/api/public/users`, { dispatcher: new Agent({ connect: { ca: target.caPem, timeout: 2000 } }) })).rejects.toThrow();
  }, 60_000);

  it('says why when the server cannot start, with what it printed', async () => {
    const failure = spawnEmbeddedTarget({ faults: ['no-such-fault'], rateLimit: EMBEDDED_RATE_LIMIT });
    await expect(failure).rejects.toBeInstanceOf(ClockcheckError);
    await expect(failure).rejects.toThrow(/exited before it listened .*unknown fault "no-such-fault"/s);
  }, 60_000);
});
