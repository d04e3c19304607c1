import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';

/**
 * The ways a half-finished server misbehaves that a run must survive (issue 10):
 * - `trickle`: after the preflight, headers and then one byte of body a second, forever;
 * - `deep-json`: after the preflight, 300 KB of JSON nested 150 000 levels deep;
 * - `wide-json`: after the preflight, 1 MB of JSON that parses into 500 000 values;
 * - `error-500`: 500 to everything, the preflight included;
 * - `stops-answering`: serves `servedCalls` calls like an empty API, then refuses every connection;
 * - `goes-silent`: serves `servedCalls` calls, then accepts connections and never answers;
 * - `redirect`: 301 to `redirectTo` (same path) for everything, the preflight included.
 *
 * And the ways of issue 24, written as raw bytes on the connection (a server framework would refuse
 * to send them), each once `hostileOn` says so:
 * - `endless-headers`: a status line, then header lines of 1 KiB, as fast as the client reads, forever;
 * - `negative-length`: `Content-Length: -1`;
 * - `held-open`: a head with `Content-Length: 100`, then nothing, the connection held open;
 * - `interim-flood`: `100 Continue` and `103 Early Hints`, one after the other, forever;
 * - `endless-chunked`: a chunked body whose chunks never end, as fast as the client reads;
 * - `cert-swap`: serves like an empty API, but presents another (self-signed) certificate on the
 *   connections made after it (under `after-first`: after the first call);
 * - `stalls-alternate`: every other call is accepted and never answered; the others are served;
 * - `early-hints`: an honest server's interim responses: `100 Continue`, two `103 Early Hints`, then the answer.
 *
 * And the stalls of issue 35, each after a preflight served like an empty API:
 * - `head-stall`: a status line and one header, then silence, the connection held open (the head never ends);
 * - `tls-stall`: every answer closes its connection, and every connection made after the first call
 *   is accepted and never gets a TLS handshake (the ClientHello is read and left unanswered).
 */
export type HostileMode =
  | 'trickle' | 'deep-json' | 'wide-json' | 'error-500' | 'stops-answering' | 'goes-silent' | 'redirect'
  | 'endless-headers' | 'negative-length' | 'held-open' | 'interim-flood' | 'endless-chunked' | 'cert-swap' | 'stalls-alternate' | 'early-hints'
  | 'head-stall' | 'tls-stall';

export const HOSTILE_MODES: readonly HostileMode[] = ['trickle', 'deep-json', 'wide-json', 'error-500', 'stops-answering', 'goes-silent', 'redirect'];

/** The raw modes of issue 24. */
export const CONNECTION_MODES = ['endless-headers', 'negative-length', 'held-open', 'interim-flood', 'endless-chunked', 'cert-swap', 'stalls-alternate', 'early-hints', 'head-stall'] as const satisfies readonly HostileMode[];

export interface HostileTargetOptions {
  readonly mode: HostileMode;
  /** The token the preflight accepts (raw, §5.2). */
  readonly token: string;
  /** Calls served normally before `stops-answering` / `goes-silent` begin; default 20. */
  readonly servedCalls?: number;
  /** Where `redirect` sends every call; default `http://elsewhere.invalid`. */
  readonly redirectTo?: string;
  readonly tls?: TlsIdentity;
  /**
   * Which calls a raw mode (CONNECTION_MODES) answers its way: `after-first` (default) every call after
   * the first; `bursts` only the calls of autocannon's connections (a burst or `load`), told apart by
   * the `Host` header it spells with a capital letter (undici writes `host`) — the run's own client is
   * served like an empty API; `all` every call, the first (a run's preflight) included.
   */
  readonly hostileOn?: 'after-first' | 'bursts' | 'all';
}

export interface HostileTarget {
  readonly origin: string;
  readonly tls: TlsIdentity;
  /** Requests received, in order, with the Authorization header they carried. */
  readonly received: ReadonlyArray<{ readonly method: string; readonly url: string; readonly authorization: string | undefined }>;
  close(): Promise<void>;
}

/** An empty list as §2.5 shapes one: what the target answers before (or instead of) its hostile answers. */
const EMPTY_LIST = JSON.stringify({
  meta_data: {
    pagination: { current_page: 1, first_page_url: 'https://t/?page=1', from: null, last_page: 1, last_page_url: 'https://t/?page=1', next_page_url: null, path: 'https://t/', per_page: 10, prev_page_url: null, to: null, total: 0, options: false },
  },
  items: [],
});

