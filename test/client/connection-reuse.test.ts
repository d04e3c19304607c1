import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TargetClient } from '../../src/client/client.ts';
import { clientOptions, identity, startHttpsServer } from './support.ts';

describe('TargetClient connections', () => {
  it('reuses its connections: a HEAD costs one new connection, not one per later call', async () => {
    const tls = await identity;
    const sockets = new Set<Socket>();
    const server = await startHttpsServer(tls, (request, response) => {
      sockets.add(request.socket);
      request.resume();
      request.on('end', () => {
        response.writeHead(request.method === 'POST' ? 422 : 200, { 'content-type': 'application/json' });
        response.end(request.method === 'HEAD' ? undefined : '{"items":[]}');
      });
    });
    const client = new TargetClient(clientOptions(server.origin, tls.caPem));
    try {
      // undici never reuses a connection after a HEAD. With an Agent, a HEAD on the only connection
      // made every later call open a connection of its own (274 handshakes for 1004 calls of a
      // certification); a Pool keeps a few connections whatever the number of calls.
      await client.send({ method: 'HEAD', path: '/users' });
      for (let i = 0; i < 40; i++) {
        await client.send(i % 2 === 0 ? { method: 'POST', path: '/schedules', json: { i } } : { method: 'GET', path: '/breaks' });
      }
      expect(sockets.size).toBeLessThanOrEqual(5);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
