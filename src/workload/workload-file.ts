import { z } from 'zod';
import { parseDuration } from '../duration.ts';
import { readInputFile } from '../input/input-file.ts';
import { dottedPath, sourceErrorAt, sourceErrorFromIssues } from '../input/source-issue.ts';
import { parseYamlSource, SourceError, type YamlSource } from '../input/yaml-source.ts';
import type { CreatedKind } from '../records/created-id.ts';
import { MAX_DURATION_SECONDS } from '../load/load-options.ts';
import { WORKLOAD_OPERATIONS, WORKLOAD_OPERATION_NAMES, workloadOperationOf, type WorkloadOperationModel, type WorkloadOperationName } from './workload-operations.ts';

/** A workload file is small: a few scenarios of a few steps. */
export const MAX_WORKLOAD_BYTES = 256 * 1024;
/** Caps, so a typo cannot become an hour-long run or a million records. */
export const WORKLOAD_LIMITS = { scenarios: 50, steps: 50, rate: 10_000, inFlight: 1_000, connections: 256, phases: 20, thinkMs: 60_000, maxFlows: 1_000_000, weight: 1_000 } as const;

const CAPTURE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a name of letters, digits and _ (not starting with a digit)');

const durationMs = (max: number, what: string) =>
  z
    .union([z.string(), z.number()])
    .transform((v, ctx) => {
      const ms = typeof v === 'number' ? v * 1000 : parseDuration(v);
      if (ms === null || !Number.isFinite(ms) || ms < 0 || ms > max) {
        ctx.addIssue({ code: 'custom', message: `${what} must be a duration from 0 to ${max / 1000}s (e.g. 500ms, 30s, 2m; a bare number is seconds), got ${JSON.stringify(v)}` });
        return z.NEVER;
      }
      return ms;
    })
    .describe(`A duration from 0 to ${max / 1000}s: 500ms, 30s, 2m (a bare number is seconds).`);

const phaseDuration = durationMs(MAX_DURATION_SECONDS * 1000, 'duration')
  .refine((ms) => ms >= 1000, 'duration must be at least 1s')
  .describe(`How long: 1s to ${MAX_DURATION_SECONDS}s, e.g. 30s or 2m (a bare number is seconds).`);
const rate = z.number().positive('a rate is flows started per second, above 0').max(WORKLOAD_LIMITS.rate);

const queryValue = z.union([z.string(), z.number(), z.boolean()]);

const requestStep = z.strictObject({
  op: z
    .string()
    .describe(`A documented operation: ${WORKLOAD_OPERATION_NAMES.join(', ')}; an edit names the record by its capture, e.g. PUT /users/{{hire}}.`),
  query: z.record(z.string(), queryValue).optional().describe('Query parameters of a list (§4.6): page, page_size, sort, search, date_range, active, role.'),
  ids: z
    .array(z.union([z.number().int(), z.string()]))
    .max(100)
    .optional()
    .describe('GET /breaks: the ids body (§4.4), IDs or captures ("{{lunch}}").'),
  with: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Fields the generated body takes from the flow ("{{capture}}") or as given, on top of what the generators make.'),
  as: identifier.optional().describe("A create's record ID, kept under this name for the rest of the flow: {{name}}."),
});
const thinkStep = z.strictObject({ think: durationMs(WORKLOAD_LIMITS.thinkMs, 'think').describe('A pause of the flow, up to 60s: 100ms, 2s.') });

const scenarioSchema = z.strictObject({
  name: z.string().min(1).max(80).describe('Unique in the workload: the report shows results per scenario.'),
  weight: z.number().int().min(1).max(WORKLOAD_LIMITS.weight).default(1).describe("The scenario's share of the flows started, against the other scenarios' weights."),
  flow: z
    .array(z.union([requestStep, thinkStep]))
    .min(1)
    .max(WORKLOAD_LIMITS.steps)
    .describe('Requests (op) and pauses (think), in order; a flow stops at its first answer that is not 2xx.'),
});

const openArrival = z.strictObject({
  model: z.literal('open').describe("open: flows start on a schedule, whatever the target's speed (no coordinated omission)."),
  phases: z
    .array(
      z.strictObject({
        duration: phaseDuration,
        rate: rate.describe('Flows started per second.'),
        ramp_to: rate.optional().describe('The rate at the end of the phase, reached linearly.'),
      }),
    )
    .min(1)
    .max(WORKLOAD_LIMITS.phases)
    .describe('The phases, one after another.'),
  max_in_flight: z
    .number()
    .int()
    .min(1)
    .max(WORKLOAD_LIMITS.inFlight)
    .default(100)
    .describe("Flows in flight at most (k6's maxVUs): an arrival beyond it is dropped, and counted."),
});
const closedArrival = z.strictObject({
  model: z.literal('closed').describe('closed: connections each run flows back to back; a slow server is sent less.'),
  connections: z.number().int().min(1).max(WORKLOAD_LIMITS.connections).describe('Connections, each running one flow at a time.'),
  duration: phaseDuration,
  max_flows: z
    .number()
    .int()
    .min(1)
    .max(WORKLOAD_LIMITS.maxFlows)
    .default(10_000)
    .describe('Flows started at most over the run (what bounds the records a closed run creates).'),
});

