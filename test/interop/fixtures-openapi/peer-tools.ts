import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Profile } from '../../../src/profile/profile.ts';
import { runProcess } from '../../support/cli.ts';

/**
 * Driving the peer tools on an exported document, as a user would from a shell: Portman makes a
 * Postman collection with contract tests, Newman runs it (straight at the server, or through Prism's
 * validating proxy), and what each reports is read from its own output.
 */

const TOOL_ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

/**
 * A Portman config that generates contract tests for every operation (the 2xx class, the literal
 * code, the content type, a JSON body, the response schema), and the one thing a real run needs:
 * the created schedule's ID (where the profile's id_pointer says) for PUT /schedules/{schedule_id}.
 * GET /breaks goes without a body because the document is exported with `--get-body omit`: Portman
 * fills a body from a schema, and Prism's proxy refuses to forward a GET with one
 * (PROXY_UNSUPPORTED_REQUEST_BODY, stoplightio/prism#2259); without `ids` it lists all breaks (§4.4).
 */
export function portmanConfig(profile: Profile): Record<string, unknown> {
  const contract = (test: string) => ({ openApiOperation: '*::/*', [test]: { enabled: true } });
  const idProp = (profile.id_pointer ?? '/items/id').split('/').slice(1).join('.');
  return {
    version: 1.0,
    tests: { contractTests: ['statusSuccess', 'statusCode', 'contentType', 'jsonBody', 'schemaValidation'].map(contract) },
    assignVariables: [{ openApiOperationId: 'createSchedule', collectionVariables: [{ responseBodyProp: idProp, name: 'scheduleId' }] }],
    overwrites: [{ openApiOperationId: 'updateSchedule', overwriteRequestPathVariables: [{ key: 'schedule_id', value: '{{scheduleId}}', overwrite: true }] }],
  };
}

/** What Portman generated for one operation: its request and the names of its contract tests. */
export interface GeneratedOperation {
  readonly request: string;
  readonly tests: readonly string[];
}

/** Every request of a Postman collection, through its folders. */
function requestsOf(node: { item?: unknown[] }): any[] {
  return (node.item ?? []).flatMap((item: any) => (item.request ? [item] : requestsOf(item)));
}

