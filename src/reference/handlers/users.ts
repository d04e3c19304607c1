import { USER_DEFAULTS, USER_FIELDS, userViolations } from '../../contract/payloads/user.ts';
import type { Violation } from '../../contract/violation.ts';
import type { ServerContext } from '../context.ts';
import type { CompanyScope } from '../companies/company-scope.ts';
import { fromSpec, ok, validationError, type ServerViolation } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';
import { parseFilter, parseListQuery, sortable, sortRecords } from '../list-query.ts';
import { paginate } from '../pagination.ts';
import { hashPassword } from '../password-hash.ts';
import type { UserRecord } from '../records.ts';
import { requireObjectBody, requireOwnRecord } from './require-record.ts';
import { newUserRecord } from '../new-user.ts';
import { editRequiredViolations, emailFormatViolations } from './user-readings.ts';
import { storedUserFields } from '../stored-form.ts';

const SORTABLE = sortable(['id', 'first_name', 'last_name', 'email', 'role_id', 'created_at']);

/**
 * The user as returned: everything but the password hash. Under `user-password-hash-shown` the hash
 * comes back as `password` (the model's hidden-fields list forgot the column); under
 * `user-password-echoed` a write's answer carries the password its body sent (`sent`: the answer is
 * built from the request merged over the record).
 */
export function publicUser(ctx: ServerContext, user: UserRecord, sent?: Record<string, unknown>): Omit<UserRecord, 'password_hash'> & { password?: string } {
  const { password_hash: hash, ...rest } = user;
  if (sent !== undefined && typeof sent.password === 'string' && ctx.fault('user-password-echoed')) return { ...rest, password: sent.password };
  return ctx.fault('user-password-hash-shown') && hash ? { ...rest, password: hash } : rest;
}

/** Spec violations, minus the ones a switched-on fault stops checking. */
function faultTolerated(ctx: ServerContext, violations: Violation[], body: Record<string, unknown>, operation: 'create' | 'update'): Violation[] {
  return violations.filter((v) => {
    const value = body[v.field];
    switch (v.ruleId) {
      case 'USR-PASSWORD-CLASSES':
        if (ctx.fault('password-unchecked-on-edit') && operation === 'update') return false;
        return !(ctx.fault('password-special-not-required') && /[a-z]/.test(String(value)) && /[A-Z]/.test(String(value)) && /\d/.test(String(value)));
      case 'USR-PASSWORD-LENGTH':
        if (ctx.fault('password-unchecked-on-edit') && operation === 'update') return false;
        if (ctx.fault('password-length-utf16') && String(value).length >= 6) return false;
        if (ctx.fault('password-length-bytes') && Buffer.byteLength(String(value)) >= 6) return false;
        return !(ctx.fault('password-min-5') && [...String(value)].length === 5);
      case 'USR-EMPLOYEE-CODE':
        if (ctx.fault('employee-code-length-unchecked') && /^\d+$/.test(String(value))) return false;
        return !(ctx.fault('employee-code-non-digits') && [...String(value)].length === 4);
      case 'USR-ROLE-ID-VALUES':
        return !ctx.fault('role-id-unchecked');
      case 'USR-BILLING-RATE-TYPE-VALUES':
        return !ctx.fault('billing-rate-type-unchecked');
      case 'USR-CREATE-REQUIRED':
        return !(ctx.fault('email-not-required') && v.field === 'email');
      default:
        return true;
    }
  });
}

/**
 * An e-mail address is unique within the company: another company's user with the same address is
 * not looked at (a refusal would tell one company that an address is in use at another).
 */
function uniqueEmail(company: CompanyScope, email: unknown, exceptId?: number): ServerViolation[] {
  if (typeof email !== 'string') return [];
  const taken = company.users.all().some((u) => u.id !== exceptId && u.email.toLowerCase() === email.toLowerCase());
  return taken ? [{ rule: null, field: 'email', message: 'email has already been taken' }] : [];
}

/** The accepted fields of a body (unknown keys dropped), password hashed. */
function acceptedFields(body: Record<string, unknown>): Partial<UserRecord> {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(USER_FIELDS)) {
    if (name !== 'password' && body[name] !== undefined) fields[name] = body[name];
  }
  if (typeof body.password === 'string') fields.password_hash = hashPassword(body.password);
  return fields as Partial<UserRecord>;
}

