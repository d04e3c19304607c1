import net from 'node:net';
import tls from 'node:tls';
import { transportFailure } from '../../client/transport-error.ts';

/** The minimal view of autocannon's per-connection client that this module relies on (autocannon 9). */
export interface AutocannonClient {
  on(event: 'request', listener: () => void): void;
  on(event: 'headers', listener: (head: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'body', listener: (chunk: Buffer) => void): void;
  on(event: 'response', listener: () => void): void;
  on(event: 'connError' | 'timeout', listener: (error?: Error) => void): void;
  secure: boolean;
  opts: { hostname: string; port: number; servername?: string; tlsOptions: tls.ConnectionOptions };
  conn: net.Socket;
  /** Its queue of requests in flight; `addBody` appends a response's body text (lib/pipelinedRequestsQueue.js). */
  pipelinedRequests: { addBody(data: Buffer): void };
  _connect(): void;
  destroyed: boolean;
}

/**
 * autocannon 9 connects with `rejectUnauthorized: false` whatever `tlsOptions` say, and writes the
 * request (with the token) before the handshake completes. This replaces a client's connect with the
 * same connect but the harness's own trust, so the token only ever goes to a verified server. Without
 * it an admin token could be handed to anyone in the path.
 */
export function verifyingConnect(client: AutocannonClient, insecure: boolean, onTlsFailure: (error: Error) => void): void {
  const plainConnect = client._connect.bind(client);
  client._connect = function connect(this: AutocannonClient) {
    if (!this.secure) return plainConnect();
    const servername = this.opts.servername ?? (net.isIP(this.opts.hostname) ? undefined : this.opts.hostname);
    const conn = tls.connect(this.opts.port, this.opts.hostname, {
      ...this.opts.tlsOptions,
      rejectUnauthorized: !insecure,
      ...(servername === undefined ? {} : { servername }),
    });
    this.conn = conn;
    // The listeners autocannon's own connect adds (lib/httpClient.js `_connect`), in the same order.
    const self = this as unknown as { emit(event: string, ...args: unknown[]): void; parser: { execute(b: Buffer): void }; pipelinedRequests: { addByteCount(n: number): void }; opts: { pipelining: number }; _doRequest(): void };
    conn.on('error', (error: Error) => {
      if (transportFailure(error).code === 'TLS_ERROR') {
        onTlsFailure(error);
        return;
      }
      self.emit('connError', error);
      if (!this.destroyed) this._connect();
    });
    conn.on('data', (chunk: Buffer) => {
      self.pipelinedRequests.addByteCount(chunk.length);
      self.parser.execute(chunk);
    });
    conn.on('end', () => {
      if (!this.destroyed) this._connect();
    });
    for (let i = 0; i < self.opts.pipelining; i++) self._doRequest();
  };
}

/**
 * autocannon 9 appends every body chunk of every response to a string (`req.body += data`, for its
 * `expectBody`/`verifyBody` options, which the harness does not use): a burst of 600 responses of
 * 1 MB held 600 MB of strings until the next full collection. The harness reads bodies itself (the
 * 'body' event, capped), so this makes that append a no-op.
 */
export function keepNoBodyText(client: AutocannonClient): void {
  client.pipelinedRequests.addBody = () => {};
}
