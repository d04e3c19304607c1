import { Agent, request } from 'undici';
import { startReferenceServer } from '../src/reference/server.ts';
import { TargetClient } from '../src/client/client.ts';
import { Pacer } from '../src/client/pacer.ts';

export interface LoopFigures {
  readonly label: string;
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
}

/**
 * Sequential requests per second against the reference server (limit raised), one request at a
 * time as a certification run sends them: the harness's TargetClient (pacer with the raised limit,
 * keeping, redaction, JSON parsing) versus a bare undici `request` loop that reads the body.
 */
export async function runnerVersusUndici(options: { readonly durationSeconds: number; readonly path: string }): Promise<LoopFigures[]> {
  const limit = 100_000_000;
  const server = await startReferenceServer({ rateLimit: { limit, windowMs: 60_000 } });
  const url = `${server.origin}/api/public${options.path}`;
  const loop = async (label: string, once: () => Promise<void>): Promise<LoopFigures> => {
    for (let i = 0; i < 200; i++) await once(); // warm up the pool and the JIT
    const started = performance.now();
    const deadline = started + options.durationSeconds * 1000;
    let requests = 0;
    while (performance.now() < deadline) {
      await once();
      requests++;
    }
    const seconds = (performance.now() - started) / 1000;
    return { label, requests, seconds, requestsPerSecond: requests / seconds };
  };
  try {
    const agent = new Agent({ connect: { ca: server.tls.caPem } });
    const bare = await loop('bare undici request loop', async () => {
      const response = await request(url, { dispatcher: agent, headers: { authorization: server.token, accept: 'application/json' } });
      await response.body.json();
    });
    await agent.close();
    const client = new TargetClient({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      timeouts: { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
      maxResponseBytes: 1024 * 1024,
      userAgent: 'clockcheck-bench',
      pacer: new Pacer({ limit, windowMs: 60_000 }),
    });
    const runner = await loop('clockcheck TargetClient (paced, kept, redacted)', async () => {
      await client.send({ method: 'GET', path: options.path });
    });
    await client.close();
    return [bare, runner];
  } finally {
    await server.close();
  }
}
