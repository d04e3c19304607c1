import type { z } from 'zod';
import { dottedPath, fieldIssueFromZod, zodKeys, type FieldIssue } from './source-issue.ts';

/**
 * The one parser of arguments. A check step's `args:` and a template function's call are both
 * declared as a zod object (src/checks/*.ts, src/scenarios/template-functions.ts) and parsed here:
 * the typed value, or the one issue worth showing with its field path (a "did you mean" for an
 * unknown key). The suite loader turns the issue into a SourceError at its line; the run path into
 * an error with the same text (`issueText`).
 */
export type ParsedArguments<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issue: FieldIssue };

/** Parses `raw` against its declaration. */
export function parseArguments<S extends z.ZodType>(declared: S, raw: unknown): ParsedArguments<z.output<S>> {
  const parsed = declared.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issue: issueOf(parsed.error.issues, declared, raw) };
}

/**
 * The issue of arguments as a suite writes them, before the run: a value `deferred` says only the
 * run knows (a whole `{{ vars.id }}`, which keeps the type of what it reads) is no issue yet; the
 * run parses the rendered arguments again with parseArguments.
 */
export function argumentsIssue(declared: z.ZodType, raw: unknown, deferred: (value: unknown) => boolean): FieldIssue | undefined {
  const parsed = declared.safeParse(raw);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues.filter((issue) => !deferred(valueAt(raw, issue.path)));
  return issues.length > 0 ? issueOf(issues, declared, raw) : undefined;
}

/** The issue worth showing; a required argument left out is called missing, not "received undefined". */
function issueOf(issues: readonly z.core.$ZodIssue[], declared: z.ZodType, raw: unknown): FieldIssue {
  const issue = fieldIssueFromZod(issues, zodKeys(declared), 'argument');
  const key = issue.path.at(-1);
  const holder = valueAt(raw, issue.path.slice(0, -1));
  const missing = !issue.atKey && key !== undefined && holder !== null && typeof holder === 'object' && !Object.hasOwn(holder, key);
  return missing ? { ...issue, problem: 'required argument missing' } : issue;
}

/** An issue as one line, its path under `at`: `args.page_size: Invalid input: expected number, received string`. */
export function issueText(issue: FieldIssue, at: ReadonlyArray<string | number> = []): string {
  const path = dottedPath([...at, ...issue.path]);
  return `${path ? `${path}: ` : ''}${issue.problem}${issue.hint ? ` (${issue.hint})` : ''}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Positional arguments (a template function's call) parsed against a declaration whose keys are in
 * call order: the value by name, or an issue that names the argument, `argument 2 (time): …`.
 */
export function parsePositionalArguments<S extends z.ZodObject>(declared: S, args: readonly unknown[]): ParsedArguments<z.output<S>> {
  const names = Object.keys(declared.shape);
  if (args.length > names.length) {
    return { ok: false, issue: { path: [], problem: `takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')}), got ${args.length}` } };
  }
  const parsed = parseArguments(declared, Object.fromEntries(names.slice(0, args.length).map((name, i) => [name, args[i]])));
  if (parsed.ok) return parsed;
  const name = parsed.issue.path[0];
  const position = typeof name === 'string' ? names.indexOf(name) : -1;
  return { ok: false, issue: { path: [], problem: position < 0 ? parsed.issue.problem : `argument ${position + 1} (${name}): ${parsed.issue.problem}` } };
}
