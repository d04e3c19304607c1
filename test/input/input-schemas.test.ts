import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { INPUT_SCHEMAS, schemaPath, schemaText } from '../../scripts/input-schemas.ts';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import type { DiscoveredProfile } from '../../src/init/discover-profile.ts';
import { found, notFound } from '../../src/init/discovery.ts';
import { renderProfileYaml } from '../../src/init/profile-yaml.ts';
import { INPUT_SCHEMA_FILES, schemaModeline, schemaUrl, type InputFileKind } from '../../src/input/schema-modeline.ts';
import { parseYamlSource } from '../../src/input/yaml-source.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { regressionSuite } from '../../src/regressions/regression-suite.ts';
import { parseSuite } from '../../src/scenarios/loader.ts';
import { toolVersion } from '../../src/version.ts';
import { DEFAULT_WORKLOAD_YAML } from '../../src/workload/default-workload.ts';
import { parseWorkload } from '../../src/workload/workload-file.ts';
import { docBlocks } from '../docs/doc-blocks.ts';
import { sampleReport } from '../report/sample-report.ts';

const ROOT = join(import.meta.dirname, '../..');
const KINDS = Object.keys(INPUT_SCHEMA_FILES) as InputFileKind[];
const committed = (kind: InputFileKind) => JSON.parse(readFileSync(schemaPath(kind), 'utf8')) as Record<string, unknown>;

// Union types (`type: [string, number]`, a duration) are JSON Schema; ajv's strict mode only frowns on them.
const OPTIONS = { strict: true, allErrors: true, allowUnionTypes: true, formats: { uri: (text: string) => URL.canParse(text) } } as const;
const ajv2020 = new Ajv2020(OPTIONS);
/** The YAML language server reads a schema as draft-07: the same schema, without its `$schema`, must mean the same there. */
const ajvDraft7 = new Ajv(OPTIONS);
const VALIDATE = Object.fromEntries(KINDS.map((kind) => [kind, ajv2020.compile(committed(kind))])) as Record<InputFileKind, ValidateFunction>;
const VALIDATE_DRAFT7 = Object.fromEntries(
  KINDS.map((kind) => {
    const { $schema: _, ...schema } = committed(kind);
    return [kind, ajvDraft7.compile(schema)];
  }),
) as Record<InputFileKind, ValidateFunction>;

/** A file's value as the loaders read it (BigInts beyond 2^53 aside, the JSON an editor sees). */
const valueOf = (text: string, file: string) => parseYamlSource(text, file).value;

function errorsOf(validate: ValidateFunction, value: unknown): ErrorObject[] {
  return validate(value) ? [] : (validate.errors ?? []);
}

const yamlFiles = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => `${dir}/${name}`);
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The shipped files a user copies, each with its kind and how the loader reads it. */
const SHIPPED: ReadonlyArray<{ file: string; kind: InputFileKind; parse: (text: string, file: string) => unknown }> = [
  ...yamlFiles('fixtures/profiles').map((file) => ({ file, kind: 'profile' as const, parse: parseProfile })),
  ...yamlFiles('suites').map((file) => ({ file, kind: 'suite' as const, parse: (text: string, name: string) => parseSuite(text, name, BUILTIN_CHECK_NAMES) })),
];

describe('the JSON Schemas of the files a user writes (docs/*-schema.json)', () => {
  it.each(KINDS)('%s: the committed schema is the one its zod schema generates (npm run schemas)', (kind) => {
    expect(readFileSync(schemaPath(kind), 'utf8'), `docs/${INPUT_SCHEMA_FILES[kind]} differs from its zod schema: run npm run schemas`).toBe(schemaText(INPUT_SCHEMAS[kind]()));
  });

  it.each(KINDS)('%s: names itself, and every object in it refuses a key it does not know', (kind) => {
    const schema = committed(kind);
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `urn:clockcheck:${kind}-schema`, title: expect.any(String), description: expect.any(String) });
    const open: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const keywords = node as Record<string, unknown>;
      if (keywords.properties && keywords.additionalProperties !== false) open.push(at);
      for (const [key, child] of Object.entries(keywords)) visit(child, `${at}/${key}`);
    };
    visit(schema, '#');
    expect(open).toEqual([]);
  });

  it.each(KINDS)('%s: uses no keyword a draft-07 reader (the YAML language server) reads otherwise or not at all', (kind) => {
    const text = readFileSync(schemaPath(kind), 'utf8');
    for (const keyword of ['prefixItems', '$dynamicRef', '$dynamicAnchor', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas', 'dependentRequired']) {
      expect(text).not.toContain(`"${keyword}"`);
    }
  });
});

