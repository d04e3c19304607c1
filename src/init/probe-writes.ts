import { randomBytes } from 'node:crypto';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import { said } from './list-answer.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const is2xx = (e: Exchange) => e.response !== undefined && e.response.status >= 200 && e.response.status < 300;
const is4xx = (e: Exchange) => e.response !== undefined && e.response.status >= 400 && e.response.status < 500 && e.response.status !== 429;

/** What the writes showed, and what they left on the target. */
export interface WriteFindings {
  readonly create: Discovery<number>;
  readonly update: Discovery<number>;
  readonly validation: Discovery<number>;
  readonly idPointer: Discovery<string>;
  /**
   * A closed timesheet the writes created (when asked: the target showed none with offsets), for
   * `fixtures.timesheet`: the break examples of `openapi --profile` and `fuzz break` go inside it.
   */
  readonly timesheet: Discovery<{ id: number; start: string; end: string }> | null;
  /** What was created, for the user (the spec has no delete for users). */
  readonly created: readonly string[];
  readonly warnings: readonly string[];
}

/** Where the `id` of a created record is: at the top, or one envelope key deep (an object or a one-element array). */
export function idPointerOf(json: unknown): { pointer: string; id: unknown } | null {
  if (!isObject(json)) return null;
  if ('id' in json) return { pointer: '/id', id: json.id };
  for (const [key, value] of Object.entries(json)) {
    const escaped = key.replace(/~/g, '~0').replace(/\//g, '~1');
    if (isObject(value) && 'id' in value) return { pointer: `/${escaped}/id`, id: value.id };
    if (Array.isArray(value) && value.length === 1 && isObject(value[0]) && 'id' in value[0]) return { pointer: `/${escaped}/0/id`, id: value[0].id };
  }
  return null;
}

/**
 * `init --probe-writes`: three writes that show what the spec leaves "not shown" (§7) and reads
 * cannot: a user create (its status and where the created ID is), the same create with a
 * 5-character password (USR-PASSWORD-LENGTH: the validation status), and an edit of the created
 * user with all four sample fields (valid under either reading of USR-EDIT-REQUIRED: the update
 * status). It leaves one user, named in `created`.
 */
export async function probeWrites(send: (request: TargetRequest) => Promise<Exchange>, timesheetFor?: number): Promise<WriteFindings> {
  const nonce = randomBytes(4).toString('hex');
  const email = `clockcheck.init.${nonce}@example.com`;
  const user = { first_name: 'Clockcheck', last_name: 'Init', email, password: 'Valid-pass1' };
  const warnings: string[] = [];
  const created: string[] = [];

  const create = await send({ method: 'POST', path: '/users', json: user });
  const location = is2xx(create) ? idPointerOf(create.response?.json) : null;
  if (is2xx(create)) created.push(`user ${location ? String(location.id) : '(ID not shown)'}, ${email} (${said(create)})`);
  const invalid = await send({ method: 'POST', path: '/users', json: { ...user, email: `clockcheck.init.${nonce}.short@example.com`, password: 'Aa1!x' } });
  if (is2xx(invalid)) {
    warnings.push(`${said(invalid)}: a 5-character password was accepted (USR-PASSWORD-LENGTH will fail)`);
    created.push(`user clockcheck.init.${nonce}.short@example.com (${said(invalid)}, a password the spec forbids)`);
  }
  const edit = location ? await send({ method: 'PUT', path: `/users/${String(location.id)}`, json: { ...user, password: 'Valid-pass2' } }) : null;
  const timesheet = timesheetFor === undefined ? null : await probeTimesheet(send, timesheetFor, created);

  return {
    create: is2xx(create) ? found(create.response!.status, `${said(create)}: a valid user create`) : notFound(`${said(create)}: a valid user create was not accepted, so its status is not known`),
    idPointer: location ? found(location.pointer, `${said(create)}: the created user's ID ${String(location.id)} is at ${location.pointer}`) : notFound(`${said(create)}: no \`id\` at the top or one envelope key deep; give the JSON pointer to a created resource's ID`),
    validation: is4xx(invalid) ? found(invalid.response!.status, `${said(invalid)}: a user create with a 5-character password (USR-PASSWORD-LENGTH)`) : notFound(`${said(invalid)}: a create with a 5-character password was not rejected with a 4xx`),
    update: edit && is2xx(edit) ? found(edit.response!.status, `${said(edit)}: an edit of that user with first_name, last_name, email and password`) : notFound(edit ? `${said(edit)}: the edit of the created user was not accepted` : 'no user was created to edit'),
    timesheet,
    created,
    warnings,
  };
}

/**
 * A closed timesheet of `userId` (an active user), 09:00 to 17:00 UTC on 2026-03-02, its zones
 * given as UTC so its offsets (+00:00) are right whatever the company timezone (§4.3): a timesheet
 * whose start and end init knows, for `fixtures.timesheet`.
 */
async function probeTimesheet(send: (request: TargetRequest) => Promise<Exchange>, userId: number, created: string[]): Promise<Discovery<{ id: number; start: string; end: string }>> {
  const sheet = { start: '2026-03-02T09:00:00+00:00', end: '2026-03-02T17:00:00+00:00' };
  const answer = await send({ method: 'POST', path: '/timesheets', json: { user_id: userId, ...sheet, clock_in_timezone: 'UTC', clock_out_timezone: 'UTC' } });
  const location = is2xx(answer) ? idPointerOf(answer.response?.json) : null;
  const id = typeof location?.id === 'number' && Number.isSafeInteger(location.id) ? location.id : typeof location?.id === 'string' && /^\d{1,15}$/.test(location.id) ? Number(location.id) : null;
  if (is2xx(answer)) created.push(`timesheet ${id ?? '(ID not shown)'} of user ${userId}, ${sheet.start} to ${sheet.end} (${said(answer)})`);
  if (id === null) return notFound(`${said(answer)}: a closed timesheet of user ${userId} was ${is2xx(answer) ? 'created without an integer ID' : 'not created'}; \`clockcheck fuzz break\` and the break examples need one: give its id, start and end`);
  return found({ id, ...sheet }, `${said(answer)}: created by --probe-writes (user ${userId}, in UTC)`);
}
