import autocannon from 'autocannon';
import { startReferenceServer } from '../src/reference/server.ts';
import type { RateLimitSetting } from '../src/contract/rate-limit.ts';

export interface ThroughputFigures {
  readonly label: string;
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

/**
 * Throughput of the reference server on one endpoint, measured with autocannon over HTTPS (loopback).
 * The rate limit is raised, not removed, so the sliding-window bookkeeping is part of the figure.
 */
export async function referenceThroughput(options: {
  readonly path: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly rateLimit: RateLimitSetting | null;
  readonly label: string;
}): Promise<ThroughputFigures> {
  const server = await startReferenceServer({ rateLimit: options.rateLimit });
  try {
    const result = await autocannon({
      url: `${server.origin}${options.path}`,
      connections: options.connections,
      duration: options.durationSeconds,
      headers: { authorization: server.token, accept: 'application/json' },
    });
    return {
      label: options.label,
      requestsPerSecond: result.requests.average,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    await server.close();
  }
}
