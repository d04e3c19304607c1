import { randomBytes } from 'node:crypto';
import { TargetClient, DEFAULT_MAX_RESPONSE_BYTES } from '../client/client.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';
import type { RateLimitWindow } from '../load/load-verdict.ts';
import type { Profile } from '../profile/profile.ts';
import { fixturesContext } from '../properties/profile-context.ts';
import { ReadBackWatch } from '../records/read-back/read-back-watch.ts';
import { readBackRequests } from '../records/read-back/read-back-check.ts';
import { AnswerSample, DEFAULT_SAMPLE_EVERY } from './answer-sample.ts';
import { FlowBodies } from './flow-bodies.ts';
import type { WorkloadThreshold } from './workload-ensure.ts';
import { runWorkload } from './workload-engine.ts';
import type { Workload } from './workload-file.ts';
import { buildWorkloadReport, type WorkloadReport } from './workload-report.ts';

/** How long flows still in flight when the arrivals end may go on: then their steps not yet sent are cut. */
export const WORKLOAD_GRACE_MS = 10_000;
/** Requests the read-back may send beyond what its records need (readBackRequests): the rest of a long user list, breaks read alone. */
export const READ_BACK_EXTRA_REQUESTS = 70;
/** Each exchange's deadline under load (load's timeout): no answer in 10 s is a timeout. */
export const WORKLOAD_EXCHANGE_MS = 10_000;

/** Everything a workload run needs: where, with which credentials and trust, the workload, and what to judge. */
export interface WorkloadRunOptions {
  readonly origin: string;
  readonly apiPrefix: string;
  /** Sent raw in `Authorization` (§5.2); never written anywhere. */
  readonly token: string;
  readonly tls: { readonly caPem?: string | undefined; readonly insecure: boolean };
  readonly allowPlainHttp?: boolean;
  /** The fixtures the bodies use, the company timezone, id_pointer. */
  readonly profile: Profile;
  readonly workload: Workload;
  readonly seed: number;
  readonly readOnly: boolean;
  readonly ensure: readonly WorkloadThreshold[];
  readonly rateLimit: RateLimitWindow | null;
  readonly embedded: boolean;
  readonly toolVersion: string;
  readonly runId: string;
  /** One answer in this many per operation is judged, and every answer that is not 2xx (default 20; 0: none). */
  readonly sampleEvery?: number;
  /** The replay command of the run, for the read-back's findings. */
  readonly replay: string;
  readonly clock?: Clock;
}

/**
 * Runs a workload against the target through one bounded client (every connection has its connect,
 * head, body and exchange deadlines and a cap on what it reads) and returns the report with its
 * verdict. Open model: as many connections as flows may be in flight (at most 256); closed model:
 * one per connection.
 */
export async function runWorkloadLoad(run: WorkloadRunOptions): Promise<WorkloadReport> {
  const clock = run.clock ?? SYSTEM_CLOCK;
  const { arrival } = run.workload;
  const nonce = randomBytes(4).readUInt32BE(0).toString(36);
  const options = (connections: number) => ({
    origin: run.origin,
    apiPrefix: run.apiPrefix,
    token: run.token,
    tls: { ...(run.tls.caPem === undefined ? {} : { caPem: run.tls.caPem }), insecure: run.tls.insecure },
    timeouts: { connectMs: Math.min(run.profile.timeouts.connect, WORKLOAD_EXCHANGE_MS), headersMs: WORKLOAD_EXCHANGE_MS, bodyMs: WORKLOAD_EXCHANGE_MS, exchangeMs: WORKLOAD_EXCHANGE_MS },
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    userAgent: `clockcheck/${run.toolVersion} (load)`,
    allowPlainHttp: run.allowPlainHttp ?? false,
    connections,
  });
  const client = new TargetClient(options(Math.min(256, arrival.model === 'closed' ? arrival.connections : arrival.maxInFlight)));
  // The read-back after the load reads one request at a time on a connection of its own, as a lone client of an idle target does
  // (sequential reads spread over the load's pooled connections would look like concurrent clients).
  const idleClient = new TargetClient(options(1));
  const startedAtMs = Date.now();
  const sample = new AnswerSample({ profile: run.profile, given: true }, run.apiPrefix, run.sampleEvery ?? DEFAULT_SAMPLE_EVERY);
  const readBack = new ReadBackWatch(run.profile);
  try {
    const outcome = await runWorkload({
      workload: run.workload,
      clock,
      send: (request) => client.send(request),
      bodies: new FlowBodies(fixturesContext(run.profile, `cc${nonce}`), run.seed, nonce),
      profile: run.profile,
      seed: run.seed,
      graceMs: WORKLOAD_GRACE_MS,
      onExchange: (operation, exchange) => {
        sample.observe(operation, exchange);
        readBack.observe(exchange);
      },
    });
    // After the load (and the profile's settle time, where a record read back differs): every user,
    // timesheet and break written with a 2xx, read back through the lists and compared by meaning.
    const counts = readBack.counts;
    const written = counts.user + counts.timesheet + counts.break;
    // Room for the whole user list after the search, and for breaks read alone: a list the requests cut short proves no write lost.
    const readBackResult = written === 0 ? null : await readBack.check({ send: (request) => idleClient.send(request), profile: run.profile, clock, nonce, maxRequests: readBackRequests(counts) + READ_BACK_EXTRA_REQUESTS, replay: run.replay, missingIsLost: true });
    return buildWorkloadReport(outcome, {
      runId: run.runId,
      toolVersion: run.toolVersion,
      origin: run.origin,
      apiPrefix: run.apiPrefix,
      embedded: run.embedded,
      workload: run.workload,
      seed: run.seed,
      readOnly: run.readOnly,
      ensure: run.ensure,
      rateLimit: run.rateLimit,
      sample: sample.report(),
      readBack: readBackResult,
      startedAtMs,
      finishedAtMs: Date.now(),
    });
  } finally {
    await Promise.all([client.close(), idleClient.close()]);
  }
}