/** Runs `portman --local` in `dir` (it writes its scratch files there); the collection's file and what it tests per operation. */
export async function runPortman(bin: string, dir: string, documentFile: string, config: Record<string, unknown>): Promise<{ collection: string; operations: GeneratedOperation[] }> {
  const configFile = join(dir, 'portman-config.json');
  const collection = join(dir, 'collection.json');
  await writeFile(configFile, JSON.stringify(config, null, 2));
  const result = await runProcess(bin, ['--local', documentFile, '--output', collection, '--portmanConfigFile', configFile], TOOL_ENV, dir);
  if (result.code !== 0) throw new Error(`portman exited ${result.code}: ${result.stderr || result.stdout}`);
  const parsed = JSON.parse(await readFile(collection, 'utf8'));
  const operations = requestsOf(parsed).map((item) => {
    const script = (item.event ?? []).filter((e: any) => e.listen === 'test').flatMap((e: any) => e.script.exec).join('\n');
    const tests = [...script.matchAll(/pm\.test\("[^"]* - ([^"]+)"/g)].map((m) => m[1]!);
    return { request: `${item.request.method} /${item.request.url.path.join('/')}`, tests };
  });
  return { collection, operations };
}

/** One violation Prism reported on an answer (its `sl-violations` header). */
export interface Violation {
  readonly location: string;
  readonly message: string;
}

/** One request of a Newman run: its iteration, what it was, the answer's status, its assertions and Prism's violations. */
export interface Execution {
  readonly iteration: number;
  readonly request: string;
  readonly status: number | null;
  readonly assertions: number;
  readonly violations: readonly Violation[];
}

/** What a Newman run reported (its JSON reporter's output): each request, and each failed assertion. */
export interface NewmanRun {
  readonly executions: readonly Execution[];
  readonly failures: readonly { iteration: number; request: string; test: string; message: string }[];
}

/** The violations Prism adds to an answer it judged (`sl-violations`); past 8 KB it cuts the list short behind "Too many violations!", and what it kept is counted. */
function violationsOf(execution: any): Violation[] {
  const header = (execution.response?.header ?? []).find((h: { key: string }) => h.key.toLowerCase() === 'sl-violations');
  if (!header) return [];
  if (!header.value.startsWith('[')) return [...header.value.matchAll(/"location":\[([^\]]*)\]/g)].map((m) => ({ location: m[1]!.replace(/"/g, '').replace(/,/g, '.'), message: '(cut short by Prism)' }));
  return (JSON.parse(header.value) as { location: string[]; message: string }[]).map((v) => ({ location: v.location.join('.'), message: v.message }));
}

const requestOf = (request: any) => `${request.method} /${request.url.path.join('/')}`;

/**
 * Runs a collection with the Newman CLI (`newman run`, JSON reporter) against `baseUrl` with the
 * token, trusting `ca` (a PEM file) for HTTPS; with `iterationData` (a JSON file), one iteration per
 * row, whose variables (baseUrl among them) win over the rest.
 */
export async function runNewman(bin: string, collection: string, target: { baseUrl?: string; token: string; ca?: string; iterationData?: string }, out: string): Promise<NewmanRun> {
  const options = [
    ...(target.baseUrl ? ['--env-var', `baseUrl=${target.baseUrl}`] : []),
    ...(target.ca ? ['--ssl-extra-ca-certs', target.ca] : []),
    ...(target.iterationData ? ['--iteration-data', target.iterationData] : []),
  ];
  await runProcess(bin, ['run', collection, '--env-var', `apiKey=${target.token}`, ...options, '--reporters', 'json', '--reporter-json-export', out, '--timeout-request', '10000'], TOOL_ENV);
  const { run } = JSON.parse(await readFile(out, 'utf8'));
  return {
    executions: run.executions.map((e: any) => ({ iteration: e.cursor.iteration, request: requestOf(e.request), status: e.response?.code ?? null, assertions: (e.assertions ?? []).length, violations: violationsOf(e) })),
    failures: run.failures.map((f: any) => ({ iteration: f.cursor.iteration, request: f.source?.name ?? '?', test: f.error.test, message: f.error.message })),
  };
}

/** The part of a run that one iteration made. */
export function iterationOf(run: NewmanRun, iteration: number): NewmanRun {
  return { executions: run.executions.filter((e) => e.iteration === iteration), failures: run.failures.filter((f) => f.iteration === iteration) };
}

/** A run's counts: assertions, failed ones, Prism's violations. */
export function tally(run: NewmanRun): { assertions: number; failed: number; violations: number } {
  return { assertions: run.executions.reduce((n, e) => n + e.assertions, 0), failed: run.failures.length, violations: run.executions.reduce((n, e) => n + e.violations.length, 0) };
}

/** A copy of the collection whose every request carries `header: {{route}}` (a pre-request script: the iteration's `route`). */
export async function withRouteHeader(collection: string, header: string, out: string): Promise<string> {
  const parsed = JSON.parse(await readFile(collection, 'utf8'));
  const script = `pm.request.headers.upsert({ key: '${header}', value: String(pm.iterationData.get('route')) });`;
  parsed.event = [...(parsed.event ?? []), { listen: 'prerequest', script: { type: 'text/javascript', exec: [script] } }];
  await writeFile(out, JSON.stringify(parsed, null, 2));
  return out;
}

/** A running Prism validating proxy. */
export interface PrismProxy {
  readonly origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `prism proxy` on a free port in front of `upstream`, validating answers against the document
 * (`--errors`: a violation becomes an error answer) and not requests; `ca` is the PEM file trusted
 * for the upstream's TLS (NODE_EXTRA_CA_CERTS).
 */
export function startPrism(bin: string, documentFile: string, upstream: string, ca?: string): Promise<PrismProxy> {
  const args = ['proxy', documentFile, upstream, '--errors', '--validate-request', 'false', '--port', '0', '--host', '127.0.0.1'];
  const child = spawn(bin, args, { env: { ...TOOL_ENV, ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`prism did not start:\n${seen}`))), 60_000);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      const listening = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (!listening) return;
      clearTimeout(timer);
      resolve({ origin: listening[1]!, stop });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited ${code}:\n${seen}`));
    });
  });
}
