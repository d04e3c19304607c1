import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { TlsIdentity } from '../../../src/tls/certificate.ts';

/** The header naming the server a request goes to (set by the collection's pre-request script, passed on by Prism). */
export const ROUTE_HEADER = 'x-clockcheck-route';

/**
 * An HTTPS upstream on loopback (a reference server's identity: Prism trusts its CA as it would the
 * server's) that forwards each request to the HTTPS server its route header names (trusting that
 * server's CA): one Prism proxy in front of it serves a Newman run whose iterations each go to
 * another reference server, clean or faulty, instead of one Prism per server.
 */
export interface RoutingUpstream {
  /** `https://127.0.0.1:PORT`: Prism's upstream (add the API prefix), trusted with the identity's CA. */
  readonly origin: string;
  /** Requests with `ROUTE_HEADER: name` go to `origin` (`https://host:port`), trusting `caPem`. */
  route(name: string, origin: string, caPem: string): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', ROUTE_HEADER]);
const passed = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name))) as Record<string, string>;

export async function startRoutingUpstream(tls: TlsIdentity): Promise<RoutingUpstream> {
  const routes = new Map<string, { origin: string; agent: Agent }>();
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const target = routes.get(String(req.headers[ROUTE_HEADER]));
    if (!target) throw new Error(`no route for ${ROUTE_HEADER}: ${req.headers[ROUTE_HEADER]}`);
    const method = (req.method ?? 'GET') as 'GET';
    const answer = await request(`${target.origin}${req.url ?? '/'}`, { method, headers: passed(req.headers), body: method === 'GET' || (method as string) === 'HEAD' ? undefined : req, dispatcher: target.agent });
    res.writeHead(answer.statusCode, passed(answer.headers));
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
  };
  const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
    forward(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`routing upstream: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    route(name, origin, caPem) {
      routes.set(name, { origin, agent: new Agent({ connect: { ca: caPem } }) });
    },
    async close() {
      await Promise.all([...routes.values()].map((r) => r.agent.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
