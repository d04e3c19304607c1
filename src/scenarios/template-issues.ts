import type { FieldIssue } from '../input/source-issue.ts';
import { INLINE, WHOLE } from '../input/template-syntax.ts';
import { compileExpression } from './template-expression.ts';

/**
 * The first malformed template in a value as a suite writes it (objects and arrays deeply), with
 * its field path under the value: a syntax error, an unknown function or root, arguments of the
 * wrong number or kind. Whether a path's value is there (a var, a fixture) only the run knows.
 */
export function templateIssue(value: unknown, path: ReadonlyArray<string | number> = []): FieldIssue | undefined {
  if (typeof value === 'string') {
    for (const match of value.matchAll(INLINE)) {
      const compiled = compileExpression(match[1] as string);
      if (!compiled.ok) return { path, problem: `{{ ${(match[1] as string).trim()} }}: ${compiled.problem}`, ...(compiled.hint ? { hint: compiled.hint } : {}) };
    }
    return undefined;
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : value !== null && typeof value === 'object' ? Object.entries(value) : [];
  for (const [key, item] of entries) {
    const issue = templateIssue(item, [...path, key]);
    if (issue) return issue;
  }
  return undefined;
}

/**
 * Whether a value is only known at run time: a string that is one template reading a path keeps
 * the type of what it reads (`{{ vars.n }}` may be a number), so the kind of an argument it stands
 * for is checked when the step runs, not when the suite loads. A call renders a string.
 */
export function knownOnlyAtRunTime(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const whole = WHOLE.exec(value);
  if (!whole) return false;
  const compiled = compileExpression(whole[1] as string);
  return compiled.ok && compiled.kind === 'path';
}
