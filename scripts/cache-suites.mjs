// Writes <outDir>/scenarios/parsed-suites.json: the shipped suites/ parsed by the loader, where the
// bundle looks for them (src/scenarios/suite-cache.ts). A suite whose parse does not survive JSON
// exactly is left out (it is then parsed at run time, as any suite is). `node scripts/cache-suites.mjs dist`.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, process.argv[2] ?? 'dist');
const { parseSuite, BUILTIN_CHECK_NAMES, suiteKey, PARSED_SUITES_FILE } = await importSources([
  "export { parseSuite } from './scenarios/loader.ts';",
  "export { BUILTIN_CHECK_NAMES } from './checks/names.ts';",
  "export { suiteKey, PARSED_SUITES_FILE } from './scenarios/suite-cache.ts';",
]);
const entries = {};
for (const name of readdirSync(join(root, 'suites')).filter((f) => f.endsWith('.yaml')).sort()) {
  const text = readFileSync(join(root, 'suites', name), 'utf8');
  const scenarios = parseSuite(text, `suites/${name}`, BUILTIN_CHECK_NAMES).map(({ file: _file, ...scenario }) => scenario);
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(scenarios)), scenarios)) entries[suiteKey(text, BUILTIN_CHECK_NAMES)] = scenarios;
  else console.error(`cache-suites: ${name} does not survive JSON exactly; left out`);
}
mkdirSync(join(outDir, 'scenarios'), { recursive: true });
writeFileSync(join(outDir, 'scenarios', PARSED_SUITES_FILE), JSON.stringify(entries));

/**
 * A module of these re-exports from src/, bundled for the moment and imported (the build writes no
 * module file by file). It is written into outDir, whence the packages it imports resolve, and removed.
 */
async function importSources(reexports) {
  const { outputFiles } = await build({
    stdin: { contents: reexports.join('\n'), resolveDir: join(root, 'src'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'error',
  });
  const file = join(outDir, `.cache-suites-${process.pid}.mjs`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(file, outputFiles[0].text);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}
