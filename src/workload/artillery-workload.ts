import { yamlPackage } from '../input/yaml-package.ts';
import { UsageError } from '../errors.ts';
import type { Profile } from '../profile/profile.ts';
import { fixturesContext } from '../properties/profile-context.ts';
import type { CreatedTimesheet } from './flow-bodies.ts';
import { FlowBodies } from './flow-bodies.ts';
import type { WorkloadThreshold } from './workload-ensure.ts';
import type { FlowStep, FlowValue, RequestStep, Workload } from './workload-file.ts';
import { WORKLOAD_OPERATIONS, type WorkloadOperationModel, type WorkloadOperationName } from './workload-operations.ts';

/** What `load --workload … --export artillery` writes a script from. */
export interface WorkloadExportInput {
  readonly workload: Workload;
  /** `https://host[:port]`: Artillery's `config.target`. */
  readonly origin: string;
  readonly apiPrefix: string;
  /** The variable that holds the token when Artillery runs. */
  readonly tokenEnv: string;
  readonly tls: { readonly caPem?: string | undefined; readonly insecure: boolean };
  /** Fixtures, company timezone, id_pointer: the bodies and the captures. */
  readonly profile: Profile;
  readonly seed: number;
  readonly ensure: readonly WorkloadThreshold[];
  readonly toolVersion: string;
  readonly file: string;
}

export interface WorkloadExport {
  readonly yaml: string;
  /** What of the clockcheck run has no Artillery form, `what: why`; also in the script's comment. */
  readonly unmapped: readonly string[];
}

/** metrics-by-endpoint's names, with `useOnlyRequestNames`: a request's `name`, the operation. */
const METRICS = 'plugins.metrics-by-endpoint';

/** What a clockcheck workload run does that Artillery cannot. */
const ALWAYS_UNMAPPED = [
  "the judging of sampled answers (shapes, formats, pagination blocks): Artillery checks statuses and captures only; run clockcheck grade on a HAR of the traffic, or clockcheck load --workload against the same server",
  'the lost-write read-back after the load: Artillery does not read back what it wrote; every e-mail this script sends carries the run marker below, so `clockcheck load --workload` on the same target reads back its own',
  'the default checks per operation (no 5xx, every request answered) are ensure conditions over the whole run here: metrics-by-endpoint counts codes per operation, not transport errors',
];

/**
 * Where a create answer's ID is, as the JSONPath Artillery captures with: the profile's id_pointer
 * (`/data/id` → `$.data.id`), else the first `id` from the root down (`$..id`: at the top, or one
 * envelope deep, as clockcheck reads it; §4.4's break in `items`, an object or a one-element array).
 */
function jsonPath(pointer: string | undefined, kind: 'break' | 'other'): string {
  if (kind === 'break' || !pointer) return '$..id';
  return `$${pointer
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')}`;
}

const template = (name: string) => `{{ ${name} }}`;

function flowValue(value: FlowValue): unknown {
  return 'capture' in value ? template(value.capture) : value.literal;
}

/** `--ensure` latency thresholds per operation as Artillery's ensure checks on metrics-by-endpoint; the rest listed in `unmapped`. */
function artilleryEnsure(ensure: readonly WorkloadThreshold[], unmapped: string[]): { thresholds: Record<string, number>[]; conditions: { expression: string }[] } {
  const thresholds: Record<string, number>[] = [];
  const conditions: { expression: string }[] = [];
  for (const t of ensure) {
    const th = t.threshold;
    if (t.operation === null || !['p50', 'p90', 'p95', 'p99', 'max', 'mean'].includes(th.quantity)) {
      unmapped.push(`--ensure ${t.text}: only latency thresholds on one operation are exported (metrics-by-endpoint keeps each operation's response times and codes)`);
      continue;
    }
    const metric = `${METRICS}.response_time.${t.operation}.${th.quantity}`;
    if (th.operator === '<') thresholds.push({ [metric]: th.limit });
    else conditions.push({ expression: `${metric} ${th.operator} ${th.limit}` });
  }
  return { thresholds, conditions };
}

/** One request step as Artillery's: URL with its captures, the operation as its name, the token from the environment, the body with unique e-mails, the capture. */
function artilleryRequest(step: RequestStep, timesheets: Map<string, CreatedTimesheet>, input: WorkloadExportInput, bodies: FlowBodies, marker: string): unknown {
  const model = WORKLOAD_OPERATIONS[step.operation] as WorkloadOperationModel;
  const path = step.pathCapture === null ? model.path : model.path.replace(/\{[a-z_]+\}/, template(step.pathCapture));
  const params: Record<string, unknown> = { url: `${input.apiPrefix}${path}`, name: step.operation, headers: { Authorization: `{{ $env.${input.tokenEnv} }}` } };
  if (Object.keys(step.query).length > 0) params.qs = step.query;
  if (step.ids) {
    params.json = { ids: step.ids.map(flowValue) };
    // A GET with a body: got refuses one unless allowed (Artillery 2.0.21 hands the step's options to got).
    params.allowGetBody = true;
  }
  if (model.method !== 'GET') {
    const fields = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, 'capture' in v ? 0 : v.literal]));
    const captured = step.with.timesheet_id;
    const timesheet = captured && 'capture' in captured ? timesheets.get(captured.capture) : undefined;
    const body = bodies.body(step.operation as Exclude<WorkloadOperationName, 'GET /users' | 'GET /timesheets' | 'GET /breaks'>, { fields, ...(timesheet ? { timesheet } : {}), ...(step.slice ? { slice: step.slice } : {}) });
    if (body === null) throw new UsageError(`load --export artillery: ${step.operation}: the timesheet is too short for its breaks`);
    for (const [k, v] of Object.entries(step.with)) body[k] = flowValue(v);
    if (typeof body.email === 'string') body.email = `clockcheck.${marker}.{{ $randomString(16) }}@example.com`;
    if (typeof body.company_employee_id === 'string') body.company_employee_id = `${marker}-{{ $randomString(12) }}`;
    params.json = body;
    if (step.as !== null && model.creates === 'timesheet') timesheets.set(step.as, { id: 0, start: String(body.start), end: String(body.end) });
  }
  if (step.as !== null) params.capture = [{ json: jsonPath(input.profile.id_pointer, model.creates === 'break' ? 'break' : 'other'), as: step.as }];
  return { [model.method.toLowerCase()]: params };
}

