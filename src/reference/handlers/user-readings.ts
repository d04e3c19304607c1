import type { ServerContext } from '../context.ts';
import type { ServerViolation } from '../http/api-response.ts';

/**
 * What the reference takes for an e-mail address (USR-EMAIL-FORMAT; the spec shows no format):
 * exactly one `@`, a non-empty local part, a domain with a dot, no whitespace.
 */
export const EMAIL_ADDRESS_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields the §4.2 sample annotates as required on edit (USR-EDIT-REQUIRED). */
export const EDIT_SAMPLE_REQUIRED = ['first_name', 'last_name', 'email', 'password'] as const;

/**
 * USR-EMAIL-FORMAT on POST and PUT /users: when the dialect validates e-mails, an `email` string that
 * is not an address. A non-string `email` is USR-FIELD-TYPES, judged by the field table.
 */
export function emailFormatViolations(ctx: ServerContext, body: Readonly<Record<string, unknown>>): ServerViolation[] {
  if (ctx.dialect.emailFormat !== 'validated' || ctx.fault('email-format-unchecked')) return [];
  if (typeof body.email !== 'string' || EMAIL_ADDRESS_SHAPE.test(body.email)) return [];
  return [{ rule: 'USR-EMAIL-FORMAT', field: 'email', message: 'email must be an e-mail address' }];
}

/**
 * USR-EDIT-REQUIRED on PUT /users/{id}: under the `all-four` reading (or the `edit-requires-all-four`
 * fault, which imposes it on a dialect that reads `none`), each of the four sample fields the body
 * lacks. A null one is already USR-FIELD-TYPES.
 */
export function editRequiredViolations(ctx: ServerContext, body: Readonly<Record<string, unknown>>): ServerViolation[] {
  if (ctx.dialect.editRequires !== 'all-four' && !ctx.fault('edit-requires-all-four')) return [];
  return EDIT_SAMPLE_REQUIRED.filter((name) => body[name] === undefined).map((name) => ({
    rule: 'USR-EDIT-REQUIRED',
    field: name,
    message: `${name} is required on edit`,
  }));
}
