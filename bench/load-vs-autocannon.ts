import autocannon from 'autocannon';
import { resolveLoadOptions } from '../src/load/load-options.ts';
import { runLoad } from '../src/load/load-run.ts';
import { startReferenceServer } from '../src/reference/server.ts';
import type { ThroughputFigures } from './reference-throughput.ts';

export interface RatioFigures {
  readonly label: string;
  readonly ratio: number;
}

function mean(figures: readonly ThroughputFigures[], label: string): ThroughputFigures {
  const avg = (pick: (f: ThroughputFigures) => number) => figures.reduce((sum, f) => sum + pick(f), 0) / figures.length;
  return {
    label,
    requestsPerSecond: avg((f) => f.requestsPerSecond),
    latencyP50Ms: avg((f) => f.latencyP50Ms),
    latencyP99Ms: avg((f) => f.latencyP99Ms),
    total: figures.reduce((sum, f) => sum + f.total, 0),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
  };
}

/**
 * `clockcheck load`'s run function against plain autocannon, in the same process, on the same
 * reference server (limit raised to 1 000 000 calls a second, so every call is served), endpoint,
 * connections and duration. Both rates are autocannon's mean of its per-second samples, so the
 * ratio shows what the harness's layer costs: TLS verification and runAutocannon's per-call
 * bookkeeping. The runs go plain, load, load, plain (each of the full duration), and each figure is
 * the mean of its two, so a server that slows or speeds up over the bench favours neither.
 */
export async function loadVersusAutocannon(options: { readonly durationSeconds: number; readonly connections: number }): Promise<(ThroughputFigures | RatioFigures)[]> {
  const server = await startReferenceServer({ rateLimit: { limit: 1_000_000, windowMs: 1000 } });
  const plain = async (durationSeconds: number): Promise<ThroughputFigures> => {
    const r = await autocannon({
      url: `${server.origin}/api/public/breaks`,
      connections: options.connections,
      duration: durationSeconds,
      headers: { authorization: server.token, accept: 'application/json' },
    });
    return { label: 'plain', requestsPerSecond: r.requests.average, latencyP50Ms: r.latency.p50, latencyP99Ms: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors };
  };
  const load = async (): Promise<ThroughputFigures> => {
    const report = await runLoad({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      options: resolveLoadOptions({ endpoint: 'GET:/breaks', connections: String(options.connections), duration: `${options.durationSeconds}s` }),
      rateLimit: null,
      embedded: true,
      toolVersion: 'bench',
    });
    const { throughput, latencyMs, requests, counts } = report;
    return { label: 'load', requestsPerSecond: throughput.samples.mean, latencyP50Ms: latencyMs.p50, latencyP99Ms: latencyMs.p99, total: requests.completed, non2xx: counts.non2xx, errors: counts.errors };
  };
  try {
    await plain(2); // warm up the server and the JIT before any figure is taken
    const first = await plain(options.durationSeconds);
    const loads = [await load(), await load()];
    const last = await plain(options.durationSeconds);
    const bare = mean([first, last], `plain autocannon, GET /breaks, ${options.connections} conn. (2 runs)`);
    const harness = mean(loads, `clockcheck load runLoad, same (2 runs)`);
    return [bare, harness, { label: 'clockcheck load / plain autocannon (req/s)', ratio: harness.requestsPerSecond / bare.requestsPerSecond }];
  } finally {
    await server.close();
  }
}
