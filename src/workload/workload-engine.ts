import { setMaxListeners } from 'node:events';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { sleepUntil, within, type Clock } from '../clock.ts';
import type { Profile } from '../profile/profile.ts';
import { readCreatedId, unusableIdReason, type CreatedKind, type RecordId } from '../records/created-id.ts';
import { ServedLatency } from '../load/served-latency.ts';
import { arrivalSpanMs, arrivalTimes } from './arrival.ts';
import type { CreatedTimesheet, FlowBodies } from './flow-bodies.ts';
import { OperationStats } from './operation-stats.ts';
import type { FlowValue, RequestStep, Workload, WorkloadScenario } from './workload-file.ts';
import { WORKLOAD_OPERATIONS, type WorkloadOperationModel, type WorkloadOperationName } from './workload-operations.ts';

/** A record the load created or edited with a 2xx: what was sent, for the read-back after the load. */
export interface WrittenByLoad {
  readonly kind: CreatedKind;
  readonly id: RecordId;
  readonly operation: WorkloadOperationName;
  readonly body: Readonly<Record<string, unknown>>;
  /** The exchange's ID within the run. */
  readonly exchangeId: number;
}

/** Records of writes the load keeps at most for its read-back (a million bodies would be too many to keep and to read). */
export const MAX_KEPT_WRITES = 100_000;

export interface WorkloadEngineOptions {
  readonly workload: Workload;
  readonly clock: Clock;
  /** Sends one request through the run's bounded client and returns its exchange (never throws for the target's behaviour). */
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly bodies: FlowBodies;
  readonly profile: Pick<Profile, 'id_pointer'>;
  /** Picks the scenarios (with the weights) and nothing else: the same seed, the same sequence of scenarios. */
  readonly seed: number;
  /** After the arrivals end: how long flows still in flight may go on before their remaining steps are cut. */
  readonly graceMs: number;
  /** Each exchange as it comes, with its operation (the sampled judging). */
  readonly onExchange?: (operation: WorkloadOperationName, exchange: Exchange) => void;
}

/** What one scenario's flows did. */
export interface ScenarioOutcome {
  readonly name: string;
  readonly weight: number;
  started: number;
  /** Every step answered 2xx. */
  completed: number;
  /** Stopped at a step that was not answered 2xx (what follows depends on it), by reason. */
  readonly stopped: Map<string, number>;
  /** Steps not sent because the run's grace ran out. */
  cutAtEnd: number;
  /** Each completed flow's length (its think times included). */
  readonly durations: ServedLatency;
}

export interface WorkloadOutcome {
  readonly startMs: number;
  /** When the last answer came (or the grace ended). */
  readonly endMs: number;
  readonly operations: ReadonlyMap<WorkloadOperationName, OperationStats>;
  readonly total: OperationStats;
  readonly scenarios: readonly ScenarioOutcome[];
  /** Open model: arrivals scheduled, started, and dropped because max_in_flight flows were in flight. */
  readonly arrivals: { readonly scheduled: number; readonly started: number; readonly dropped: number };
  readonly written: readonly WrittenByLoad[];
  /** Writes answered 2xx beyond MAX_KEPT_WRITES: not kept, so not read back. */
  readonly writesNotKept: number;
}

/** mulberry32: a small seeded PRNG for the choice of scenarios. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks a scenario by weight. */
function picker(scenarios: readonly WorkloadScenario[], random: () => number): () => number {
  const total = scenarios.reduce((n, s) => n + s.weight, 0);
  return () => {
    let r = random() * total;
    for (const [i, s] of scenarios.entries()) {
      r -= s.weight;
      if (r < 0) return i;
    }
    return scenarios.length - 1;
  };
}

interface Captured {
  readonly id: RecordId;
  readonly timesheet?: CreatedTimesheet;
}

const isSuccess = (exchange: Exchange) => exchange.error === undefined && exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300;

const resolve = (value: FlowValue, captures: ReadonlyMap<string, Captured>): unknown => ('capture' in value ? captures.get(value.capture)!.id : value.literal);