describe('the shipped files, each against its schema and its loader', () => {
  it.each(SHIPPED)('$file is valid for its schema (2020-12 and draft-07) and for the loader', ({ file, kind, parse }) => {
    const text = read(file);
    expect(errorsOf(VALIDATE[kind], valueOf(text, file))).toEqual([]);
    expect(errorsOf(VALIDATE_DRAFT7[kind], valueOf(text, file))).toEqual([]);
    expect(() => parse(text, file)).not.toThrow();
  });

  it('the default workload, the example of the format, is valid for the workload schema and the loader', () => {
    expect(errorsOf(VALIDATE.workload, valueOf(DEFAULT_WORKLOAD_YAML, 'default.yaml'))).toEqual([]);
    expect(() => parseWorkload(DEFAULT_WORKLOAD_YAML, 'default.yaml')).not.toThrow();
  });

  it("the docs' examples of a profile and of a workload are valid for their schemas and the loaders", () => {
    const examples = [
      ...docBlocks('docs/profiles.md').map((block) => ({ block, kind: 'profile' as const, parse: parseProfile })),
      ...docBlocks('docs/rate-limit-and-load.md').map((block) => ({ block, kind: 'workload' as const, parse: parseWorkload })),
    ].filter(({ block }) => block.lang === 'yaml');
    expect(examples.map(({ kind }) => kind)).toEqual(expect.arrayContaining(['profile', 'workload']));
    for (const { block, kind, parse } of examples) {
      const where = `${block.page}:${block.line}`;
      expect(errorsOf(VALIDATE[kind], valueOf(block.text, where) ?? {}), where).toEqual([]);
      expect(() => parse(block.text, where), where).not.toThrow();
    }
  });
});

describe('a mistake an editor shows as the user types', () => {
  const profile = (text: string) => valueOf(text, 'p.yaml');

  it('a misspelt profile key is refused with the path of its object and the key, as the loader refuses it', () => {
    const text = 'rate_limit: { limt: 60 }\n';
    for (const validate of [VALIDATE.profile, VALIDATE_DRAFT7.profile]) {
      expect(errorsOf(validate, profile(text))).toEqual([expect.objectContaining({ instancePath: '/rate_limit', keyword: 'additionalProperties', params: { additionalProperty: 'limt' } })]);
    }
    expect(() => parseProfile(text, 'p.yaml')).toThrow('p.yaml:1: rate_limit.limt: unknown profile key (did you mean "limit"?)');
  });

  it('a value of the wrong type is refused at its path', () => {
    expect(errorsOf(VALIDATE.profile, profile('rate_limit:\n  limit: sixty\n'))).toEqual([expect.objectContaining({ instancePath: '/rate_limit/limit', keyword: 'type', params: { type: 'integer' } })]);
    expect(errorsOf(VALIDATE.profile, profile('page_links: always\n'))).toEqual([expect.objectContaining({ instancePath: '/page_links', keyword: 'enum' })]);
  });

  it('a rule ID outside the catalog is refused in a waiver and in a suite', () => {
    expect(errorsOf(VALIDATE.profile, profile('waivers: [{ rule: RATE-LIMIT-SLIDNG, reason: fixed window }]\n'))).toEqual([expect.objectContaining({ instancePath: '/waivers/0/rule', keyword: 'enum' })]);
    const suite = 'suite: s\ndescription: d\nscenarios:\n  - { id: a, title: t, rules: [NO-SUCH-RULE], steps: [{ check: plain-http }] }\n';
    expect(errorsOf(VALIDATE.suite, valueOf(suite, 's.yaml'))).toEqual([expect.objectContaining({ instancePath: '/scenarios/0/rules/0', keyword: 'enum' })]);
  });

  it('a misspelt key of a suite and of a workload is refused at its path', () => {
    const suite = 'suite: s\ndescription: d\nscenarios:\n  - { id: a, titel: t, rules: [HTTPS-ONLY], steps: [{ check: plain-http }] }\n';
    expect(errorsOf(VALIDATE.suite, valueOf(suite, 's.yaml'))).toContainEqual(expect.objectContaining({ instancePath: '/scenarios/0', params: { additionalProperty: 'titel' } }));
    const workload = 'name: w\narrival: { model: closed, connections: 2, duration: 10s }\nscenarios:\n  - name: a\n    flow:\n      - op: GET /users\n        qeury: { page: 2 }\n';
    expect(errorsOf(VALIDATE.workload, valueOf(workload, 'w.yaml'))).toContainEqual(expect.objectContaining({ instancePath: '/scenarios/0/flow/0', params: { additionalProperty: 'qeury' } }));
  });

  it('leaves optional every key with a default: an empty profile is valid', () => {
    expect(errorsOf(VALIDATE.profile, {})).toEqual([]);
  });
});

