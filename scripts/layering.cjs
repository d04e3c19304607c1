// The layering of src/ as data: .dependency-cruiser.cjs turns it into the rules dependency-cruiser
// enforces (`npm run layers`, and in `npm test`: test/architecture/layers.test.ts), and
// `layeringMarkdown` into the rules ARCHITECTURE.md shows; the test requires the page to hold that
// text, so the page and the rules cannot drift apart.
'use strict';

/** Modules under src/ that everything may import and that import nothing of ours (but each other). */
const BASE = ['errors.ts', 'duration.ts', 'clock.ts', 'version.ts', 'did-you-mean.ts', 'tls/'];

const ENGINE = ['contract', 'input', 'client', 'profile', 'records', 'report'];

/**
 * Each folder of src/, what it is, and the folders it may import besides itself and the base.
 * Listed bottom up: a folder imports only folders listed above it, so no two folders import each other.
 */
const LAYERS = [
  { folder: 'contract', what: 'the API as the spec states it: formats, field tables, conditions, responses, operations, the rule catalog, §8\'s limit', imports: [] },
  { folder: 'input', what: 'what the user writes, read at the boundary: YAML with lines, zod issues as file:line errors, rule IDs, template syntax, option tables', imports: ['contract'] },
  { folder: 'client', what: 'talking to a target: the undici client, exchanges, pacing, redaction, every bound on a connection', imports: ['contract'] },
  { folder: 'profile', what: 'the target profile: its schema (zod), loading, the readings the spec leaves open', imports: ['contract', 'input'] },
  { folder: 'records', what: 'reading the API\'s records the spec does not show: envelopes, spellings, values by meaning, JSON paths, created IDs', imports: ['contract', 'profile'] },
  { folder: 'report', what: 'the result model and its reporters: JSON, HTML, JUnit, terminal, progress', imports: ['contract', 'client'] },
  { folder: 'webhooks', what: 'the webhook sink: a bounded receiver of notifications', imports: ['contract', 'client', 'profile'] },
  { folder: 'load', what: 'autocannon runs with the harness\'s trust, and the `load` command\'s run, verdict and reports', imports: ['contract', 'client', 'profile', 'report'] },
  { folder: 'checks', what: 'built-in checks a scenario step calls by name', imports: [...ENGINE, 'webhooks'] },
  { folder: 'scenarios', what: 'YAML suites: format, loader, templates, expectations, the scenario runner', imports: [...ENGINE, 'webhooks', 'checks'] },
  { folder: 'properties', what: 'fast-check generators, property families and their runner', imports: [...ENGINE, 'scenarios'] },
  { folder: 'ratelimit', what: 'the rate-limit phase of §8 and the run-wide monitor', imports: [...ENGINE, 'load', 'checks'] },
  { folder: 'regressions', what: 'regressions.yaml: failing cases as minimal pairs', imports: [...ENGINE, 'scenarios', 'properties'] },
  { folder: 'openapi', what: 'the spec model as OpenAPI 3.1', imports: ['contract', 'profile'] },
  { folder: 'diff', what: 'two reports compared', imports: ['contract', 'report'] },
  { folder: 'run', what: 'a certification: plan, preflight, checks, verdicts, reports; the embedded target; the selftest', imports: [...ENGINE, 'webhooks', 'load', 'checks', 'scenarios', 'properties', 'ratelimit', 'regressions'] },
  { folder: 'init', what: '`clockcheck init`: a profile discovered from the target\'s answers', imports: [...ENGINE, 'checks', 'run'] },
  { folder: 'grade', what: '`clockcheck grade`: recorded traffic (HAR) judged against the rules, passively', imports: [...ENGINE, 'checks', 'run'] },
  { folder: 'workload', what: '`clockcheck load --workload`: flows of documented operations, open and closed arrival, results per operation, their verdict and reports', imports: [...ENGINE, 'load', 'checks', 'properties', 'run', 'grade'] },
  { folder: 'cli', what: 'argv → command → exit code', imports: [...ENGINE, 'webhooks', 'load', 'checks', 'scenarios', 'properties', 'ratelimit', 'regressions', 'openapi', 'diff', 'run', 'init', 'grade', 'workload'] },
  { folder: 'reference', what: 'the reference server and its fault catalog', imports: ['contract'] },
];

/** The only places outside reference/ that may import it, and why: they start it or describe it. */
const REFERENCE_EXCEPTIONS = [
  { from: 'run/embedded-target.ts', to: 'server.ts, dialect.ts, seed.ts', why: 'the embedded target: started in this process' },
  { from: 'run/embedded-process.ts', to: 'dialect.ts, seed.ts', why: 'the embedded target: started in a process of its own' },
  { from: 'run/embedded-profile.ts', to: 'dialect.ts, context.ts, seed.ts', why: 'the embedded target: its profile, from its seed' },
  { from: 'run/selftest.ts', to: 'dialect.ts, faults.ts, seed.ts', why: 'the selftest: each dialect, each fault, each seed' },
  { from: 'run/fault-detection.ts', to: 'dialect.ts, faults.ts', why: "the selftest's verdict on one fault" },
  { from: 'run/selftest-workers.ts', to: 'faults.ts', why: "the selftest's worker threads: a fault travels by name" },
  { from: 'run/selftest-worker.ts', to: 'faults.ts', why: "the selftest's worker threads: a fault travels by name" },
  { from: 'run/fault-catches.ts', to: 'faults.ts', why: 'the fault catalog\'s order: the half a budget\'s order is fitted on' },
  { from: 'cli/commands/selftest.ts', to: 'dialect.ts, faults.ts', why: 'the selftest\'s options' },
  { from: 'cli/commands/serve.ts', to: '*', why: '`clockcheck serve` serves it' },
  { from: 'cli/commands/rules.ts', to: 'faults.ts', why: 'the fault catalog\'s descriptions: the faults that break each rule' },
  { from: 'cli/commands/load.ts', to: 'faults.ts, server.ts', why: 'the fault catalog\'s names for `load --fault`; the embedded server\'s type' },
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
