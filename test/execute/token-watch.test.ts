import { describe, expect, it } from 'vitest';
import { RunStopped } from '../../src/errors.ts';
import { TokenWatch } from '../../src/execute/token-watch.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { exchangeFor, type Reply } from '../scenarios/support.ts';

/** A send whose answers come from `reply`, counting the calls. */
function fakeSend(reply: (request: TargetRequest, index: number) => Reply) {
  const sent: TargetRequest[] = [];
  return { sent, send: async (request: TargetRequest) => exchangeFor(request, reply(request, sent.push(request) - 1)) };
}
const refused = (status: number) => status === 401 || status === 403;

describe('TokenWatch', () => {
  it('passes answers through and spends nothing while the token is served', async () => {
    const { send, sent } = fakeSend(() => ({ status: 200, json: {} }));
    const watch = new TokenWatch(send, refused);
    for (let i = 0; i < 5; i++) expect((await watch.send({ method: 'GET', path: '/users' })).response?.status).toBe(200);
    expect(sent).toHaveLength(5);
    expect(watch.stopError()?.reason ?? null).toBeNull();
  });

  it('ignores refusals of requests that were not signed with the token (the auth checks send those on purpose)', async () => {
    const { send, sent } = fakeSend((r) => ({ status: r.auth === 'none' || typeof r.auth === 'object' ? 401 : 200 }));
    const watch = new TokenWatch(send, refused);
    await watch.send({ method: 'GET', path: '/users', auth: 'none' });
    await watch.send({ method: 'GET', path: '/users', auth: { raw: 'wrong' } });
    expect(sent).toHaveLength(2);
    expect(watch.stopError()?.reason ?? null).toBeNull();
  });

  it('confirms a refusal of a signed request with one GET /users and goes on when that is served', async () => {
    const { send, sent } = fakeSend((r) => ({ status: r.method === 'POST' ? 403 : 200 }));
    const watch = new TokenWatch(send, refused);
    expect((await watch.send({ method: 'POST', path: '/users', json: {} })).response?.status).toBe(403);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /users', 'GET /users']);
    expect(watch.stopError()?.reason ?? null).toBeNull();
  });

  it('spends at most three confirmations in a run', async () => {
    const { send, sent } = fakeSend((r) => ({ status: r.method === 'POST' ? 401 : 200 }));
    const watch = new TokenWatch(send, refused);
    for (let i = 0; i < 6; i++) await watch.send({ method: 'POST', path: '/users', json: {} });
    expect(sent.filter((r) => r.method === 'GET')).toHaveLength(3);
  });

  it('stops the run when the confirmation is refused too: this send and every later one throw RunStopped', async () => {
    const { send, sent } = fakeSend((_r, index) => ({ status: index >= 2 ? 401 : 200 }));
    const watch = new TokenWatch(send, refused);
    await watch.send({ method: 'GET', path: '/breaks' });
    await watch.send({ method: 'GET', path: '/breaks' });
    const stop = await watch.send({ method: 'GET', path: '/timesheets' }).catch((e: unknown) => e);
    expect(stop).toBeInstanceOf(RunStopped);
    expect((stop as RunStopped).reason).toMatch(/^the token was refused from exchange \d+ on \(GET \S+\/timesheets answered 401, and GET \/users, served at the preflight, answered 401 in exchange \d+\): it was revoked or expired during the run/);
    expect(watch.stopError()?.reason ?? null).toBe((stop as RunStopped).reason);
    await expect(watch.send({ method: 'GET', path: '/users' })).rejects.toBeInstanceOf(RunStopped);
    expect(sent).toHaveLength(4);
  });
});
