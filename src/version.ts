import { readFileSync } from 'node:fs';

/** clockcheck's own version, from its package.json (the same file in a checkout and in the package). */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
