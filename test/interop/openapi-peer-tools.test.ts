import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.ts';
import { DIALECT_NAMES, DIALECTS, type DialectName } from '../../src/reference/dialect.ts';
import { FAULTS, type FaultName } from '../../src/reference/faults.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import { runClockcheck } from '../support/cli.ts';
import { DIALECT_PROFILE_FILES, dialectProfile } from '../openapi/dialect-profiles.ts';
import { FAULT_EXPECTATIONS } from './fixtures-openapi/fault-expectations.ts';
import { iterationOf, portmanConfig, runNewman, runPortman, startPrism, tally, withRouteHeader, type GeneratedOperation, type NewmanRun, type PrismProxy } from './fixtures-openapi/peer-tools.ts';
import { ROUTE_HEADER, startRoutingUpstream } from './fixtures-openapi/routing-upstream.ts';
import { tool } from './tools.ts';

/**
 * `clockcheck openapi --profile` for each dialect of the reference server, handed to the peer tools
 * as a user would: Portman generates contract tests from the document (its examples are the
 * requests), Newman runs them against a clean server, and again through Prism's validating proxy;
 * against servers with one fault each, every fault a schema or a status code can show must be
 * flagged. The clean server is the first iteration of the run that goes to the faulty ones (one
 * Newman run per dialect, straight at the servers and then through Prism). Runs only where
 * scripts/install-interop-tools.sh installed the tools.
 */

const PORTMAN = tool('portman');
const NEWMAN = tool('newman');
const PRISM = tool('prism');
/**
 * About 115 CPU-seconds (Portman, Prism and Newman in four dialects, some 250 servers): more than
 * npm test's budget has room for on two cores, so `.ci/run` runs it as a step of its own, with
 * CLOCKCHECK_SLOW_INTEROP=1, beside the Artillery run (CONTRIBUTING.md, "Tests"). The fault table's
 * test below runs in npm test.
 */
const SLOW_INTEROP = process.env.CLOCKCHECK_SLOW_INTEROP === '1';
const TOKEN = 'interop-openapi-token';

let root: string;
/** Each dialect's runs, made once (the first group of the dialect that needs them starts them). */
const runsByDialect = new Map<DialectName, Promise<DialectRuns>>();
/** What each run reported, printed at the end (docs/openapi-and-other-tools.md quotes it). */
const summary: string[] = [];

/** A reference server of the dialect (no rate limit: the collection's calls are few) sharing the identity `tls`. */
function serve(dialect: DialectName, faults: readonly FaultName[], tls: TlsIdentity): Promise<ReferenceServer> {
  return startReferenceServer({ dialect, faults, token: TOKEN, rateLimit: null, tls });
}

/** The collection of one dialect's export: the document (--profile, --target the server) and what Portman made of it. */
interface Exported {
  readonly document: string;
  readonly collection: string;
  readonly operations: readonly GeneratedOperation[];
  readonly baseUrl: string;
}

async function exportAndGenerate(dialect: DialectName, target: string): Promise<Exported> {
  const dir = join(root, dialect);
  await mkdir(dir, { recursive: true });
  const document = join(dir, 'openapi.json');
  const exported = await runClockcheck(['openapi', '--profile', DIALECT_PROFILE_FILES[dialect], '--target', target, '--get-body', 'omit', '--out', document], process.env);
  if (exported.code !== 0) throw new Error(`openapi exited ${exported.code}: ${exported.stderr}`);
  const { collection, operations } = await runPortman(PORTMAN!, dir, document, portmanConfig(await dialectProfile(dialect)));
  const variables = JSON.parse(await readFile(collection, 'utf8')).variable as { key: string; value: string }[];
  return { document, collection, operations, baseUrl: variables.find((v) => v.key === 'baseUrl')!.value };
}

/** A run's failures and violations, one line each, for an assertion's message. */
const shown = (run: NewmanRun) => JSON.stringify({ failures: run.failures, answers: run.executions.map((e) => `${e.request} ${e.status} ${e.violations.map((v) => `${v.location}: ${v.message}`).join('; ')}`) }, null, 1);

/** One server's iteration of the run straight at the servers and of the run through Prism (null without Prism). */
interface Iterations {
  readonly direct: NewmanRun;
  readonly prism: NewmanRun | null;
}

