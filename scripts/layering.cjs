// The layering of src/ as data: .dependency-cruiser.cjs turns it into the rules dependency-cruiser
// enforces (`npm run layers`, and in `npm test`: test/architecture/layers.test.ts), and
// `layeringMarkdown` into the rules ARCHITECTURE.md shows; the test requires the page to hold that
// text, so the page and the rules cannot drift apart.
'use strict';

/** Modules under src/ that everything may import and that import nothing of ours (but each other). */
const BASE = ['errors.ts', 'duration.ts', 'clock.ts', 'version.ts', 'did-you-mean.ts', 'tls/'];

const ENGINE = ['contract', 'input', 'client', 'profile', 'report', 'records'];

/**
 * Each folder of src/, what it is, and the folders it may import besides itself and the base.
 * Listed bottom up: a folder imports only folders listed above it, so no two folders import each other.
 */
const LAYERS = [
  { folder: 'contract', what: 'the API as the spec states it: formats, field tables, conditions, responses, operations, the rule catalog, §8\'s limit, the spec document', imports: [] },
  { folder: 'input', what: 'what the user writes, read at the boundary: YAML with lines, zod issues as file:line errors, rule IDs, template syntax, option tables', imports: ['contract'] },
  { folder: 'client', what: 'talking to a target: the undici client, exchanges, pacing, redaction, every bound on a connection', imports: ['contract'] },
  { folder: 'profile', what: 'the target profile: its schema (zod), loading, the readings the spec leaves open', imports: ['contract', 'input'] },
  { folder: 'report', what: 'the result model and its reporters: JSON, HTML, JUnit, terminal, progress', imports: ['contract', 'client'] },
  { folder: 'records', what: 'the API\'s records the spec does not show (envelopes, spellings, values by meaning, JSON paths, created IDs), and what a run or a load wrote, read back and judged', imports: ['contract', 'client', 'profile', 'report'] },
  { folder: 'webhooks', what: 'the webhook sink: a bounded receiver of notifications', imports: ['contract', 'client', 'profile'] },
  { folder: 'load', what: 'autocannon runs with the harness\'s trust, and the `load` command\'s run, verdict and reports', imports: ['contract', 'input', 'client', 'profile', 'report'] },
  { folder: 'checks', what: 'built-in checks a scenario step calls by name', imports: [...ENGINE, 'webhooks'] },
  { folder: 'grade', what: '`clockcheck grade`: recorded traffic (HAR) judged against the rules, passively; a run judges every answer with its answer judges', imports: [...ENGINE, 'checks'] },
  { folder: 'scenarios', what: 'YAML suites: format, loader, templates, expectations, the scenario runner', imports: [...ENGINE, 'webhooks', 'checks'] },
  { folder: 'properties', what: 'fast-check generators, property families and their runner', imports: [...ENGINE, 'scenarios'] },
  { folder: 'ratelimit', what: 'the rate-limit phase of §8 and the run-wide monitor', imports: [...ENGINE, 'load', 'checks'] },
  { folder: 'regressions', what: 'regressions.yaml: failing cases as minimal pairs', imports: [...ENGINE, 'scenarios', 'properties'] },
  { folder: 'openapi', what: 'the spec model as OpenAPI 3.1', imports: ['contract', 'profile'] },
  { folder: 'diff', what: 'two reports compared', imports: ['contract', 'report'] },
  { folder: 'isolation', what: 'the isolation checks between two companies: each writes marked records, each token probes the other\'s lists, items and references', imports: ENGINE },
  { folder: 'needs', what: 'what a run needs of the target: the preflight (reachable, the token\'s form), and the data its checks need, declared, counted, checked against the profile, created', imports: [...ENGINE, 'checks', 'scenarios', 'properties'] },
  { folder: 'plan', what: 'what a run will do, nothing sent: the checks selected, their requests and ETA, a budget\'s choice and admission, --last-failed', imports: [...ENGINE, 'checks', 'scenarios', 'properties', 'ratelimit', 'regressions', 'isolation', 'needs'] },
  { folder: 'execute', what: 'a plan run on the target: the open run (paced transport, guard, token watch, sink), the units in order, what stops a run', imports: [...ENGINE, 'webhooks', 'load', 'checks', 'grade', 'scenarios', 'properties', 'ratelimit', 'isolation', 'needs', 'plan'] },
  { folder: 'run', what: 'a certification: its options resolved once, its stages in order (plan, open, preflight, needs, execute), and its report', imports: [...ENGINE, 'needs', 'plan', 'execute'] },
  { folder: 'embedded', what: 'the embedded target: the reference server in this process or its own, and its profile', imports: ['contract', 'profile', 'report', 'execute', 'run'] },
  { folder: 'selftest', what: '`clockcheck selftest`: each fault of the reference catalog certified, in worker threads beside the bursts', imports: ['contract', 'profile', 'report', 'ratelimit', 'plan', 'run', 'embedded'] },
  { folder: 'init', what: '`clockcheck init`: a profile discovered from the target\'s answers', imports: [...ENGINE, 'checks', 'needs', 'execute'] },
  { folder: 'workload', what: '`clockcheck load --workload`: flows of documented operations, open and closed arrival, results per operation, their verdict and reports', imports: [...ENGINE, 'load', 'checks', 'properties', 'grade'] },
  { folder: 'cli', what: 'argv → command → exit code', imports: [...ENGINE, 'webhooks', 'load', 'checks', 'scenarios', 'properties', 'ratelimit', 'regressions', 'openapi', 'diff', 'needs', 'plan', 'execute', 'run', 'embedded', 'selftest', 'init', 'grade', 'workload'] },
  { folder: 'reference', what: 'the reference server and its fault catalog', imports: ['contract'] },
];