/** A workload file (docs/rate-limit-and-load.md, "The workload file"); docs/workload-schema.json is generated from it. */
export const workloadSchema = z.strictObject({
  name: z.string().min(1).max(80).describe("The workload's name, in the reports."),
  description: z.string().max(2_000).optional().describe('What the workload stands for.'),
  think: durationMs(WORKLOAD_LIMITS.thinkMs, 'think')
    .default(0)
    .describe('A pause after each request step that has none of its own (default 0), up to 60s.'),
  arrival: z.discriminatedUnion('model', [openArrival, closedArrival]).describe('How flows arrive: model open (phases of rates) or closed (connections).'),
  scenarios: z.array(scenarioSchema).min(1).max(WORKLOAD_LIMITS.scenarios).describe('Weighted scenarios, each a flow of documented operations.'),
}).meta({
  title: 'clockcheck workload',
  description: 'A workload for clockcheck load --workload (docs/rate-limit-and-load.md): weighted scenarios, each a flow of documented operations, and how flows arrive.',
});

const WORKLOAD_KEYS = ['name', 'description', 'think', 'arrival', 'model', 'phases', 'duration', 'rate', 'ramp_to', 'max_in_flight', 'connections', 'max_flows', 'scenarios', 'weight', 'flow', 'op', 'query', 'ids', 'with', 'as'];

/** A value a request takes: as written, or from a capture of the flow. */
export type FlowValue = { readonly capture: string } | { readonly literal: unknown };

/** One request of a flow, resolved against the operations. */
export interface RequestStep {
  readonly kind: 'request';
  readonly operation: WorkloadOperationName;
  /** The capture that holds the path's record ID (a PUT). */
  readonly pathCapture: string | null;
  readonly query: Readonly<Record<string, string | number | boolean>>;
  readonly ids: readonly FlowValue[] | null;
  readonly with: Readonly<Record<string, FlowValue>>;
  readonly as: string | null;
  /** For POST /breaks: which of the flow's breaks into the same timesheet this is (0-based), and how many there are: each gets its own slice of the timesheet. */
  readonly slice?: { readonly index: number; readonly of: number };
}

export type FlowStep = RequestStep | { readonly kind: 'think'; readonly ms: number };

export interface WorkloadScenario {
  readonly name: string;
  readonly weight: number;
  readonly flow: readonly FlowStep[];
}

export type Arrival =
  | { readonly model: 'open'; readonly phases: readonly { readonly durationMs: number; readonly rate: number; readonly rampTo: number | null }[]; readonly maxInFlight: number }
  | { readonly model: 'closed'; readonly connections: number; readonly durationMs: number; readonly maxFlows: number };

/** A workload: weighted scenarios, each a flow of documented operations, and how flows arrive. */
export interface Workload {
  readonly name: string;
  readonly description: string | null;
  readonly source: string;
  readonly thinkMs: number;
  readonly arrival: Arrival;
  readonly scenarios: readonly WorkloadScenario[];
}

function flowValue(value: unknown): FlowValue {
  const match = typeof value === 'string' ? CAPTURE.exec(value) : null;
  return match ? { capture: match[1]! } : { literal: value };
}

/** Which field of a created record's body each operation may take from a capture, and of what kind the capture must be. */
const CAPTURED_FIELDS: Partial<Record<WorkloadOperationName, Readonly<Record<string, CreatedKind>>>> = {
  'POST /timesheets': { user_id: 'user' },
  'POST /breaks': { timesheet_id: 'timesheet' },
  'POST /schedules': { assigned_by: 'user' },
};

/**
 * Resolves one scenario's steps: the operations named, the captures defined before use and of the
 * right kind. Throws a SourceError at the step's line.
 */