function defaults(ctx: ServerContext) {
  return {
    ...USER_DEFAULTS,
    ...(ctx.fault('role-id-default-admin') ? { role_id: 1 } : {}),
    ...(ctx.fault('track-location-default-true') ? { track_location: true } : {}),
    ...(ctx.fault('pay-rate-default-null') ? { pay_rate: null } : {}),
  };
}

function blankUser(ctx: ServerContext, now: string): Omit<UserRecord, 'id'> {
  return newUserRecord(now, defaults(ctx));
}

/**
 * Under `password-six-refused`: a password of exactly 6 characters (the minimum, §8) refused as too
 * short; under `password-special-subset`: one whose special characters are none of !@#$%^&*-_+=?.
 */
function passwordEdgeRefusal(ctx: ServerContext, body: Record<string, unknown>): ServerViolation[] {
  if (typeof body.password !== 'string') return [];
  if (ctx.fault('password-six-refused') && [...body.password].length === 6) return [{ rule: 'USR-PASSWORD-LENGTH', field: 'password', message: 'password must be at least 7 characters' }];
  if (ctx.fault('password-special-subset') && /[^A-Za-z0-9]/.test(body.password) && !/[!@#$%^&*\-_+=?]/.test(body.password)) {
    return [{ rule: 'USR-PASSWORD-CLASSES', field: 'password', message: 'password must contain one of !@#$%^&*-_+=?' }];
  }
  return [];
}

/** Under `employee-code-leading-zero-refused`: a valid code that starts with 0 refused (validated as a number from 1000 to 9999). */
function employeeCodeRefusal(ctx: ServerContext, body: Record<string, unknown>): ServerViolation[] {
  const code = body.employee_code;
  if (!ctx.fault('employee-code-leading-zero-refused') || typeof code !== 'string' || !/^0\d{3}$/.test(code)) return [];
  return [{ rule: 'USR-EMPLOYEE-CODE', field: 'employee_code', message: 'employee_code must be a number between 1000 and 9999' }];
}

/** POST /users (§4.2): create with the §2.2 defaults; the e-mail's format as the dialect reads USR-EMAIL-FORMAT. */
function createUser(ctx: ServerContext, request: ApiRequest) {
  const body = requireObjectBody(request.body);
  const violations = [
    ...fromSpec(faultTolerated(ctx, userViolations(body, 'create'), body, 'create')),
    ...passwordEdgeRefusal(ctx, body),
    ...employeeCodeRefusal(ctx, body),
    ...emailFormatViolations(ctx, body),
    ...uniqueEmail(request.company, body.email),
  ];
  if (violations.length > 0) throw validationError(violations);
  const now = ctx.timestamp();
  const written = { ...blankUser(ctx, now), ...acceptedFields(body) };
  const user = request.company.users.insert({ ...blankUser(ctx, now), ...storedUserFields(ctx, acceptedFields(body), 'create') });
  request.company.notify('users', user.id, 'created');
  staleLists.get(ctx)?.clear();
  // The answer shows what was written; a stored-form fault shows only when the user is read again (stored-form.ts).
  return ctx.dialect.created('user', publicUser(ctx, { ...written, id: user.id }, body), 'User created successfully.');
}

/**
 * PUT /users/{userId} (§4.2): the given fields are checked with the same rules; a partial update
 * unless the dialect reads USR-EDIT-REQUIRED as `all-four`.
 */
function editUser(ctx: ServerContext, request: ApiRequest) {
  // Scope spot, the lookup by ID alone: the user is looked up within the company, so another
  // company's user is a 404 like an ID that never existed; a backend that finds it by ID alone
  // (`request.company.users.shared` in its place) edits another company's user.
  const stored = requireOwnRecord(request.company.users, request.params.userId, 'User', { byIdAlone: ctx.fault('user-edit-by-id-alone'), foreignForbidden: ctx.fault('foreign-id-forbidden') });
  const body = requireObjectBody(request.body);
  const violations = [
    ...fromSpec(faultTolerated(ctx, userViolations(body, 'update'), body, 'update')),
    ...passwordEdgeRefusal(ctx, body),
    ...employeeCodeRefusal(ctx, body),
    ...editRequiredViolations(ctx, body),
    ...emailFormatViolations(ctx, body),
    ...uniqueEmail(request.company, body.email, stored.id),
  ];
  if (violations.length > 0) throw validationError(violations);
  const base = ctx.fault('user-put-replaces')
    ? { ...blankUser(ctx, stored.created_at), email: stored.email, password_hash: stored.password_hash, phone: null }
    : stored;
  const updatedAt = ctx.timestamp();
  const user = request.company.users.replace({ ...base, ...storedUserFields(ctx, acceptedFields(body), 'edit'), id: stored.id, updated_at: updatedAt });
  request.company.notify('users', user.id, 'updated');
  return ctx.dialect.updated('user', publicUser(ctx, { ...base, ...acceptedFields(body), id: stored.id, updated_at: updatedAt }, body), 'User updated successfully.');
}

/** Under `user-list-stale-after-edit`: GET /users answers kept per company and query, cleared by a create and not by an edit. */
const staleLists = new WeakMap<ServerContext, Map<string, ReturnType<typeof listUsersNow>>>();

function listUsers(ctx: ServerContext, request: ApiRequest) {
  if (!ctx.fault('user-list-stale-after-edit')) return listUsersNow(ctx, request);
  const cache = staleLists.get(ctx) ?? new Map();
  staleLists.set(ctx, cache);
  const key = `${request.company.company.id} ${[...request.query.entries()].sort().join('&')}`;
  const answer = cache.get(key) ?? listUsersNow(ctx, request);
  cache.set(key, answer);
  return answer;
}

/** The filters `active` and `role` of GET /users (§4.2) as a test of a user, as the filter faults read them. */
function userFilters(ctx: ServerContext, query: URLSearchParams): (user: Readonly<UserRecord>) => boolean {
  const active = parseFilter(query, 'active', { '1': true, '0': false, true: true, false: false });
  const parsedRole = parseFilter(query, 'role', { '1': 1, '2': 2, '3': 3 });
  // Under `filter-role-manager-ignored` the filter maps 1 and 3 only: role=2 filters nothing.
  const role = parsedRole === 2 && ctx.fault('filter-role-manager-ignored') ? null : parsedRole;
  // Under `filter-active-false-ignored` only active=1 filters (a truthiness test on the value: 0 reads as no filter).
  const byActive = active !== null && !ctx.fault('filter-active-ignored') && !(active === false && ctx.fault('filter-active-false-ignored'));
  const byRole = role !== null && !ctx.fault('filter-role-ignored');
  return (u) => (!byActive || u.active === active) && (!byRole || u.role_id === role);
}

/** §4.6 `search` on GET /users: the value within the first name, the last name or the e-mail, any case. */
function userSearch(search: string | null): (user: Readonly<UserRecord>) => boolean {
  if (!search) return () => true;
  const needle = search.toLowerCase();
  return (u) => [u.first_name, u.last_name, u.email].some((s) => s.toLowerCase().includes(needle));
}

/** GET /users (§4.2): filters `active` and `role`, search on names and email, sort, pagination; the company's users only. */
function listUsersNow(ctx: ServerContext, request: ApiRequest) {
  const list = parseListQuery(request.query, SORTABLE, ctx);
  const filtered = userFilters(ctx, request.query);
  const searched = userSearch(list.search);
  // Scope spot, a search without the scope: the company, the filters and the search are one AND.
  // Under `search-index-unscoped` a search goes to an index of every company's users, queried with the
  // filters but not the company; under `search-total-unscoped` its total comes from a count query
  // without the company, while the page holds the company's users only.
  const matches = (u: Readonly<UserRecord>) => filtered(u) && searched(u);
  const listed = list.search && ctx.fault('search-index-unscoped') ? request.company.users.listedEscaping(matches, matches) : request.company.users.listed(matches);
  const records = listed.records;
  const total = list.search && ctx.fault('search-total-unscoped') ? request.company.users.shared.all().filter(matches).length : listed.total;
  return ok(ctx.dialect.list('user', paginate(sortRecords(records, list.sort, ctx), list, request, ctx, (u) => ctx.dialect.record('user', publicUser(ctx, u)), total)));
}

export function userRoutes(router: Router, ctx: ServerContext): void {
  router
    .add('POST', '/users', (r) => createUser(ctx, r))
    .add('PUT', '/users/:userId', (r) => editUser(ctx, r))
    .add('GET', '/users', (r) => listUsers(ctx, r));
}