/**
 * The Artillery 2.x script of a workload (open model): the same phases (arrivalRate, rampTo,
 * maxVusers for max_in_flight), scenarios and weights, flows with their captures (`capture: json`)
 * and think times, each request named by its operation for metrics-by-endpoint, and the `--ensure`
 * thresholds as ensure checks on the per-operation metrics. Bodies are clockcheck's generated ones
 * (seeded), static as Artillery sends them, with each e-mail and employee ID made unique per virtual
 * user by `$randomString`. The token is read from the environment when Artillery runs.
 * @throws UsageError for a closed-model workload (Artillery's phases start virtual users at a rate).
 */
export function workloadArtilleryScript(input: WorkloadExportInput): WorkloadExport {
  const { workload, profile } = input;
  const arrival = workload.arrival;
  if (arrival.model !== 'open') {
    throw new UsageError('load --workload --export artillery: Artillery starts virtual users at a rate (an open model); give the workload an open arrival, or --rate R, to export it');
  }
  const marker = `cc${input.seed.toString(36)}`;
  const bodies = new FlowBodies(fixturesContext(profile, marker), input.seed, marker);
  const unmapped = [...ALWAYS_UNMAPPED];
  const steps = (flow: readonly FlowStep[]) => {
    const timesheets = new Map<string, CreatedTimesheet>();
    const out: unknown[] = [];
    for (const [i, step] of flow.entries()) {
      if (step.kind === 'think') {
        out.push({ think: step.ms / 1000 });
        continue;
      }
      out.push(artilleryRequest(step, timesheets, input, bodies, marker));
      const next = flow[i + 1];
      if (workload.thinkMs > 0 && next !== undefined && next.kind !== 'think') out.push({ think: workload.thinkMs / 1000 });
    }
    return out;
  };
  if (workload.scenarios.some((s) => s.flow.some((st) => st.kind === 'request' && st.operation === 'POST /timesheets' && !('user_id' in st.with)))) {
    unmapped.push("a timesheet of a fixture user: Artillery sends the same static body in every flow, so those timesheets share one interval (a server that refuses overlapping timesheets answers 4xx); clockcheck draws each anew");
  }
  const { thresholds, conditions } = artilleryEnsure(input.ensure, unmapped);
  const tls = !input.origin.startsWith('https:') ? null : input.tls.insecure ? { rejectUnauthorized: false } : input.tls.caPem ? { certificateAuthority: input.tls.caPem } : null;
  const script = {
    config: {
      target: input.origin,
      ...(tls === null ? {} : { tls }),
      http: { timeout: 10 },
      phases: arrival.phases.map((p, i) => ({
        name: `phase ${i + 1}`,
        duration: p.durationMs / 1000,
        arrivalRate: p.rate,
        ...(p.rampTo === null ? {} : { rampTo: p.rampTo }),
        maxVusers: arrival.maxInFlight,
      })),
      plugins: {
        'metrics-by-endpoint': { useOnlyRequestNames: true },
        ...(thresholds.length + conditions.length > 0 ? { ensure: { ...(thresholds.length > 0 ? { thresholds } : {}), ...(conditions.length > 0 ? { conditions } : {}) } } : {}),
      },
    },
    scenarios: workload.scenarios.map((s) => ({ name: s.name, weight: s.weight, flow: steps(s.flow) })),
  };
  const doc = new (yamlPackage().Document)(script);
  doc.commentBefore = [
    ` clockcheck ${input.toolVersion} load --workload ${workload.name} --export artillery (seed ${input.seed}, run marker ${marker} in every e-mail).`,
    ` Run: ${input.tokenEnv}=<token> artillery run --output report.json ${input.file}`,
    ` then: clockcheck load --workload ... --from-artillery report.json renders it per operation.`,
    ' The token is not in this file: Authorization is the raw token (spec 5.2), read from the environment when Artillery runs.',
    ' Arrival: the same phases (arrivalRate, rampTo); max_in_flight as maxVusers. Requests are named by their operation (metrics-by-endpoint).',
    '',
    ' Not in this script:',
    ...unmapped.map((line) => `   - ${line}`),
  ].join('\n');
  // Every string quoted: Artillery reads YAML 1.1, where an unquoted 2015-03-08T13:23:07-05:00 is a timestamp (sent as a UTC instant).
  return { yaml: doc.toString({ lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }), unmapped };
}
