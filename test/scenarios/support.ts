import { expect } from 'vitest';
import { stringify } from 'yaml';
import { SourceError } from '../../src/input/yaml-source.ts';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { BUILTIN_CHECKS } from '../../src/checks/registry.ts';
import { PreconditionFailed, SkipCheck, type BuiltinCheck, type CheckContext } from '../../src/checks/context.ts';
import type { CreatedResource, Finding } from '../../src/report/model.ts';
import type { RuleId } from '../../src/contract/rules.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange, TransportErrorCode } from '../../src/client/exchange.ts';
import { profileSchema, type Profile } from '../../src/profile/profile.ts';
import { parseSuite, type LoadedScenario } from '../../src/scenarios/loader.ts';
import { issueText, parseArguments } from '../../src/input/arguments.ts';
import type { ScenarioDeps } from '../../src/scenarios/scenario-deps.ts';
import { runDates, type TemplateContext } from '../../src/scenarios/template-context.ts';

/** The target every fake exchange claims to talk to. */
export const ORIGIN = 'https://target.test:8443';

/** What a fake target answers: a response, or a transport failure. */
export type Reply =
  | { readonly status: number; readonly json?: unknown; readonly body?: string; readonly headers?: Readonly<Record<string, string>>; readonly truncated?: boolean }
  | { readonly error: TransportErrorCode; readonly message?: string };

let sequence = 0;

/** A profile from a partial profile document, with every default filled in. */
export function profileWith(input: Record<string, unknown> = {}): Profile {
  return profileSchema.parse(input);
}

/** The absolute URL a request goes to (path under /api/public, or the given url), with its query. */
export function urlOf(request: TargetRequest): string {
  const url = new URL(request.url ?? `${ORIGIN}/api/public${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, String(value));
  return url.toString();
}

/** An exchange as the client would record it for `request` and `reply`. */
export function exchangeFor(request: TargetRequest, reply: Reply): Exchange {
  sequence++;
  const body = request.json !== undefined ? JSON.stringify(request.json) : request.rawBody;
  const recorded = { method: request.method, url: urlOf(request), headers: {}, ...(body !== undefined ? { body } : {}) };
  const base = { id: sequence, startedAt: new Date(0).toISOString(), sentAtMs: 0, durationMs: 1, request: recorded };
  if ('error' in reply) return { ...base, error: { code: reply.error, message: reply.message ?? 'boom' } };
  const text = reply.body ?? (reply.json !== undefined ? JSON.stringify(reply.json) : '');
  const json = reply.json !== undefined ? reply.json : parseJson(text);
  return {
    ...base,
    response: {
      status: reply.status,
      headers: { ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}), ...reply.headers },
      body: text,
      bodyBytes: Buffer.byteLength(text),
      bodyTruncated: reply.truncated ?? false,
      ...(json !== undefined && !reply.truncated ? { json } : {}),
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A fake `send` that answers with `handler` and remembers every request it got. */
export function fakeSend(handler: (request: TargetRequest, index: number) => Reply) {
  const requests: TargetRequest[] = [];
  const send = async (request: TargetRequest): Promise<Exchange> => {
    requests.push(request);
    return exchangeFor(request, handler(request, requests.length - 1));
  };
  return { send, requests };
}

/** A unique-value generator that counts, so each render is visibly fresh. */
export function countingUnique() {
  let n = 0;
  return () => {
    n++;
    return { email: `u${n}@example.com`, name: `Name${String.fromCharCode(96 + n)}`, token: `t-${n}` };
  };
}

/** A template context with the company timezone America/Chicago and the dates of seed 0 (2015-01-01). */
export function templateContext(overrides: Partial<TemplateContext> = {}): TemplateContext {
  return {
    fixtures: {},
    vars: {},
    profile: {},
    companyTimezone: 'America/Chicago',
    dates: runDates(0),
    unique: countingUnique(),
    ...overrides,
  };
}

/** Loads one scenario (given as the object its YAML would hold) through the real parser. */
export function loadScenario(scenario: Record<string, unknown>, suite = 'demo'): LoadedScenario {
  const text = stringify({ suite, description: 'a test suite', scenarios: [scenario] });
  const [loaded] = parseSuite(text, `suites/${suite}.yaml`, BUILTIN_CHECK_NAMES);
  return loaded!;
}

/** Suite text from lines, so that line N of the file is the N-th argument. */
export const suiteLines = (...text: string[]) => `${text.join('\n')}\n`;

/** The first six lines of a one-scenario suite; line 4 is the scenario's `- id: first`. */
export const SUITE_HEAD = ['suite: demo', 'description: d', 'scenarios:', '  - id: first', '    title: t', '    rules: [HTTPS-ONLY]'] as const;

/** The SourceError that parsing `text` throws, reduced to what a suite author is shown. */
export function suiteFailure(text: string, file = 'suites/demo.yaml') {
  try {
    parseSuite(text, file, BUILTIN_CHECK_NAMES);
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    const e = error as SourceError;
    expect(e.code).toBe('CLOCKCHECK_SOURCE');
    return { file: e.file, line: e.line, field: e.fieldPath, problem: e.problem, hint: e.hint, message: e.message };
  }
  throw new Error('the suite was accepted');
}

/** Scenario deps over a fake send and the real built-in checks. */
export function scenarioDeps(send: ScenarioDeps['send'], options: { profile?: Profile; readOnly?: boolean; builtins?: Record<string, BuiltinCheck> } = {}) {
  const created: CreatedResource[] = [];
  const profile = options.profile ?? profileWith();
  const deps: ScenarioDeps = {
    send,
    acquire: async () => ({ done: () => {} }),
    profile,
    origin: ORIGIN,
    template: {
      fixtures: profile.fixtures as Record<string, unknown>,
      profile: JSON.parse(JSON.stringify(profile)) as Record<string, unknown>,
      companyTimezone: profile.company_timezone,
      dates: runDates(0),
      unique: countingUnique(),
    },
    builtins: options.builtins ?? BUILTIN_CHECKS,
    readOnly: options.readOnly ?? false,
    replay: (id) => `clockcheck run --only ${id}`,
    onCreated: (resource) => created.push(resource),
    sink: null,
  };
  return { deps, created };
}

/** The outcome of running one built-in check on its own. */
export interface CheckOutcome {
  /** errored: the check's precondition was not shown (findings already recorded make it failed). */
  readonly status: 'passed' | 'failed' | 'errored' | 'skipped';
  readonly reason?: string;
  readonly findings: readonly Finding[];
  readonly requests: readonly TargetRequest[];
}

/** Runs a built-in check against a fake target, with a context like the scenario runner's. */
export async function runCheck(
  check: BuiltinCheck,
  args: Record<string, unknown>,
  handler: (request: TargetRequest, index: number) => Reply,
  options: { profile?: Profile; previous?: Exchange; defaultRule?: RuleId; origin?: string } = {},
): Promise<CheckOutcome> {
  const { send, requests } = fakeSend(handler);
  const exchanges: Exchange[] = options.previous ? [options.previous] : [];
  const findings: Finding[] = [];
  const ctx: CheckContext = {
    send: async (request) => {
      const exchange = await send(request);
      exchanges.push(exchange);
      return exchange;
    },
    fail: (ruleId, expected, actual, shown) => {
      findings.push({ ruleId, expected, actual, exchangeIds: (shown ?? exchanges.slice(-1)).map((e) => e.id) });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    precondition: (reason) => {
      throw new PreconditionFailed(reason);
    },
    lastExchange: () => exchanges.at(-1),
    render: (value) => value,
    acquire: async () => ({ done: () => {} }),
    keep: (exchange) => {
      if (!exchanges.includes(exchange)) exchanges.push(exchange);
      return exchange;
    },
    notJudged: () => {},
    note: () => {},
    doneSending: () => {},
    remainingMs: () => Number.POSITIVE_INFINITY,
    sink: null,
    profile: options.profile ?? profileWith(),
    origin: options.origin ?? ORIGIN,
    defaultRule: options.defaultRule ?? 'SEARCH-MATCHES',
  };
  const parsed = parseArguments(check.args, args);
  if (!parsed.ok) throw new Error(`the test's args: ${issueText(parsed.issue, ['args'])}`);
  try {
    await check.run(ctx, parsed.value);
  } catch (error) {
    if (error instanceof PreconditionFailed) return { status: findings.length > 0 ? 'failed' : 'errored', reason: error.message, findings, requests };
    if (!(error instanceof SkipCheck)) throw error;
    return { status: 'skipped', reason: error.message, findings, requests };
  }
  return { status: findings.length > 0 ? 'failed' : 'passed', findings, requests };
}

/** The distinct rules of some findings, sorted. */
export function rulesOf(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => f.ruleId))].sort();
}

