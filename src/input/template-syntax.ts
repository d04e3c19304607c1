/**
 * The grammar of `{{ expr }}` templates, shared by the scenario format and the profile (whose
 * webhook `subscribe_body` holds `{{ sink.url }}`): where templates are, and which paths they
 * read, and the syntax of one expression. What an expression means is the scenario runner's
 * (src/scenarios/template-expression.ts).
 */

/** A string that is exactly one template (it keeps the value's type). */
export const WHOLE = /^\{\{\s*([^}]+?)\s*\}\}$/;
/** Templates inside a longer string (interpolated). */
export const INLINE = /\{\{\s*([^}]+?)\s*\}\}/g;
/** A function call: `jan(1, '09:00')`. */
export const CALL = /^([A-Za-z_]\w*)\s*\((.*)\)$/;
/** A dotted path into the context: `fixtures.active_user_ids[0]`. */
export const PATH = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*$/;

/** The paths a value's templates read, e.g. `fixtures.inactive_user_id` (to skip scenarios whose fixtures are missing). */
export function referencedPaths(value: unknown): string[] {
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(INLINE)) {
        if (!CALL.test(m[1] as string)) found.push(m[1] as string);
      }
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (v !== null && typeof v === 'object') {
      Object.values(v).forEach(visit);
    }
  };
  visit(value);
  return found;
}

/** A literal argument of a template function: an integer or a quoted string. */
export type TemplateLiteral = number | string;

/** A template expression as written: a function call with literal arguments, a path, or what is wrong with it. */
export type TemplateExpression =
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly TemplateLiteral[] }
  | { readonly kind: 'path'; readonly root: string; readonly steps: ReadonlyArray<string | number> }
  | { readonly kind: 'malformed'; readonly problem: string };

const LITERAL = /^(-?\d+)$|^'([^']*)'$|^"([^"]*)"$/;

/** Splits `1, 'a, b', "c"` at the commas outside quotes. */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ',') {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  return [...parts, current];
}

/** Parses the text between `{{` and `}}` (its syntax only: which functions and roots exist is the scenario runner's). */
export function parseTemplateExpression(text: string): TemplateExpression {
  const expression = text.trim();
  const call = CALL.exec(expression);
  if (call) {
    const inner = (call[2] as string).trim();
    const args: TemplateLiteral[] = [];
    for (const raw of inner === '' ? [] : splitArguments(inner)) {
      const literal = LITERAL.exec(raw.trim());
      if (!literal) return { kind: 'malformed', problem: `argument ${raw.trim() || '(empty)'} must be an integer or a quoted string` };
      args.push(literal[1] !== undefined ? Number(literal[1]) : (literal[2] ?? literal[3] ?? ''));
    }
    return { kind: 'call', name: call[1] as string, args };
  }
  if (!PATH.test(expression)) return { kind: 'malformed', problem: `cannot read "${expression}": expected a path like fixtures.job_id or a function call like jan(1, '09:00')` };
  const [root, ...steps] = (expression.match(/[A-Za-z_]\w*|\[\d+\]/g) ?? []).map((part) => (part.startsWith('[') ? Number(part.slice(1, -1)) : part));
  return { kind: 'path', root: root as string, steps };
}
