import { parseJsonExact } from '../contract/json-text.ts';
import { yamlPackage } from '../input/yaml-package.ts';
import type { CheckResult, RunReport } from '../report/model.ts';
import { createdId } from '../records/created-id.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { Scenario } from '../scenarios/format.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { REDACTED } from '../client/redaction.ts';
import { operationFor } from '../contract/operations.ts';
import type { Violation } from '../contract/violation.ts';
import { schemaModeline } from '../input/schema-modeline.ts';

/** The suite name of regressions.yaml: `clockcheck run --suite FILE --only regressions` runs just them. */
export const REGRESSION_SUITE = 'regressions';
/** Where the created resource's ID goes in a regression scenario's later requests. */
const RESOURCE_VAR = 'resource_id';

type Json = Record<string, unknown>;

/** A request of the scenario format (docs/scenario-format.md), as YAML will hold it. */
interface ScenarioRequest {
  method: string;
  path: string;
  json?: unknown;
  raw_body?: string;
  auth?: 'none' | { raw: string };
}

interface RegressionScenario {
  id: string;
  title: string;
  rules: string[];
  mutates: boolean;
  requires?: string[];
  when?: unknown;
  let?: unknown;
  setup?: unknown[];
  steps?: unknown[];
  pair?: unknown;
}

/** One regression scenario and where it came from (a comment above it in the file). */
interface Regression {
  readonly scenario: RegressionScenario;
  readonly origin: string;
}

/**
 * The failing generated cases of a run as a suite of the scenario format: one scenario per failed
 * property family, replaying its smallest counterexample exactly. An invalid case that was accepted
 * (or answered other than 4xx) becomes a minimal pair: an accepted valid case of the same run as
 * the baseline, then the one change to the failing case, which must be rejected under the finding's
 * rule. A valid case that was refused becomes one request that must succeed. A family that needed a
 * resource creates it again first (its ID captured and put where the run's ID was), and e-mails are
 * fresh (`{{ unique.email }}`) unless the rule is about the e-mail, so the suite can run again on
 * the same target. null when the run has no failing generated case.
 */
export function regressionSuite(report: RunReport, scenarios: readonly LoadedScenario[] = []): string | null {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const regressions = report.checks.flatMap((check) => {
    const regression = check.source.kind === 'scenario' ? scenarioRegression(check, byId.get(check.id)) : propertyRegression(check, report);
    return regression ? [regression] : [];
  });
  if (regressions.length === 0) return null;
  const suite = {
    suite: REGRESSION_SUITE,
    description: `What failed in clockcheck run ${report.runId} against ${report.target.embedded ? 'the embedded reference server' : report.target.baseUrl}: each failing generated case as a minimal pair, each failed variant of a scenario with its baseline`,
    scenarios: regressions.map((r) => r.scenario),
  };
  const { Document, isMap, isSeq } = yamlPackage();
  const doc = new Document(suite);
  doc.commentBefore = [
    // First: an editor then completes and checks the suite as the user edits it (`#` is the Document's).
    schemaModeline('suite', report.tool.version).slice(1),
    ` Written by clockcheck ${report.tool.version} from run ${report.runId} (${report.startedAt}).`,
    ' Commit it next to your server and run it with:',
    '   clockcheck run --suite regressions.yaml --only regressions [--target URL --profile FILE]',
  ].join('\n');
  const written = doc.get('scenarios', true);
  if (isSeq(written)) {
    written.items.forEach((item, i) => {
      if (isMap(item)) item.commentBefore = ` ${regressions[i]!.origin}`;
    });
  }
  return doc.toString({ lineWidth: 0 });
}

/**
 * A failed scenario as a regression: a pair keeps its baseline and only the variants that failed
 * (a finding's expectation ends with the variant's `why`); a scenario of steps is kept whole. Its
 * setup, `let`, `requires` and `when` come along, so it runs as it ran.
 */
