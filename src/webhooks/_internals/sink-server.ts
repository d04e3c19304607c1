import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** Connections the sink holds at once. */
const MAX_CONNECTIONS = 128;
/** How long close() lets a connection finish the answer it is writing. */
const CLOSE_GRACE_MS = 1_000;

export interface SinkServerOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly tls?: { readonly certPem: string; readonly keyPem: string };
}

/**
 * An HTTP(S) server for `handle`, bounded (a request must arrive whole within 10 s, at most 128
 * connections at once, a malformed request drops its socket), listening; with its `http(s)://host:port/`.
 */
export async function listenBounded(options: SinkServerOptions, handle: RequestListener): Promise<{ server: Server; url: string }> {
  const server: Server = options.tls ? createHttpsServer({ cert: options.tls.certPem, key: options.tls.keyPem }, handle) : createHttpServer(handle);
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  // Connections open at once: past this, new ones are dropped (no sender can exhaust sockets or memory).
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return { server, url: `${options.tls ? 'https' : 'http'}://${host}:${port}/` };
}

/**
 * Closes the server: answers being written finish (a sender must not see its delivery cut off); idle
 * connections close now, the rest after a grace.
 */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
