import { jsonText } from '../contract/json-text.ts';
import { INLINE, WHOLE } from '../input/template-syntax.ts';
import type { TemplateContext } from './template-context.ts';
import { TemplateError } from './template-error.ts';
import { compileExpression } from './template-expression.ts';


/**
 * `{{ expr }}` templates in scenario values. A string that is exactly one template keeps the value's
 * type; templates inside a longer string are interpolated. Expressions are a dotted path into the
 * context (`fixtures.active_user_ids[0]`, `vars.timesheet_id`) or a call of one of the functions of
 * src/scenarios/template-functions.ts.
 */

/** Evaluates one template expression; throws TemplateError (CLOCKCHECK_SOURCE when malformed, CLOCKCHECK_PRECONDITION when a value is not there). */
export function evaluate(expression: string, ctx: TemplateContext): unknown {
  const compiled = compileExpression(expression);
  if (!compiled.ok) throw new TemplateError('CLOCKCHECK_SOURCE', `{{ ${expression.trim()} }}: ${compiled.problem}${compiled.hint ? ` (${compiled.hint})` : ''}`);
  return compiled.evaluate(ctx);
}

/** Renders every string inside `value` (objects and arrays deeply). Throws TemplateError on a bad or missing reference. */
export function render(value: unknown, ctx: TemplateContext): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return evaluate(whole[1] as string, ctx);
    return value.replace(INLINE, (_, expression: string) => {
      const result = evaluate(expression, ctx);
      return typeof result === 'object' ? jsonText(result) : String(result);
    });
  }
  if (Array.isArray(value)) return value.map((item) => render(item, ctx));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, ctx)]));
  }
  return value;
}