function scenarioRegression(check: CheckResult, loaded: LoadedScenario | undefined): Regression | null {
  if (check.status !== 'failed' || check.source.kind !== 'scenario' || !loaded) return null;
  const original: Scenario = loaded.scenario;
  const scenario: RegressionScenario = {
    id: kebab(check.id),
    title: original.title,
    rules: [...original.rules],
    mutates: original.mutates,
    ...(original.requires.length > 0 ? { requires: [...original.requires] } : {}),
    ...(Object.keys(original.when).length > 0 ? { when: original.when } : {}),
    ...(Object.keys(original.let).length > 0 ? { let: original.let } : {}),
    ...(original.setup.length > 0 ? { setup: original.setup } : {}),
  };
  if (original.pair) {
    const failed = original.pair.variants.filter((v) => check.findings.some((f) => f.expected.endsWith(`(${v.why})`)));
    if (failed.length === 0) return null; // the baseline was refused: a precondition, not a variant that failed
    scenario.pair = { ...original.pair, variants: failed };
  } else scenario.steps = original.steps;
  const sent = check.findings.flatMap((f) => f.exchangeIds).map((id) => check.exchanges.find((e) => e.id === id)).find((e) => e !== undefined && e.direction !== 'inbound');
  const finding = check.findings[0]!;
  return {
    scenario,
    origin: `${check.id} (${loaded.file}:${loaded.line}): ${finding.ruleId}: ${finding.expected}; the run saw ${finding.actual}${sent ? `; sent ${sent.request.method} ${sent.request.url}${sent.request.body ? ` ${sent.request.body}` : ''}` : ''}`,
  };
}

/**
 * A failed stateful family (properties/user-sequences): its shrunk sequence as a scenario of steps,
 * each user's e-mail fresh (`let`: rendered once when the scenario starts) and its ID captured.
 */
function sequenceRegression(check: CheckResult): Regression | null {
  const { source } = check;
  if (check.status !== 'failed' || source.kind !== 'property' || !source.sequence) return null;
  const finding = check.findings[0];
  if (!finding) return null;
  const users = new Set([...JSON.stringify(source.sequence).matchAll(/vars\.email_(\d+)/g)].map((m) => m[1] as string));
  const scenario: RegressionScenario = {
    id: kebab(`${source.generator}-${source.seed}`),
    title: `the shortest sequence that showed ${finding.ruleId}: ${source.sequence.map((s) => String(s.name)).join(' → ')}; generated by ${check.id}, seed ${source.seed}`,
    rules: [finding.ruleId],
    mutates: true,
    let: Object.fromEntries([...users].sort().map((n) => [`email_${n}`, '{{ unique.email }}'])),
    steps: [...source.sequence],
  };
  return { scenario, origin: `${check.id}: ${finding.ruleId}: ${finding.expected}; the run saw ${finding.actual}` };
}

function propertyRegression(check: CheckResult, report: RunReport): Regression | null {
  const { source } = check;
  if (source.kind === 'property' && source.sequence) return sequenceRegression(check);
  if (check.status !== 'failed' || source.kind !== 'property' || !source.counterexample) return null;
  const finding = check.findings[0];
  const byId = new Map(check.exchanges.map((e) => [e.id, e]));
  const failing = byId.get(source.counterexample.exchangeId);
  if (!finding || !failing) return null;
  const rule = finding.ruleId;
  const freshEmail = !rule.startsWith('USR-EMAIL');
  const setupExchange = source.setupExchangeId === undefined ? undefined : byId.get(source.setupExchangeId);
  const resourceId = setupExchange ? createdIdOf(setupExchange, report) : undefined;
  const templates = { freshEmail, resourceId };
  const request = (exchange: Exchange) => scenarioRequest(exchange, report, templates);

  const scenario: RegressionScenario = {
    id: kebab(`${source.generator}-${source.seed}`),
    title: `${source.counterexample.label}: ${source.counterexample.breaks ? `rejected (${rule})` : `accepted (${rule})`}; generated by ${check.id}, seed ${source.seed}, path ${source.path}`,
    rules: [rule],
    mutates: true,
  };
  if (setupExchange && resourceId !== undefined) {
    scenario.setup = [{ name: 'create the resource the case needs', request: request(setupExchange), expect: { status: 'success' }, capture: { [RESOURCE_VAR]: { from: 'created_id' } } }];
  }
  const failingRequest = request(failing);
  const baselineExchange = source.baselineExchangeId === undefined ? undefined : byId.get(source.baselineExchangeId);
  const pair = source.counterexample.breaks && baselineExchange ? minimalPair(failing, baselineExchange, rule, validatorFor(failingRequest, setupExchange, report)) : null;
  if (pair) {
    scenario.pair = {
      request: { ...failingRequest, json: templated(pair.baseline, templates) },
      variants: [
        {
          why: source.counterexample.label,
          ...(Object.keys(pair.set).length > 0 ? { set: templated(pair.set, templates) } : {}),
          ...(pair.unset.length > 0 ? { unset: pair.unset } : {}),
          expect: { status: 'rejected' },
          rule,
        },
      ],
    };
  } else {
    scenario.steps = [{ name: source.counterexample.label, request: failingRequest, expect: { status: source.counterexample.breaks ? 'rejected' : 'success', rule } }];
  }
  return { scenario, origin: `${check.id}, seed ${source.seed}, path ${source.path}: ${finding.expected}; the run saw ${finding.actual}` };
}