/** The only places outside reference/ that may import it, and why: they start it or describe it. */
const REFERENCE_EXCEPTIONS = [
  { from: 'embedded/embedded-target.ts', to: 'server.ts, dialect.ts, seed.ts', why: 'the embedded target: started in this process' },
  { from: 'embedded/embedded-process.ts', to: 'dialect.ts, seed.ts', why: 'the embedded target: started in a process of its own' },
  { from: 'embedded/embedded-profile.ts', to: 'dialect.ts, context.ts, seed.ts, companies/second-company-seed.ts', why: 'the embedded target: its profile, from its seed (both companies\' for a plan)' },
  { from: 'selftest/selftest.ts', to: 'dialect.ts, faults.ts, seed.ts', why: 'the selftest: each dialect, each fault, each seed' },
  { from: 'selftest/fault-detection.ts', to: 'dialect.ts, faults.ts', why: "the selftest's verdict on one fault" },
  { from: 'selftest/selftest-workers.ts', to: 'faults.ts', why: "the selftest's worker threads: a fault travels by name" },
  { from: 'selftest/selftest-worker.ts', to: 'faults.ts', why: "the selftest's worker threads: a fault travels by name" },
  { from: 'plan/fault-catches.ts', to: 'faults.ts', why: 'the fault catalog\'s order: the half a budget\'s order is fitted on' },
  { from: 'cli/commands/selftest.ts', to: 'dialect.ts, faults.ts', why: 'the selftest\'s options' },
  { from: 'cli/commands/serve.ts', to: '*', why: '`clockcheck serve` serves it' },
  { from: 'cli/commands/rules.ts', to: 'faults.ts', why: 'the fault catalog\'s descriptions: the faults that break each rule' },
  { from: 'cli/commands/load/load-target.ts', to: 'faults.ts, server.ts', why: 'the fault catalog\'s names for `load --fault`; the embedded server\'s type' },
  { from: 'index.ts', to: 'server.ts, faults.ts', why: 'the package\'s export: a reference server for a server\'s own tests' },
];

/** A row's imports, the six foundation folders named once as "the foundation". */
function importsText(imports) {
  if (imports.length === 0) return '—';
  const foundation = ENGINE.every((f) => imports.includes(f));
  const rest = imports.filter((f) => !foundation || !ENGINE.includes(f)).map((f) => `\`${f}/\``);
  return [...(foundation ? ['the foundation'] : []), ...rest].join(', ');
}

/** The rules of ARCHITECTURE.md's "Layers" section, rendered from the same data. */
function layeringMarkdown() {
  const lines = [
    '1. **No cycles.** No module imports itself through others.',
    `2. **The base.** \`${BASE.join('`, `')}\` import nothing of ours but each other; every folder may import them.`,
    '3. **`_internals/` is private** to the folder that holds it.',
    `4. **Each folder imports only what its row names** (besides itself and the base), and only folders listed above it. The foundation is \`${ENGINE.join('/`, `')}/\`:`,
    '',
    '| folder | what it is | may import |',
    '|---|---|---|',
    ...LAYERS.map((l) => `| \`${l.folder}/\` | ${l.what} | ${importsText(l.imports)} |`),
    '',
    '5. **The reference server is apart.** `reference/` shares only `contract/` (and the base) with the harness. Nothing imports it, except these places, which start or describe it, each only the files named:',
    '',
    '| from | imports from `reference/` | why |',
    '|---|---|---|',
    ...REFERENCE_EXCEPTIONS.map((e) => `| \`${e.from}\` | ${e.to === '*' ? 'any' : e.to.split(', ').map((f) => `\`${f}\``).join(', ')} | ${e.why} |`),
    '',
    '6. **The entry points are on top.** Nothing imports `index.ts` or `bin/`.',
  ];
  return lines.join('\n');
}

module.exports = { BASE, ENGINE, LAYERS, REFERENCE_EXCEPTIONS, layeringMarkdown };

if (require.main === module) console.log(layeringMarkdown()); // node scripts/layering.cjs: the section ARCHITECTURE.md shows
