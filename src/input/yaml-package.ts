import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const load = createRequire(import.meta.url);
let loaded: typeof Yaml | undefined;

/**
 * The yaml package, loaded the first time a command reads or writes YAML. Its seventy-odd modules
 * cost about a tenth of the start-up of a command that needs none of them (`run --plan` and `npm
 * start` read the shipped suites already parsed, `rules` reads no file): the bundle leaves every
 * dependency a package of its own, so what a command imports at the top it loads at start.
 */
export function yamlPackage(): typeof Yaml {
  loaded ??= load('yaml') as typeof Yaml;
  return loaded;
}
