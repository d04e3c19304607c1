import { afterEach, describe, expect, it } from 'vitest';
import { TargetClient, type TargetClientOptions } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import {
  clientOptions,
  closedPort,
  expectNoToken,
  identity,
  startHttpsServer,
  startTcpServer,
  TEST_TOKEN,
  type LocalServer,
} from './support.ts';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A client of `server` that trusts the test CA; closed after the test. */
async function clientOf(server: { origin: string }, overrides: Partial<TargetClientOptions> = {}): Promise<TargetClient> {
  const client = new TargetClient(clientOptions(server.origin, (await identity).caPem, overrides));
  cleanups.push(() => client.close());
  return client;
}

async function serve(handler: Parameters<typeof startHttpsServer>[1]): Promise<LocalServer> {
  const server = await startHttpsServer(await identity, handler);
  cleanups.push(() => server.close());
  return server;
}

/** Sends one GET and checks the common promises: no token in the record, done well within `withinMs`. */
async function getOnce(client: TargetClient, withinMs = 2000): Promise<Exchange> {
  const started = performance.now();
  const exchange = await client.send({ method: 'GET', path: '/users', query: { echo: TEST_TOKEN } });
  expect(performance.now() - started).toBeLessThan(withinMs);
  expectNoToken(exchange, TEST_TOKEN);
  return exchange;
}

describe('TargetClient against misbehaving servers: errors are data, never hangs', () => {
  it('reports HEADERS_TIMEOUT when the server accepts and never answers', async () => {
    const server = await serve(() => undefined);
    const exchange = await getOnce(await clientOf(server, { timeouts: { connectMs: 500, headersMs: 300, bodyMs: 500 } }));
    expect(exchange.error?.code).toBe('HEADERS_TIMEOUT');
    expect(exchange.response).toBeUndefined();
    expect(exchange.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('reports BODY_TIMEOUT with the part received when the body stalls after the headers', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"items":[');
    });
    const exchange = await getOnce(await clientOf(server, { timeouts: { connectMs: 500, headersMs: 500, bodyMs: 300 } }));
    expect(exchange.error?.code).toBe('BODY_TIMEOUT');
    expect(exchange.response).toMatchObject({ status: 200, body: '{"items":[', bodyTruncated: true });
    expect(exchange.response?.json).toBeUndefined();
  });

  it('reports CONNECTION_RESET when the server destroys the socket mid-response', async () => {
    const server = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"items":', () => setTimeout(() => request.socket.destroy(), 20));
    });
    const exchange = await getOnce(await clientOf(server));
    expect(exchange.error?.code).toBe('CONNECTION_RESET');
    expect(exchange.response?.bodyTruncated).toBe(true);
    expect(exchange.response?.json).toBeUndefined();
  });

  it('reports CONNECTION_RESET when the server closes the connection before any answer', async () => {
    const server = await serve((request) => request.socket.destroy());
    const exchange = await getOnce(await clientOf(server));
    expect(exchange.error?.code).toBe('CONNECTION_RESET');
    expect(exchange.response).toBeUndefined();
  });

  it('records a text/html answer with no JSON and no error', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>garbage {</body></html>');
    });
    const exchange = await getOnce(await clientOf(server));
    expect(exchange.error).toBeUndefined();
    expect(exchange.response).toMatchObject({ status: 200, body: '<html><body>garbage {</body></html>', bodyTruncated: false });
    expect(exchange.response?.json).toBeUndefined();
  });

  it('stops reading a streamed 50 MB body at the hard cap: RESPONSE_TOO_LARGE, bounded memory, fast', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (written < 50 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    const client = await clientOf(server, { maxResponseBytes: 256 * 1024, abortResponseBytes: 4 * 1024 * 1024 });
    const heapBefore = process.memoryUsage().heapUsed;
    const exchange = await getOnce(client, 3000);
    expect(exchange.error?.code).toBe('RESPONSE_TOO_LARGE');
    expect(exchange.response).toMatchObject({ status: 200, bodyTruncated: true });
    expect(exchange.response?.body).toHaveLength(256 * 1024);
    expect(exchange.response?.bodyBytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(exchange.response?.bodyBytes).toBeLessThan(5 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(24 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBeLessThan(25 * 1024 * 1024); // the server saw the connection go away
  });

  it('refuses at once a body whose Content-Length is past the hard cap', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      response.write('{"items":[');
    });
    const exchange = await getOnce(await clientOf(server));
    expect(exchange.error?.code).toBe('RESPONSE_TOO_LARGE');
    expect(exchange.response?.bodyBytes).toBe(0);
  });

  it('keeps the first maxResponseBytes of a large body and parses no JSON from a cut body', async () => {
    const big = JSON.stringify({ items: Array.from({ length: 30_000 }, (_, id) => ({ id, name: 'x'.repeat(40) })) });
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(big);
    });
    const exchange = await getOnce(await clientOf(server, { maxResponseBytes: 100_000 }));
    expect(exchange.error).toBeUndefined();
    expect(exchange.response).toMatchObject({ bodyTruncated: true, bodyBytes: Buffer.byteLength(big) });
    expect(exchange.response?.body).toBe(big.slice(0, 100_000));
    expect(exchange.response?.json).toBeUndefined();
  });

  it('reports CONNECTION_REFUSED for a closed port', async () => {
    const port = await closedPort();
    const exchange = await getOnce(await clientOf({ origin: `https://127.0.0.1:${port}` }));
    expect(exchange.error?.code).toBe('CONNECTION_REFUSED');
    expect(exchange.response).toBeUndefined();
  });

  it('reports CONNECT_TIMEOUT when the TLS handshake never completes', async () => {
    const server = await startTcpServer(() => undefined);
    cleanups.push(() => server.close());
    const exchange = await getOnce(await clientOf(server, { timeouts: { connectMs: 300, headersMs: 500, bodyMs: 500 } }));
    expect(exchange.error?.code).toBe('CONNECT_TIMEOUT');
  });

  it('reports TLS_ERROR when the port speaks plain HTTP', async () => {
    const server = await startTcpServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    });
    cleanups.push(() => server.close());
    const exchange = await getOnce(await clientOf(server));
    expect(exchange.error?.code).toBe('TLS_ERROR');
  });

  it('returns a null fingerprint when nothing answers', async () => {
    const port = await closedPort();
    expect(await (await clientOf({ origin: `https://127.0.0.1:${port}` })).tlsFingerprint()).toBeNull();
  });
});
