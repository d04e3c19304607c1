import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { parseSuite } from '../../src/scenarios/loader.ts';
import { PARSED_SUITES_FILE, suiteKey } from '../../src/scenarios/suite-cache.ts';
import { DEV_BIN } from '../support/cli.ts';

/**
 * The shipped suites parsed at build time (scripts/cache-suites.mjs, run by `npm run build` and by the
 * tests' build of the sources into .devbuild/): each suite's entry is exactly what parsing its text
 * gives, under the key of that text, so a process that finds it skips the YAML and nothing else changes.
 */
const ROOT = join(import.meta.dirname, '../..');
const built = join(dirname(DEV_BIN), '..', 'scenarios', PARSED_SUITES_FILE);

describe('the parsed suites the build ships', () => {
  it('hold every shipped suite, each exactly as parsing its text gives it (less the file it is shown by)', () => {
    const cache = JSON.parse(readFileSync(built, 'utf8')) as Record<string, unknown>;
    const suites = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.yaml'));
    expect(Object.keys(cache)).toHaveLength(suites.length);
    for (const name of suites) {
      const text = readFileSync(join(ROOT, 'suites', name), 'utf8');
      const parsed = parseSuite(text, `suites/${name}`, BUILTIN_CHECK_NAMES).map(({ file: _file, ...scenario }) => scenario);
      expect(cache[suiteKey(text, BUILTIN_CHECK_NAMES)], name).toEqual(parsed);
    }
  });

  it('key a text by its exact bytes and the check names: one changed character is another suite', () => {
    const text = readFileSync(join(ROOT, 'suites', 'auth.yaml'), 'utf8');
    expect(suiteKey(`${text} `, BUILTIN_CHECK_NAMES)).not.toBe(suiteKey(text, BUILTIN_CHECK_NAMES));
    expect(suiteKey(text, BUILTIN_CHECK_NAMES.slice(1))).not.toBe(suiteKey(text, BUILTIN_CHECK_NAMES));
  });
});
