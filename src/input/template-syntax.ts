/**
 * The grammar of `{{ expr }}` templates, shared by the scenario format and the profile (whose
 * webhook `subscribe_body` holds `{{ sink.url }}`): where templates are, and which paths they
 * read. What an expression means is the scenario runner's (src/scenarios/template.ts).
 */

/** A string that is exactly one template (it keeps the value's type). */
export const WHOLE = /^\{\{\s*([^}]+?)\s*\}\}$/;
/** Templates inside a longer string (interpolated). */
export const INLINE = /\{\{\s*([^}]+?)\s*\}\}/g;
/** A function call: `jan(1, '09:00')`. */
export const CALL = /^([a-z_]+)\((.*)\)$/;
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