function resolveScenario(source: YamlSource, index: number, scenario: z.output<typeof scenarioSchema>): WorkloadScenario {
  const captured = new Map<string, CreatedKind>();
  const steps: FlowStep[] = [];
  const breaksInto = new Map<string, number>();
  const at = (i: number, ...rest: (string | number)[]) => ['scenarios', index, 'flow', i, ...rest];
  const fail = (path: (string | number)[], problem: string, hint?: string): never => {
    throw sourceErrorAt(source, { path, problem, ...(hint ? { hint } : {}) });
  };
  const useCapture = (path: (string | number)[], name: string, kind: CreatedKind | null) => {
    const had = captured.get(name);
    if (had === undefined) fail(path, `{{${name}}} is not captured before this step`, `an earlier step of the flow must create it with \`as: ${name}\``);
    if (kind !== null && had !== kind) fail(path, `{{${name}}} holds a ${had}, and a ${kind} goes here`);
  };
  for (const [i, step] of scenario.flow.entries()) {
    if ('think' in step) {
      steps.push({ kind: 'think', ms: step.think });
      continue;
    }
    const resolved = workloadOperationOf(step.op);
    if (resolved === null) fail(at(i, 'op'), `"${step.op}" is not an operation a workload calls`, `one of: ${WORKLOAD_OPERATION_NAMES.join(', ')}`);
    const { name, pathCapture } = resolved!;
    const model = WORKLOAD_OPERATIONS[name] as WorkloadOperationModel;
    if (model.edits) {
      if (pathCapture === null) fail(at(i, 'op'), `${name} edits a record the flow created: write its ID as a capture`, `e.g. ${model.method} ${model.path.replace(/\{[a-z_]+\}/, `{{${model.edits}}}`)}`);
      useCapture(at(i, 'op'), pathCapture!, model.edits!);
    }
    if (step.query && !model.list) fail(at(i, 'query'), `${name} is not a list: it takes no query`);
    if (step.ids && name !== 'GET /breaks') fail(at(i, 'ids'), `only GET /breaks takes ids (§4.4)`);
    if (step.with && model.method === 'GET') fail(at(i, 'with'), `${name} sends no body: \`with\` is for the fields of a create or an edit`);
    if (step.as && !model.creates) fail(at(i, 'as'), `${name} creates no record: only a POST captures its record's ID`);
    const ids = (step.ids ?? []).map((v, k) => {
      const value = flowValue(v);
      if ('capture' in value) useCapture(at(i, 'ids', k), value.capture, 'break');
      else if (typeof value.literal !== 'number') fail(at(i, 'ids', k), `an ID is an integer or a capture {{name}}, got ${JSON.stringify(value.literal)}`);
      return value;
    });
    const withValues: Record<string, FlowValue> = {};
    for (const [field, raw] of Object.entries(step.with ?? {})) {
      const value = flowValue(raw);
      if ('capture' in value) useCapture(at(i, 'with', field), value.capture, CAPTURED_FIELDS[name]?.[field] ?? null);
      withValues[field] = value;
    }
    let slice: RequestStep['slice'];
    if (name === 'POST /breaks') {
      const timesheet = withValues.timesheet_id;
      if (!timesheet || !('capture' in timesheet)) {
        fail(at(i, 'with'), 'POST /breaks puts its break inside a timesheet the flow created', 'give `with: { timesheet_id: "{{timesheet}}" }` after a POST /timesheets with `as: timesheet`');
      }
      const key = (timesheet as { capture: string }).capture;
      slice = { index: breaksInto.get(key) ?? 0, of: 0 };
      breaksInto.set(key, slice.index + 1);
    }
    if (step.as) captured.set(step.as, model.creates!);
    steps.push({ kind: 'request', operation: name, pathCapture, query: step.query ?? {}, ids: step.ids ? ids : null, with: withValues, as: step.as ?? null, ...(slice ? { slice } : {}) });
  }
  // Each break into a timesheet gets its own slice of it: breaks of one timesheet never overlap.
  const flow = steps.map((s) => (s.kind === 'request' && s.slice ? { ...s, slice: { index: s.slice.index, of: breaksInto.get((s.with.timesheet_id as { capture: string }).capture)! } } : s));
  return { name: scenario.name, weight: scenario.weight, flow };
}

/** Parses a workload's YAML text; every error names the file, line and key. */
export function parseWorkload(text: string, file: string): Workload {
  const source = parseYamlSource(text, file);
  const parsed = workloadSchema.safeParse(source.value ?? {});
  if (!parsed.success) throw sourceErrorFromIssues(source, parsed.error.issues, WORKLOAD_KEYS, 'workload key');
  const w = parsed.data;
  const names = new Set<string>();
  for (const [i, s] of w.scenarios.entries()) {
    if (names.has(s.name)) throw new SourceError(file, source.lineOf(['scenarios', i, 'name']), dottedPath(['scenarios', i, 'name']), `"${s.name}" names two scenarios`, 'give each a name of its own: the report shows results per scenario');
    names.add(s.name);
  }
  const arrival: Arrival =
    w.arrival.model === 'open'
      ? { model: 'open', phases: w.arrival.phases.map((p) => ({ durationMs: p.duration, rate: p.rate, rampTo: p.ramp_to ?? null })), maxInFlight: w.arrival.max_in_flight }
      : { model: 'closed', connections: w.arrival.connections, durationMs: w.arrival.duration, maxFlows: w.arrival.max_flows };
  const total = arrival.model === 'open' ? arrival.phases.reduce((n, p) => n + p.durationMs, 0) : arrival.durationMs;
  if (total > MAX_DURATION_SECONDS * 1000) {
    throw new SourceError(file, source.lineOf(['arrival']), 'arrival', `the phases last ${total / 1000}s together, and a load run lasts ${MAX_DURATION_SECONDS}s at most`);
  }
  return {
    name: w.name,
    description: w.description ?? null,
    source: file,
    thinkMs: w.think,
    arrival,
    scenarios: w.scenarios.map((s, i) => resolveScenario(source, i, s)),
  };
}

/** Reads and parses a workload file (at most MAX_WORKLOAD_BYTES). */
export async function loadWorkload(file: string): Promise<Workload> {
  return parseWorkload(await readInputFile(file, file, MAX_WORKLOAD_BYTES, 'workload'), file);
}