/** The request of one step, with what the flow captured so far; null for a break whose timesheet is too short to slice. */
function requestOf(step: RequestStep, captures: ReadonlyMap<string, Captured>, bodies: FlowBodies): TargetRequest | null {
  const model = WORKLOAD_OPERATIONS[step.operation] as WorkloadOperationModel;
  const path = step.pathCapture === null ? model.path : model.path.replace(/\{[a-z_]+\}/, String(captures.get(step.pathCapture)!.id));
  const query = Object.keys(step.query).length > 0 ? Object.fromEntries(Object.entries(step.query).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])) : undefined;
  if (model.method === 'GET') {
    const ids = step.ids?.map((v) => resolve(v, captures));
    return { method: 'GET', path, ...(query ? { query } : {}), ...(ids ? { json: { ids } } : {}) };
  }
  const fields = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, resolve(v, captures)]));
  const timesheetValue = step.with.timesheet_id;
  const timesheet = timesheetValue && 'capture' in timesheetValue ? captures.get(timesheetValue.capture)?.timesheet : undefined;
  const body = bodies.body(step.operation as Exclude<WorkloadOperationName, 'GET /users' | 'GET /timesheets' | 'GET /breaks'>, { fields, ...(timesheet ? { timesheet } : {}), ...(step.slice ? { slice: step.slice } : {}) });
  return body === null ? null : { method: model.method, path, json: body };
}

/** One run's state: what every flow records into, and the signal that ends the grace. */
class WorkloadExecution {
  readonly startMs: number;
  readonly operations = new Map<WorkloadOperationName, OperationStats>();
  readonly total: OperationStats;
  readonly scenarios: ScenarioOutcome[];
  readonly written: WrittenByLoad[] = [];
  writesNotKept = 0;
  readonly arrivals = { scheduled: 0, started: 0, dropped: 0 };
  readonly stop = new AbortController();
  lastAnswerMs: number;
  readonly pick: () => number;

  constructor(readonly options: WorkloadEngineOptions) {
    this.startMs = options.clock.now();
    this.lastAnswerMs = this.startMs;
    this.total = new OperationStats(this.startMs);
    this.scenarios = options.workload.scenarios.map((s) => ({ name: s.name, weight: s.weight, started: 0, completed: 0, stopped: new Map(), cutAtEnd: 0, durations: new ServedLatency() }));
    this.pick = picker(options.workload.scenarios, seededRandom(options.seed));
    // Every virtual user's think time waits on this signal at once (16 connections: 16 listeners, each
    // let go when its sleep ends): no leak, so Node's warning past 10 would only alarm the user.
    setMaxListeners(0, this.stop.signal);
  }

  statsOf(name: WorkloadOperationName): OperationStats {
    let stats = this.operations.get(name);
    if (!stats) this.operations.set(name, (stats = new OperationStats(this.startMs)));
    return stats;
  }

  /** One request step: sent, measured, kept when it wrote; null when the flow goes on, else why it stops. */
  async step(step: RequestStep, captures: Map<string, Captured>): Promise<string | null> {
    const { clock, send, bodies, profile } = this.options;
    const built = requestOf(step, captures, bodies);
    if (built === null) return `${step.operation}: the timesheet is too short for its breaks`;
    const stats = this.statsOf(step.operation);
    stats.sent();
    this.total.sent();
    const exchange = await send(built);
    stats.add(exchange);
    this.total.add(exchange);
    this.lastAnswerMs = Math.max(this.lastAnswerMs, clock.now());
    this.options.onExchange?.(step.operation, exchange);
    if (!isSuccess(exchange)) return `${step.operation} ${exchange.response ? `answered ${exchange.response.status}` : `failed: ${exchange.error?.code ?? 'no answer'}`}`;
    const model = WORKLOAD_OPERATIONS[step.operation] as WorkloadOperationModel;
    const kind = model.creates ?? model.edits;
    if (kind === undefined) return null;
    const read = readCreatedId(exchange.response?.json, profile, kind);
    const id = model.edits ? captures.get(step.pathCapture!)!.id : read.kind === 'id' ? read.id : null;
    if (id === null) return `${step.operation} answered 2xx: ${unusableIdReason(read)}`;
    const body = (built.json ?? {}) as Record<string, unknown>;
    if (this.written.length < MAX_KEPT_WRITES) this.written.push({ kind, id, operation: step.operation, body, exchangeId: exchange.id });
    else this.writesNotKept++;
    if (step.as !== null) captures.set(step.as, { id, ...(kind === 'timesheet' ? { timesheet: { id, start: String(body.start), end: String(body.end) } } : {}) });
    return null;
  }

