import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.ts';
import { rateLimitBacklog } from '../../src/needs/backlog.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';
import { exchangeFor } from '../scenarios/support.ts';

const withHeaders = (headers: Record<string, string>) => exchangeFor({ method: 'GET', path: '/users' }, { status: 200, json: {}, headers });

describe('rateLimitBacklog', () => {
  it('is what the target counted beyond our own calls, by its X-RateLimit headers', () => {
    expect(rateLimitBacklog(withHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '40' }), 1)).toBe(19);
    expect(rateLimitBacklog(withHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' }), 1)).toBe(0);
    expect(rateLimitBacklog(withHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' }), 2)).toBe(0);
  });

  it('is 0 without the headers or with nonsense in them', () => {
    expect(rateLimitBacklog(withHeaders({}), 1)).toBe(0);
    expect(rateLimitBacklog(withHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': 'lots' }), 1)).toBe(0);
    expect(rateLimitBacklog(withHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '70' }), 1)).toBe(0);
    expect(rateLimitBacklog(undefined, 1)).toBe(0);
  });
});

describe('a run right after other calls of the same token (init, another run)', () => {
  it('counts the calls the target already counted, and meets no 429', async () => {
    const server = await startReferenceServer({ rateLimit: { limit: 20, windowMs: 2000 } });
    const agent = new Agent({ connect: { ca: server.tls.caPem } });
    try {
      for (let i = 0; i < 15; i++) {
        const answer = await request(`${server.origin}/api/public/users`, { headers: { authorization: server.token }, dispatcher: agent });
        await answer.body.dump();
      }
      const report = await certifyServer(server, withoutBursts(embeddedProfile(server)), { suiteGlob: 'auth.yaml' });
      expect(report.requests.unintended429).toBe(0);
      expect(report.notes.filter((note) => !note.startsWith('isolation between companies was not certified'))).toEqual(['the target had counted 15 earlier calls of this token in its current window (X-RateLimit-Remaining at the preflight); the pacing counted them too']);
      expect(report.exitCode).toBe(0);
    } finally {
      await agent.close();
      await server.close();
    }
  }, 30_000);
});