/** A dialect's export (made against its clean server, at `cleanOrigin`) and every run of its collection. */
interface DialectRuns {
  readonly exported: Exported;
  readonly cleanOrigin: string;
  readonly clean: Iterations;
  readonly faults: ReadonlyMap<FaultName, Iterations>;
}

/** The route (and the iteration) of the clean server: the first, before the faults'. */
const CLEAN = 'clean';

/** A dialect's runs, made once. */
function runsOf(dialect: DialectName, flagged: readonly FaultName[]): Promise<DialectRuns> {
  if (!runsByDialect.has(dialect)) runsByDialect.set(dialect, sweep(dialect, flagged));
  return runsByDialect.get(dialect)!;
}

/**
 * The export made against a clean server of the dialect, and Newman running what Portman made of it
 * against that server and one faulty server per fault, twice: straight at the servers, one iteration
 * each, and through a single Prism (TLS to its upstream, trusting the CA it is given, as a user gives
 * it the server's) whose upstream routes each iteration to a server of its own, clean first: one
 * Newman run for the dialect, not two per server. Every server shares one TLS identity.
 */
async function sweep(dialect: DialectName, flagged: readonly FaultName[]): Promise<DialectRuns> {
  const dir = join(root, dialect, 'runs');
  await mkdir(dir, { recursive: true });
  const tls = await generateTlsIdentity();
  const ca = join(dir, 'ca.pem');
  await writeFile(ca, tls.caPem);
  const routes = [CLEAN, ...flagged];
  const servers = await Promise.all(routes.flatMap((name) => [serve(dialect, name === CLEAN ? [] : [name as FaultName], tls), serve(dialect, name === CLEAN ? [] : [name as FaultName], tls)]));
  const upstream = await startRoutingUpstream(tls);
  let prism: PrismProxy | null = null;
  try {
    const cleanOrigin = servers[0]!.origin;
    const exported = await exportAndGenerate(dialect, cleanOrigin);
    prism = PRISM === null ? null : await startPrism(PRISM, exported.document, `${upstream.origin}/api/public`, ca);
    routes.forEach((name, i) => upstream.route(name, servers[2 * i + 1]!.origin, tls.caPem));
    // One Newman run: an iteration per server straight at it, then one per server through Prism (the route header names it).
    const direct = routes.map((_, i) => ({ baseUrl: `${servers[2 * i]!.origin}/api/public`, route: 'direct' }));
    const throughPrism = prism ? routes.map((name) => ({ baseUrl: prism!.origin, route: name })) : [];
    await writeFile(join(dir, 'iterations.json'), JSON.stringify([...direct, ...throughPrism]));
    const routed = await withRouteHeader(exported.collection, ROUTE_HEADER, join(dir, 'collection-routed.json'));
    const run = await runNewman(NEWMAN!, routed, { token: TOKEN, ca, iterationData: join(dir, 'iterations.json') }, join(dir, 'newman.json'));
    const iterations = (i: number): Iterations => ({ direct: iterationOf(run, i), prism: prism && iterationOf(run, routes.length + i) });
    return { exported, cleanOrigin, clean: iterations(0), faults: new Map(flagged.map((name, i) => [name, iterations(i + 1)])) };
  } finally {
    await prism?.stop();
    await upstream.close();
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** The faults of the catalog a schema or a status code can show in the dialect. */
const flaggedIn = (dialect: DialectName) => FAULTS.filter((f) => FAULT_EXPECTATIONS[f.name].flagged && f.appliesTo(DIALECTS[dialect])).map((f) => f.name);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'clockcheck-interop-openapi-'));
});

afterAll(async () => {
  if (summary.length > 0) console.info(`openapi interop:\n  ${summary.join('\n  ')}`);
  await rm(root, { recursive: true, force: true });
});

