import autocannon from 'autocannon';
import { startReferenceServer } from '../src/reference/server.ts';
import { embeddedProfile } from '../src/embedded/embedded-profile.ts';
import { defaultWorkload } from '../src/workload/default-workload.ts';
import { runWorkloadLoad } from '../src/workload/workload-run.ts';
import type { RatioFigures } from './load-vs-autocannon.ts';
import type { ThroughputFigures } from './reference-throughput.ts';

/**
 * The default workload (`load --workload default`, closed model) against plain autocannon's
 * single-URL figure (GET /breaks), on the same reference server (limit raised), connections and
 * duration; and what judging the default sample (1 answer in 20 per operation, every one not 2xx)
 * costs: the workload with the sample against the same without (`--sample none`). The runs go
 * none, sample, sample, none, so drift favours neither. The workload's requests/s counts every
 * answered request of its flows (writes among them) over the load; its read-back after the load
 * is not in the rate.
 */
export async function workloadVersusAutocannon(options: { readonly durationSeconds: number; readonly connections: number }): Promise<(ThroughputFigures | RatioFigures)[]> {
  const server = await startReferenceServer({ rateLimit: { limit: 1_000_000, windowMs: 1000 } });
  const profile = embeddedProfile({ ...server, rateLimit: null });
  const base = defaultWorkload();
  // Without its think times (a virtual user that thinks sends nothing): what the engine sends when every connection is kept busy.
  const workload = {
    ...base,
    scenarios: base.scenarios.map((s) => ({ ...s, flow: s.flow.filter((step) => step.kind !== 'think') })),
    arrival: { model: 'closed' as const, connections: options.connections, durationMs: options.durationSeconds * 1000, maxFlows: 1_000_000 },
  };
  const plain = async (): Promise<ThroughputFigures> => {
    const r = await autocannon({ url: `${server.origin}/api/public/breaks`, connections: options.connections, duration: options.durationSeconds, headers: { authorization: server.token, accept: 'application/json' } });
    return { label: 'plain', requestsPerSecond: r.requests.average, latencyP50Ms: r.latency.p50, latencyP99Ms: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors };
  };
  const run = async (sampleEvery: number): Promise<ThroughputFigures> => {
    const report = await runWorkloadLoad({
      origin: server.origin,
      apiPrefix: '/api/public',
      token: server.token,
      tls: { caPem: server.tls.caPem, insecure: false },
      profile,
      workload,
      seed: 1,
      readOnly: false,
      ensure: [],
      rateLimit: null,
      embedded: true,
      toolVersion: 'bench',
      runId: 'bench',
      sampleEvery,
      replay: 'bench',
    });
    const t = report.total;
    return { label: 'workload', requestsPerSecond: t.requestsPerSecond, latencyP50Ms: t.latencyServedMs?.p50 ?? 0, latencyP99Ms: t.latencyServedMs?.p99 ?? 0, total: t.completed, non2xx: t.completed - t.counts.status2xx, errors: t.counts.errors };
  };
  const mean = (figures: readonly ThroughputFigures[], label: string): ThroughputFigures => {
    const avg = (pick: (f: ThroughputFigures) => number) => figures.reduce((sum, f) => sum + pick(f), 0) / figures.length;
    return { label, requestsPerSecond: avg((f) => f.requestsPerSecond), latencyP50Ms: avg((f) => f.latencyP50Ms), latencyP99Ms: avg((f) => f.latencyP99Ms), total: figures.reduce((n, f) => n + f.total, 0), non2xx: figures.reduce((n, f) => n + f.non2xx, 0), errors: figures.reduce((n, f) => n + f.errors, 0) };
  };
  try {
    await plain(); // warm up the server and the JIT
    const bare = await plain();
    const none = [await run(0)];
    const sampled = [await run(20), await run(20)];
    none.push(await run(0));
    const withSample = mean(sampled, `load --workload default without think times (closed, ${options.connections} conn., sample 1/20; 2 runs)`);
    const without = mean(none, 'the same, --sample none (2 runs)');
    return [
      { ...bare, label: `plain autocannon, GET /breaks, ${options.connections} conn.` },
      withSample,
      without,
      { label: 'workload (sample 1/20) / plain autocannon (req/s)', ratio: withSample.requestsPerSecond / bare.requestsPerSecond },
      { label: 'cost of judging the sample: 1 - (sample 1/20 / none) (req/s)', ratio: 1 - withSample.requestsPerSecond / without.requestsPerSecond },
    ];
  } finally {
    await server.close();
  }
}