type Validator = (body: Json) => Violation[];

/**
 * The minimal pair of a failing invalid case: the failing body with the fields that break `rule`
 * (by the spec model) taken from the run's accepted valid case instead, which the spec model must
 * find valid; and the one change back: those fields set to the failing values (or removed, where the
 * failing case lacks them). null when the spec model cannot say which fields break the rule, or the
 * repaired body is not valid: no pair is better than a pair that changes more than one thing.
 */
function minimalPair(failing: Exchange, baseline: Exchange, rule: string, validate: Validator | null): { baseline: Json; set: Json; unset: string[] } | null {
  const failingBody = parseJson(failing.request.body ?? '');
  const validBody = parseJson(baseline.request.body ?? '');
  if (!validate || !isObject(failingBody) || !isObject(validBody)) return null;
  const fields = [...new Set(validate(failingBody).filter((v) => v.ruleId === rule && v.field !== '').map((v) => v.field.split('.')[0]!))];
  if (fields.length === 0) return null;
  const repaired: Json = { ...failingBody };
  for (const field of fields) {
    if (Object.hasOwn(validBody, field)) repaired[field] = validBody[field];
    else delete repaired[field];
  }
  if (validate(repaired).length > 0) return null;
  const set: Json = {};
  const unset: string[] = [];
  for (const field of fields) {
    if (Object.hasOwn(failingBody, field)) set[field] = failingBody[field];
    else unset.push(field);
  }
  return { baseline: repaired, set, unset };
}

/** The spec model's check of the failing request's operation (contract/operations.ts), or null for one without a body model. */
function validatorFor(request: ScenarioRequest, setup: Exchange | undefined, report: RunReport): Validator | null {
  const model = operationFor(request.method, request.path)?.request;
  if (!model) return null;
  const stored = setup ? parseJson(setup.request.body ?? '') : undefined;
  const companyTimezone = (report.profile as { company_timezone?: string }).company_timezone ?? 'UTC';
  return (body) => model.violations(body, { companyTimezone, ...(isObject(stored) ? { stored } : {}) });
}

/** The exchange's request in the scenario format: the path under the API prefix, the body as JSON, the token as the run sent it. */
function scenarioRequest(exchange: Exchange, report: RunReport, options: { freshEmail: boolean; resourceId: string | undefined }): ScenarioRequest {
  const { request } = exchange;
  const url = new URL(request.url);
  let path = url.pathname + url.search;
  const prefix = report.target.apiPrefix.replace(/\/+$/, '');
  if (path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  if (options.resourceId !== undefined) {
    path = path.split('/').map((segment) => (segment === String(options.resourceId) ? `{{ vars.${RESOURCE_VAR} }}` : segment)).join('/');
  }
  const result: ScenarioRequest = { method: request.method, path };
  if (request.body !== undefined) {
    const json = parseJson(request.body);
    if (json === undefined) result.raw_body = request.body;
    else result.json = isObject(json) ? templated(json, options) : json;
  }
  const authorization = request.headers.authorization;
  if (authorization === undefined) result.auth = 'none';
  else if (authorization !== REDACTED && authorization !== `Bearer ${REDACTED}`) result.auth = { raw: authorization };
  return result;
}

/** A body with the run's resource ID and unique e-mail replaced by templates. */
function templated(body: Json, options: { freshEmail: boolean; resourceId: string | undefined }): Json {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      if (options.resourceId !== undefined && key.endsWith('_id') && String(value) === String(options.resourceId)) return [key, `{{ vars.${RESOURCE_VAR} }}`];
      if (key === 'email' && options.freshEmail && typeof value === 'string') return [key, '{{ unique.email }}'];
      return [key, value];
    }),
  );
}

function createdIdOf(exchange: Exchange, report: RunReport): string | undefined {
  const json = exchange.response ? parseJson(exchange.response.body) : undefined;
  const id = json === undefined ? undefined : createdId(json, report.profile as unknown as Profile);
  return id === undefined ? undefined : String(id);
}

/** A scenario ID (kebab-case) from a family name and seed or a check ID: `user-password-42`, `schedules-date-format`. */
function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function parseJson(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
