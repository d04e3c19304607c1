import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseYamlSource, SourceError } from '../input/yaml-source.ts';
import { MAX_SUITE_BYTES, readInputFile } from '../input/input-file.ts';
import { sourceErrorAt, sourceErrorFromIssues } from '../input/source-issue.ts';
import { KNOWN_KEYS, suiteSchema, type Scenario } from './format.ts';
import { scenarioIssue } from './scenario-issues.ts';
import { shippedSuite } from './suite-cache.ts';

/** A scenario as loaded: with its suite, file and line, and its run-wide ID `suite/scenario`. */
export interface LoadedScenario {
  readonly id: string;
  readonly suite: string;
  readonly file: string;
  readonly line: number;
  readonly scenario: Scenario;
}

/**
 * Parses and validates one suite file's text: its format, then what the format cannot see
 * (src/scenarios/scenario-issues.ts: checks, their args, templates). `knownChecks` are the
 * built-in check names; their arguments are declared in src/checks/registry.ts.
 */
export function parseSuite(text: string, file: string, knownChecks: readonly string[]): LoadedScenario[] {
  const source = parseYamlSource(text, file);
  const parsed = suiteSchema.safeParse(source.value);
  if (!parsed.success) throw sourceErrorFromIssues(source, parsed.error.issues, KNOWN_KEYS);
  const suite = parsed.data;
  const seen = new Set<string>();
  return suite.scenarios.map((scenario, index) => {
    const at = ['scenarios', index];
    if (seen.has(scenario.id)) throw new SourceError(file, source.lineOf([...at, 'id']), `scenarios[${index}].id`, `duplicate scenario id "${scenario.id}"`);
    seen.add(scenario.id);
    const issue = scenarioIssue(scenario, knownChecks);
    if (issue) throw sourceErrorAt(source, issue, at);
    return { id: `${suite.suite}/${scenario.id}`, suite: suite.suite, file, line: source.lineOf(at), scenario };
  });
}

/** Suite texts parsed in this process, at most this many. */
const MAX_PARSED = 32;
const PARSED = new Map<string, readonly LoadedScenario[]>();

/**
 * parseSuite, once per text in a process: a process that certifies many times (the selftest, a
 * test file) reads each suite file each time but parses a text it has seen before only once (a
 * suite's YAML and its validation cost a quarter of a second of CPU). What it returns is frozen,
 * deeply: shared between runs, it cannot be changed by one of them.
 */
function parseSuiteOnce(text: string, file: string, knownChecks: readonly string[]): readonly LoadedScenario[] {
  const key = `${file}\u0000${knownChecks.join(',')}\u0000${text}`;
  const known = PARSED.get(key);
  if (known) return known;
  const cached = shippedSuite(text, knownChecks);
  const parsed = deepFreeze(cached ? cached.map((scenario) => ({ ...scenario, file })) : parseSuite(text, file, knownChecks));
  if (PARSED.size >= MAX_PARSED) PARSED.delete(PARSED.keys().next().value as string);
  PARSED.set(key, parsed);
  return parsed;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Converts a glob (`*`, `**`, `?`) to a RegExp over forward-slash paths. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      pattern += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '?') pattern += '[^/]';
    else pattern += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join((e as { parentPath?: string; path?: string }).parentPath ?? (e as { path: string }).path, e.name));
}

/**
 * Loads every suite file under `suitesDir` whose path (relative to the working directory, or to the
 * suites folder) matches `glob`, in file-name order. IDs must be unique across files.
 */
export async function loadSuites(suitesDir: string, glob: string, knownChecks: readonly string[]): Promise<LoadedScenario[]> {
  const matcher = globToRegExp(glob);
  const root = resolve(suitesDir);
  const files = (await listFiles(root))
    .filter((f) => matcher.test(relative(process.cwd(), f)) || matcher.test(relative(root, f)))
    .sort();
  if (files.length === 0) throw new SourceError(suitesDir, 0, '', `no suite file matches "${glob}"`);
  const loaded: LoadedScenario[] = [];
  const ids = new Map<string, string>();
  for (const file of files) {
    const shown = relative(process.cwd(), file);
    for (const scenario of parseSuiteOnce(await readInputFile(file, shown, MAX_SUITE_BYTES, 'suite file'), shown, knownChecks)) {
      const earlier = ids.get(scenario.id);
      if (earlier) throw new SourceError(shown, scenario.line, 'suite', `scenario id ${scenario.id} is also defined in ${earlier}`);
      ids.set(scenario.id, shown);
      loaded.push(scenario);
    }
  }
  return loaded;
}