const DISCOVERED: DiscoveredProfile = {
  scheme: 'raw',
  activeUserIds: found([5, 6], 'active users'),
  inactiveUserId: notFound('no inactive user'),
  roleUserIds: found({ admin: [5], employee: [6] }, 'role_id'),
  jobId: found(3, 'a job'),
  taskId: notFound('no task'),
  breakRuleId: found(2, 'a break rule'),
  timesheet: found({ id: 9, start: '2030-01-02T08:00:00+01:00', end: '2030-01-02T16:00:00+01:00' }, 'closed'),
  companyTimezone: found('Europe/Berlin', 'the company'),
  unauthenticated: found(401, '401'),
  recordFields: found('camel', 'firstName'),
  listItems: found('/data', 'data'),
  sortNames: found({ first_name: 'firstName' }, 'sorted'),
  dateRangeEnds: found('inclusive', 'both ends'),
  pageSizeOverMax: found('reject', 'refused'),
  pageLinks: found('page-only', 'page alone'),
  versionedPrefix: found('/api/v2', 'served'),
  rateLimit: found({ limit: 100, window: '1m' }, 'X-RateLimit-Limit: 100'),
  writes: null,
  secondCompany: null,
  warnings: [],
  requests: 19,
};

describe('the line that names the schema', () => {
  it('starts the profile init writes, naming the schema of the clockcheck that wrote it, and the profile is valid for it', () => {
    const text = renderProfileYaml(DISCOVERED, { target: 'https://api.example.com', tokenEnv: 'CLOCKCHECK_TOKEN', insecure: false, toolVersion: toolVersion(), writtenAt: new Date(0) });
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=https://cdn.jsdelivr.net/npm/clockcheck@${toolVersion()}/docs/profile-schema.json`);
    expect(errorsOf(VALIDATE.profile, valueOf(text, 'clockcheck.profile.yaml'))).toEqual([]);
    expect(() => parseProfile(text, 'clockcheck.profile.yaml')).not.toThrow();
  });

  it('starts the regressions.yaml a run writes, and the suite is valid for it', () => {
    const report = sampleReport();
    const text = regressionSuite(report)!;
    expect(text.split('\n')[0]).toBe(schemaModeline('suite', report.tool.version));
    expect(errorsOf(VALIDATE.suite, valueOf(text, 'regressions.yaml'))).toEqual([]);
    expect(() => parseSuite(text, 'regressions.yaml', BUILTIN_CHECK_NAMES)).not.toThrow();
  });

  it("names a file of the package, at the package's own version", () => {
    const pkg = JSON.parse(read('package.json')) as { name: string; version: string };
    for (const kind of KINDS) {
      const url = new URL(schemaUrl(kind));
      expect(url.pathname).toBe(`/npm/${pkg.name}@${pkg.version}/docs/${INPUT_SCHEMA_FILES[kind]}`);
      expect(existsSync(join(ROOT, 'docs', INPUT_SCHEMA_FILES[kind]))).toBe(true);
    }
  });

  it.each(SHIPPED)('$file: is its first line, naming its schema by a path that stays inside the package', ({ file, kind }) => {
    const modeline = /^# yaml-language-server: \$schema=(\S+)\n/.exec(read(file));
    expect(modeline, file).not.toBeNull();
    const target = resolve(ROOT, dirname(file), modeline![1]!);
    expect(relative(ROOT, target)).toBe(`docs/${INPUT_SCHEMA_FILES[kind]}`);
    expect(existsSync(target)).toBe(true);
  });

  it("changes no line the loaders report: an error under it names the key's own line", () => {
    const text = `${schemaModeline('profile')}\ntarget: https://api.example.com\ncompany_timzone: Europe/Berlin\n`;
    expect(() => parseProfile(text, 'p.yaml')).toThrow(/^p\.yaml:3: company_timzone: unknown profile key/);
  });
});

describe('the package', () => {
  const pkg = JSON.parse(read('package.json')) as { files: string[]; exports: Record<string, unknown> };

  it('ships docs/, and exports each schema by its name, as report-schema.json', () => {
    expect(pkg.files).toContain('docs');
    for (const file of Object.values(INPUT_SCHEMA_FILES)) expect(pkg.exports[`./${file}`]).toBe(`./docs/${file}`);
  });
});