/** A query value of a request, whether it came as `query` or inside an absolute `url`. */
export function queryParam(request: TargetRequest, name: string): string | undefined {
  return new URL(urlOf(request)).searchParams.get(name) ?? undefined;
}

/** A list response as a fake target serves it: items and a §2.5 pagination block. */
export interface ListPage {
  items: unknown[];
  meta_data: { pagination: Record<string, unknown> };
}

/**
 * A paginated collection of `total` items `{id: 1..total}` at `path`, following §2.5 exactly: page
 * from `page` (default 1), per_page from `page_size` (default `defaultPerPage`, at most 100), links
 * absolute on ORIGIN. `tamper` may change a page before it is served.
 */
export function pagedList(total: number, options: { path?: string; defaultPerPage?: number; tamper?: (page: ListPage, pageNumber: number) => void } = {}) {
  const path = options.path ?? '/breaks';
  return (request: TargetRequest): Reply => {
    const page = Number(queryParam(request, 'page') ?? 1);
    const perPage = Math.min(Number(queryParam(request, 'page_size') ?? options.defaultPerPage ?? 10), 100);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const link = (n: number) => `${ORIGIN}/api/public${path}?page=${n}&page_size=${perPage}`;
    const ids = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * perPage, page * perPage);
    const body: ListPage = {
      items: ids.map((id) => ({ id })),
      meta_data: {
        pagination: {
          current_page: page,
          first_page_url: link(1),
          from: ids.length > 0 ? ids[0] : null,
          last_page: lastPage,
          last_page_url: link(lastPage),
          next_page_url: page < lastPage ? link(page + 1) : null,
          path: `${ORIGIN}/api/public${path}`,
          per_page: perPage,
          prev_page_url: page > 1 ? link(page - 1) : null,
          to: ids.length > 0 ? ids.at(-1) : null,
          total,
          options: false,
        },
      },
    };
    options.tamper?.(body, page);
    return { status: 200, json: body };
  };
}