describe('the fault expectations', () => {
  it('place every fault of the catalog, each flagged one with how, each other with why not', () => {
    expect(Object.keys(FAULT_EXPECTATIONS).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });
});

describe.skipIf(PORTMAN === null || NEWMAN === null || !SLOW_INTEROP)('the export with Portman, Newman and Prism', () => {
  describe.each(DIALECT_NAMES)('the %s dialect, with the export for its profile', (dialect) => {
    let runs: DialectRuns;
    let exported: Exported;

    beforeAll(async () => {
      runs = await runsOf(dialect, flaggedIn(dialect));
      exported = runs.exported;
    }, 240_000);

    it('Portman generates contract tests for every operation: the 2xx, the literal code, the content type, a JSON body, the schema where there is one', () => {
      expect(exported.baseUrl).toBe(`${runs.cleanOrigin}/api/public`);
      expect(exported.operations).toHaveLength(OPERATIONS.length);
      for (const operation of exported.operations) {
        expect(operation.tests, operation.request).toEqual(expect.arrayContaining(['Status code is 2xx', 'Content-Type is application/json', 'Response has JSON Body']));
        expect(operation.tests.some((t) => /^Response status code is 2\d\d$/.test(t)), operation.request).toBe(true);
      }
      const schemas = exported.operations.filter((o) => o.tests.includes('Schema is valid')).map((o) => o.request);
      expect(schemas).toEqual(expect.arrayContaining(['POST /schedules', 'POST /users', 'GET /users', 'POST /timesheets', 'GET /timesheets', 'POST /breaks', 'GET /breaks']));
      const count = exported.operations.reduce((n, o) => n + o.tests.length, 0);
      summary.push(`${dialect}: Portman generated ${count} assertions over ${exported.operations.length} operations (${schemas.length} with a schema)`);
    });

    it('Newman runs them against a clean server: every assertion passes', () => {
      const run = runs.clean.direct;
      const { assertions, failed } = tally(run);
      expect(run.failures, shown(run)).toEqual([]);
      expect(assertions).toBeGreaterThanOrEqual(4 * OPERATIONS.length);
      summary.push(`${dialect}: Newman, clean server: ${assertions} assertions, ${failed} failed`);
    });

    it.skipIf(PRISM === null)("the same run through Prism's validating proxy (TLS to its upstream with the CA): no violation, every assertion passes", () => {
      const run = runs.clean.prism!;
      const { assertions, failed, violations } = tally(run);
      expect(violations, shown(run)).toBe(0);
      expect(run.failures, shown(run)).toEqual([]);
      expect(run.executions.every((e) => e.status !== null && e.status < 300), shown(run)).toBe(true);
      summary.push(`${dialect}: through Prism, clean server: ${violations} violations, ${assertions} assertions, ${failed} failed`);
    });
  });

  describe.each(DIALECT_NAMES)('servers of the %s dialect with one fault each: every fault a schema or a status code can show is flagged', (dialect) => {
    const flagged = flaggedIn(dialect);
    /** Per fault, its iteration of the run straight at the servers and of the run through Prism (null without Prism). */
    let results: ReadonlyMap<FaultName, Iterations>;

    beforeAll(async () => {
      results = (await runsOf(dialect, flagged)).faults;
    }, 240_000);

    it('some faults are flagged', () => {
      expect(flagged.length).toBeGreaterThanOrEqual(10);
    });

    it.each(flagged)('%s: Newman fails an assertion, and Prism reports a violation or the run through it fails', (name) => {
      const { direct, prism } = results.get(name)!;
      // Flagged by an assertion on an answer, never by a request that got none (a TLS or connection error).
      expect(direct.executions.map((e) => e.status === null), shown(direct)).toEqual(OPERATIONS.map(() => false));
      expect(direct.failures.length, shown(direct)).toBeGreaterThan(0);
      const requests = (list: readonly { request: string }[]) => [...new Set(list.map((x) => x.request))].join(', ') || 'none';
      let through = 'Prism not installed';
      if (prism) {
        const { violations, failed } = tally(prism);
        expect(prism.executions.map((e) => e.status === null), shown(prism)).toEqual(OPERATIONS.map(() => false));
        expect(violations + failed, shown(prism)).toBeGreaterThan(0);
        through = `through Prism ${violations} violations (${requests(prism.executions.filter((e) => e.violations.length > 0))}), ${failed} failed assertions`;
      }
      summary.push(`${dialect}, fault ${name}: Newman ${direct.failures.length} failed assertions (${requests(direct.failures)}); ${through}`);
    });
  });
});