  /** One flow of the scenario at `index`, step by step, until it ends, stops or is cut. */
  async flow(index: number): Promise<void> {
    const { clock, workload } = this.options;
    const scenario = workload.scenarios[index]!;
    const outcome = this.scenarios[index]!;
    outcome.started++;
    const began = clock.now();
    const captures = new Map<string, Captured>();
    for (const [i, step] of scenario.flow.entries()) {
      if (this.stop.signal.aborted) {
        outcome.cutAtEnd++;
        return;
      }
      if (step.kind === 'think') {
        await clock.sleep(step.ms, this.stop.signal);
        continue;
      }
      const stopped = await this.step(step, captures);
      if (stopped !== null) {
        outcome.stopped.set(stopped, (outcome.stopped.get(stopped) ?? 0) + 1);
        return;
      }
      const next = scenario.flow[i + 1];
      if (workload.thinkMs > 0 && next !== undefined && next.kind !== 'think') await clock.sleep(workload.thinkMs, this.stop.signal);
    }
    outcome.completed++;
    outcome.durations.add(200, clock.now() - began);
  }

  outcome(): WorkloadOutcome {
    const { startMs, operations, total, scenarios, arrivals, written, writesNotKept } = this;
    return { startMs, endMs: Math.max(this.lastAnswerMs, startMs), operations, total, scenarios, arrivals, written, writesNotKept };
  }
}

/** Open model: each arrival at its time starts a flow, unless max_in_flight are in flight (then it is dropped). */
async function openArrivals(run: WorkloadExecution, arrival: Extract<Workload['arrival'], { model: 'open' }>, inFlight: Set<Promise<void>>): Promise<void> {
  const { clock } = run.options;
  for (const offset of arrivalTimes(arrival.phases)) {
    await sleepUntil(clock, run.startMs + offset);
    run.arrivals.scheduled++;
    if (inFlight.size >= arrival.maxInFlight) {
      run.arrivals.dropped++;
      continue;
    }
    run.arrivals.started++;
    const flow = run.flow(run.pick()).finally(() => inFlight.delete(flow));
    inFlight.add(flow);
  }
}

/** Closed model: each connection runs flows back to back until the time is up or max_flows have started. */
function closedArrivals(run: WorkloadExecution, arrival: Extract<Workload['arrival'], { model: 'closed' }>, inFlight: Set<Promise<void>>, endMs: number): void {
  const { clock } = run.options;
  let flows = 0;
  const connection = async () => {
    while (!run.stop.signal.aborted && clock.now() < endMs && flows < arrival.maxFlows) {
      flows++;
      run.arrivals.scheduled++;
      run.arrivals.started++;
      await run.flow(run.pick());
    }
  };
  for (let c = 0; c < arrival.connections; c++) {
    const vu = connection().finally(() => inFlight.delete(vu));
    inFlight.add(vu);
  }
}

/**
 * Runs a workload: flows arrive (open model: on a schedule that does not wait for the target; closed
 * model: each connection starts its next flow when its last one ends), each step a request through
 * `send`, measured per operation and in total. A flow stops at its first answer that is not 2xx (the
 * steps after it use what it would have created). After the arrivals, flows in flight get
 * `graceMs`; then their remaining steps are not sent (cut at the end, counted). Time comes from
 * `clock`, so the arrival logic runs exactly on a controlled one.
 */
export async function runWorkload(options: WorkloadEngineOptions): Promise<WorkloadOutcome> {
  const { workload, clock } = options;
  const run = new WorkloadExecution(options);
  const inFlight = new Set<Promise<void>>();
  const endOfArrivals = run.startMs + arrivalSpanMs(workload.arrival);
  if (workload.arrival.model === 'open') await openArrivals(run, workload.arrival, inFlight);
  else closedArrivals(run, workload.arrival, inFlight, endOfArrivals);
  await sleepUntil(clock, endOfArrivals);
  // The flows in flight finish within the grace; then their steps not yet sent are cut.
  await within(clock, Promise.all([...inFlight]), Math.max(0, endOfArrivals + options.graceMs - clock.now()));
  run.stop.abort();
  // What is still in flight is a request each, bounded by the client's exchange timeout.
  await Promise.all([...inFlight]);
  return run.outcome();
}
