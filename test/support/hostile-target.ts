import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
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
 */
export type HostileMode = 'trickle' | 'deep-json' | 'wide-json' | 'error-500' | 'stops-answering' | 'goes-silent' | 'redirect';

export const HOSTILE_MODES: readonly HostileMode[] = ['trickle', 'deep-json', 'wide-json', 'error-500', 'stops-answering', 'goes-silent', 'redirect'];

export interface HostileTargetOptions {
  readonly mode: HostileMode;
  /** The token the preflight accepts (raw, §5.2). */
  readonly token: string;
  /** Calls served normally before `stops-answering` / `goes-silent` begin; default 20. */
  readonly servedCalls?: number;
  /** Where `redirect` sends every call; default `http://elsewhere.invalid`. */
  readonly redirectTo?: string;
  readonly tls?: TlsIdentity;
}

export interface HostileTarget {
  readonly origin: string;
  readonly tls: TlsIdentity;
  /** Requests received, in order, with the Authorization header they carried. */
  readonly received: ReadonlyArray<{ readonly method: string; readonly url: string; readonly authorization: string | undefined }>;
  close(): Promise<void>;
}

const EMPTY_LIST = JSON.stringify({ meta_data: { page: 1, page_size: 50, total: 0 }, items: [] });

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

  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    res.on('error', () => {});
    const first = received.length === 1;
    const json = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
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
      case 'deep-json':
        return json(200, first ? EMPTY_LIST : deep);
      case 'wide-json':
        return json(200, first ? EMPTY_LIST : wide);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    tls,
    received,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      if (!listening) return;
      listening = false;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
