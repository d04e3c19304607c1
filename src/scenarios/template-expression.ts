import { parsePositionalArguments } from '../input/arguments.ts';
import { didYouMean } from '../did-you-mean.ts';
import { parseTemplateExpression } from '../input/template-syntax.ts';
import type { TemplateContext } from './template-context.ts';
import { TemplateError } from './template-error.ts';
import { TEMPLATE_FUNCTIONS } from './template-functions.ts';

/**
 * The roots a template path starts at, and the names allowed under them (null: any name; whether
 * it is there only the run knows, e.g. a var captured by an earlier step or a fixture the profile
 * may lack).
 */
export const TEMPLATE_ROOTS: Readonly<Record<string, readonly string[] | null>> = {
  fixtures: null,
  vars: null,
  profile: null,
  company_timezone: [],
  sink: ['url', 'secret'],
  unique: ['email', 'name', 'token'],
};

/**
 * A template expression checked against the functions and roots that exist: how to evaluate it
 * (a call renders a string; a path's value is the run's), or what is wrong with it and a hint.
 */
export type CompiledExpression =
  | { readonly ok: true; readonly kind: 'call' | 'path'; readonly evaluate: (ctx: TemplateContext) => unknown }
  | { readonly ok: false; readonly problem: string; readonly hint?: string };

const hintFor = (name: string, known: readonly string[]): string => {
  const near = didYouMean(name, known);
  return near ? `did you mean "${near}"?` : `known: ${known.join(', ')}`;
};

/** Compiles the text between `{{` and `}}`. The suite loader reports its problems; `evaluate` throws them. */
export function compileExpression(text: string): CompiledExpression {
  const expression = parseTemplateExpression(text);
  if (expression.kind === 'malformed') return { ok: false, problem: expression.problem };
  if (expression.kind === 'call') {
    const fn = TEMPLATE_FUNCTIONS[expression.name];
    if (!fn) return { ok: false, problem: `unknown template function ${expression.name}()`, hint: hintFor(expression.name, Object.keys(TEMPLATE_FUNCTIONS)) };
    const args = parsePositionalArguments(fn.parameters, expression.args);
    if (!args.ok) return { ok: false, problem: `${expression.name}() ${args.issue.problem}` };
    return { ok: true, kind: 'call', evaluate: (ctx) => fn.apply(args.value, ctx) };
  }
  const { root, steps } = expression;
  const members = TEMPLATE_ROOTS[root];
  if (members === undefined) return { ok: false, problem: `unknown template root "${root}"`, hint: hintFor(root, Object.keys(TEMPLATE_ROOTS)) };
  const first = steps[0];
  if (members !== null && first !== undefined) {
    if (members.length === 0) return { ok: false, problem: `${root} is a value, not an object: nothing is under it` };
    if (typeof first !== 'string' || !members.includes(first) || steps.length > 1) {
      return { ok: false, problem: `unknown template value "${text.trim()}"`, hint: hintFor(`${root}.${String(first)}`, members.map((m) => `${root}.${m}`)) };
    }
  }
  return { ok: true, kind: 'path', evaluate: (ctx) => read(root, steps, ctx) };
}

/** The value a path reads in this run; a step that is not there is a precondition the run cannot meet. */
function read(root: string, steps: ReadonlyArray<string | number>, ctx: TemplateContext): unknown {
  const roots: Record<string, () => unknown> = {
    fixtures: () => ctx.fixtures,
    vars: () => ctx.vars,
    profile: () => ctx.profile,
    company_timezone: () => ctx.companyTimezone,
    sink: () => ctx.sink,
    unique: () => ctx.unique(), // fresh values only where asked for
  };
  const shown = [root, ...steps].map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  let value = roots[root]?.();
  if (value === undefined) throw new TemplateError('CLOCKCHECK_PRECONDITION', `"${shown}" is not set (missing "${root}")`);
  for (const key of steps) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) {
      throw new TemplateError('CLOCKCHECK_PRECONDITION', `"${shown}" is not set (missing "${String(key)}")`);
    }
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
