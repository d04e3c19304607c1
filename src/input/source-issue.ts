import type { z } from 'zod';
import { didYouMean } from '../did-you-mean.ts';
import { SourceError, type YamlSource } from './yaml-source.ts';

type Issue = z.core.$ZodIssue;

/** Every object key a zod schema accepts anywhere inside it (for "did you mean" hints). */
export function zodKeys(schema: z.ZodType): string[] {
  const keys = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    if (def.shape && typeof def.shape === 'object') {
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        keys.add(key);
        visit(value);
      }
    }
    for (const field of ['innerType', 'element', 'valueType', 'in', 'out', 'left', 'right']) visit(def[field]);
    if (Array.isArray(def.options)) def.options.forEach(visit);
  };
  visit(schema);
  return [...keys];
}

const depth = (issues: readonly Issue[]) => Math.max(...issues.map((i) => i.path.length));

/**
 * The issue worth showing. In a union, the branch that got deepest is the one the author meant;
 * when no branch got past the union itself, the union's own message (e.g. the status forms) is
 * best. Among the chosen issues an unknown key comes first: a typo explains the "missing" key
 * that zod lists before it.
 */
function pick(issues: readonly Issue[]): Issue {
  const resolved = issues.map((issue): Issue => {
    if (issue.code !== 'invalid_union') return issue;
    const branches = ((issue as { errors?: Issue[][] }).errors ?? [])
      .filter((b) => b.length > 0)
      .map((b) => b.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue));
    const best = branches.sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
    if (!best || depth(best) <= issue.path.length) return issue;
    return pick(best);
  });
  const unknown = resolved.filter((i) => i.code === 'unrecognized_keys').sort((a, b) => b.path.length - a.path.length)[0];
  return unknown ?? (resolved[0] as Issue);
}

/** The path of a field as a suite or profile author reads it: `scenarios[0].steps[1].args.page_size`. */
export const dottedPath = (path: ReadonlyArray<string | number>) =>
  path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '');

/** One problem at one field: its path, what is wrong, a hint; `atKey` when the key itself is wrong (its line is the key's). */
export interface FieldIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly problem: string;
  readonly hint?: string;
  readonly atKey?: boolean;
}

/** The one zod issue worth showing, as a FieldIssue, with "did you mean" for an unknown key. */
export function fieldIssueFromZod(issues: readonly Issue[], knownKeys: readonly string[], what = 'key'): FieldIssue {
  const issue = pick(issues);
  const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] as string;
    const hint = knownKeys.includes(key)
      ? `"${key}" is not allowed at this place`
      : (() => {
          const near = didYouMean(key, knownKeys.filter((k) => k !== key));
          return near ? `did you mean "${near}"?` : undefined;
        })();
    return { path: [...path, key], problem: `unknown ${what}`, ...(hint ? { hint } : {}), atKey: true };
  }
  return { path, problem: issue.message };
}

/** A FieldIssue of a YAML document as a SourceError at its line; `at` is where the issue's path starts in the document. */
export function sourceErrorAt(source: YamlSource, issue: FieldIssue, at: ReadonlyArray<string | number> = []): SourceError {
  const path = [...at, ...issue.path];
  return new SourceError(source.file, source.lineOf(path, issue.atKey ?? false), dottedPath(path), issue.problem, issue.hint);
}

/** Turns zod issues on a YAML document into one SourceError at the right line, with a hint for unknown keys. */
export function sourceErrorFromIssues(source: YamlSource, issues: readonly Issue[], knownKeys: readonly string[], what = 'key'): SourceError {
  return sourceErrorAt(source, fieldIssueFromZod(issues, knownKeys, what));
}
