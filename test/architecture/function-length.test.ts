import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths, type FunctionLength } from '../../scripts/longest-functions.ts';
import { ROOT } from '../support/cli.ts';

/** The longest a function may be: a reader holds it in mind (STYLE.md, "functions a screen long"). */
const MAX_LINES = 80;

/** Every .ts file under src/, as a path relative to the repository. */
function sourceFiles(): string[] {
  return (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .filter((path) => /\.(ts|mts)$/.test(path) && !path.endsWith('.d.ts'))
    .map((path) => `src/${path.split('\\').join('/')}`);
}

const described = (f: FunctionLength) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;

describe('function length', () => {
  it(`no function in src/ is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles()
      .flatMap((file) => functionLengths(file, readFileSync(join(ROOT, file), 'utf8')))
      .filter((f) => f.lines > MAX_LINES);
    expect(long.map(described)).toEqual([]);
  });

  it('finds a long function, arrow function and method in a sample source text, and measures each', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const sample = [
      '/** Its doc comment is not counted. */',
      `export function long(): void {\n${body(MAX_LINES)}\n}`,
      `const arrow = () => {\n${body(3)}\n};`,
      `class Holder {\n  method(): void {\n${body(MAX_LINES + 5)}\n  }\n}`,
    ].join('\n');
    const found = functionLengths('sample.ts', sample);
    expect(found.map((f) => [f.name, f.line, f.lines])).toEqual([
      ['long', 2, MAX_LINES + 2],
      ['arrow', MAX_LINES + 4, 5],
      ['method', MAX_LINES + 10, MAX_LINES + 7],
    ]);
    expect(found.filter((f) => f.lines > MAX_LINES).map((f) => f.name)).toEqual(['long', 'method']);
  });
});