/** Starts a hostile HTTPS target on 127.0.0.1 (a random port). */
export async function startHostileTarget(options: HostileTargetOptions): Promise<HostileTarget> {
  const tls = options.tls ?? (await generateTlsIdentity());
  const received: Array<{ method: string; url: string; authorization: string | undefined }> = [];
  const sockets = new Set<Duplex>();
  const timers = new Set<NodeJS.Timeout>();
  const servedCalls = options.servedCalls ?? 20;
  const deep = `${'['.repeat(150_000)}${']'.repeat(150_000)}`;
  const wide = `[${'1,'.repeat(499_999)}1]`;
  let served = 0;
  let listening = true;
  let swapped = false;
  let hostileCalls = 0;
  const swapTo = options.mode === 'cert-swap' ? await generateTlsIdentity() : null;
  const hostile = (req: IncomingMessage, first: boolean) =>
    options.hostileOn === 'bursts' ? req.rawHeaders.includes('Host') : options.hostileOn === 'all' || !first;

  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    res.on('error', () => {});
    const first = received.length === 1;
    const json = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...(options.mode === 'tls-stall' ? { connection: 'close' } : {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if ((CONNECTION_MODES as readonly string[]).includes(options.mode)) {
      // A swap takes effect on the connections made after the call that triggers it: under `after-first`, after the first call.
      if (options.mode === 'cert-swap' && options.hostileOn !== 'bursts' && first && swapTo) {
        server.setSecureContext({ cert: swapTo.certPem, key: swapTo.keyPem });
        swapped = true;
      }
      if (!hostile(req, first)) return json(200, EMPTY_LIST);
      hostileCalls++;
      if (options.mode === 'cert-swap') {
        if (!swapped && swapTo) {
          server.setSecureContext({ cert: swapTo.certPem, key: swapTo.keyPem });
          // The connections made before the swap are closed once this answer is out: the client must reconnect, and meets the new certificate.
          res.on('finish', () => setTimeout(() => sockets.forEach((s) => s.destroy()), 200));
        }
        swapped = true;
        return json(200, EMPTY_LIST);
      }
      if (options.mode === 'stalls-alternate') return hostileCalls % 2 === 1 ? undefined : json(200, EMPTY_LIST);
      return rawAnswer(options.mode, req.socket, timers);
    }
    switch (options.mode) {
      case 'error-500':
        return json(500, '{"message":"Server Error"}');
      case 'redirect':
        res.writeHead(301, { location: `${options.redirectTo ?? 'http://elsewhere.invalid'}${req.url ?? '/'}`, 'content-length': '0' });
        return res.end();
      case 'stops-answering':
      case 'goes-silent':
        if (served < servedCalls) {
          served++;
          return json(200, EMPTY_LIST);
        }
        if (options.mode === 'goes-silent') return; // accepted, never answered
        if (listening) server.close();
        listening = false;
        for (const socket of sockets) socket.destroy();
        return;
      case 'trickle':
        if (first) return json(200, EMPTY_LIST);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        {
          const timer = setInterval(() => res.write(' '), 1000);
          timers.add(timer);
          res.on('close', () => {
            clearInterval(timer);
            timers.delete(timer);
          });
        }
        return;
      case 'tls-stall':
        return json(200, EMPTY_LIST);
      case 'deep-json':
        return json(200, first ? EMPTY_LIST : deep);
      case 'wide-json':
        return json(200, first ? EMPTY_LIST : wide);
      default:
        return undefined;
    }
  });
  server.on('connection', (socket: Duplex) => {
    if (options.mode === 'stops-answering' && served >= servedCalls) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // tls-stall: a TCP front hands the connections made before the first call to the HTTPS server and
  // holds the later ones open without a handshake.
  const front = options.mode === 'tls-stall'
    ? createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      if (received.length === 0) server.emit('connection', socket);
    })
    : server;
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    origin,
    tls,
    received,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      if (!listening) return;
      listening = false;
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}

/** Writes `next()` on `socket` for as long as it is open, as fast as the peer reads. */
function pour(socket: Duplex, next: () => string): void {
  const write = () => {
    while (!socket.destroyed && socket.writable) {
      if (!socket.write(next())) return void socket.once('drain', write);
    }
  };
  write();
}

/** The raw answer of a connection mode, written on the socket under the server's own response. */
function rawAnswer(mode: string, socket: Duplex, timers: Set<NodeJS.Timeout>): void {
  socket.on('error', () => {});
  const pad = 'x'.repeat(1024);
  let n = 0;
  switch (mode) {
    case 'endless-headers':
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
      return pour(socket, () => `x-pad-${n++}: ${pad}\r\n`);
    case 'negative-length':
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: -1\r\n\r\n[]');
      return;
    case 'held-open':
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n');
      return;
    case 'head-stall':
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
      return;
    case 'interim-flood': {
      const timer = setInterval(() => {
        if (socket.destroyed) return clearInterval(timer);
        for (let i = 0; i < 50; i++) socket.write(n++ % 2 === 0 ? 'HTTP/1.1 100 Continue\r\n\r\n' : 'HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n');
      }, 5);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
      return;
    }
    case 'early-hints':
      socket.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </b.js>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(EMPTY_LIST)}\r\n\r\n${EMPTY_LIST}`);
      return;
    case 'endless-chunked':
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n[\r\n');
      return pour(socket, () => `400\r\n${pad}\r\n`);
  }
}
