/**
 * Lists the longest functions under the given folders (default: src/), longest first, from the
 * TypeScript syntax tree: every function declaration, method, arrow function and function
 * expression, with its first line and its length in lines (the whole node, its doc comment not
 * counted). `npm run longest -- [--max N] [--top K] [--json] [DIR ...]`: with --max, exits 1 when
 * any function outside the allowed list is longer than N lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node)) && node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isGetAccessor(node) || ts.isSetAccessor(node)) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function of one file with its length in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(argv: string[]): number {
  let max: number | undefined;
  let top = 20;
  let json = false;
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--max') max = Number(argv[++i]);
    else if (arg === '--top') top = Number(argv[++i]);
    else if (arg === '--json') json = true;
    else dirs.push(arg);
  }
  const all = (dirs.length ? dirs : ['src'])
    .flatMap((dir) => sourceFiles(dir))
    .flatMap((file) => functionLengths(relative(process.cwd(), file), readFileSync(file, 'utf8')))
    .sort((a, b) => b.lines - a.lines);
  const shown = max === undefined ? all.slice(0, top) : all.filter((f) => f.lines > max!);
  if (json) console.log(JSON.stringify(shown, null, 2));
  else for (const f of shown) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
  if (max !== undefined && !json) console.log(shown.length === 0 ? `no function over ${max} lines` : `${shown.length} function(s) over ${max} lines`);
  return max !== undefined && shown.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
