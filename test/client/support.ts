import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { TargetClientOptions } from '../../src/client/client.ts';

/** A small local server for one misbehaviour. */
export interface LocalServer {
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

async function listening(server: Server | ReturnType<typeof createNetServer>, sockets: Set<Socket>): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTPS server with the given handler and identity. */
export function startHttpsServer(
  tls: TlsIdentity,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  return listening(server, sockets);
}

/** A TCP server that runs `onSocket` for each connection (no TLS at all). */
export function startTcpServer(onSocket: (socket: Socket) => void): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  return listening(server, sockets);
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = await startTcpServer(() => undefined);
  await server.close();
  return server.port;
}

export const identity: Promise<TlsIdentity> = generateTlsIdentity();

/** The token every test client uses against the misbehaving servers; shorter than 8 on purpose is tested elsewhere. */
export const TEST_TOKEN = 'Secret-Token/42+abc=';

/** Options for a client of `origin` that trusts `caPem`, with short test timeouts. */
export function clientOptions(origin: string, caPem: string | undefined, overrides: Partial<TargetClientOptions> = {}): TargetClientOptions {
  return {
    origin,
    apiPrefix: '/api/public',
    token: TEST_TOKEN,
    tls: caPem === undefined ? { insecure: false } : { caPem, insecure: false },
    timeouts: { connectMs: 500, headersMs: 500, bodyMs: 500 },
    maxResponseBytes: 1024 * 1024,
    userAgent: 'clockcheck-test',
    ...overrides,
  };
}

/** The exchange, serialized, shows the token in none of its usual forms. */
export function expectNoToken(exchange: Exchange, token: string): void {
  const text = JSON.stringify(exchange);
  for (const form of [token, encodeURIComponent(token), Buffer.from(token).toString('base64')]) expect(text).not.toContain(form);
}
