// Writes <outDir>/scenarios/parsed-suites.json: the shipped suites/ parsed by the compiled loader in
// <outDir> (src/scenarios/suite-cache.ts). A suite whose parse does not survive JSON exactly is left
// out (it is then parsed at run time, as any suite is). `node scripts/cache-suites.mjs dist`.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, process.argv[2] ?? 'dist');
const { parseSuite } = await import(pathToFileURL(join(outDir, 'scenarios/loader.js')).href);
const { BUILTIN_CHECK_NAMES } = await import(pathToFileURL(join(outDir, 'checks/names.js')).href);
const { suiteKey, PARSED_SUITES_FILE } = await import(pathToFileURL(join(outDir, 'scenarios/suite-cache.js')).href);
const entries = {};
for (const name of readdirSync(join(root, 'suites')).filter((f) => f.endsWith('.yaml')).sort()) {
  const text = readFileSync(join(root, 'suites', name), 'utf8');
  const scenarios = parseSuite(text, `suites/${name}`, BUILTIN_CHECK_NAMES).map(({ file: _file, ...scenario }) => scenario);
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(scenarios)), scenarios)) entries[suiteKey(text, BUILTIN_CHECK_NAMES)] = scenarios;
  else console.error(`cache-suites: ${name} does not survive JSON exactly; left out`);
}
writeFileSync(join(outDir, 'scenarios', PARSED_SUITES_FILE), JSON.stringify(entries));
