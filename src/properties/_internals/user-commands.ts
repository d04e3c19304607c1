import fc from 'fast-check';
import type { RuleId } from '../../contract/rules.ts';
import { readCreatedId } from '../../records/created-id.ts';
import { readField } from '../../records/field-name.ts';
import { createdFields, differences, editedFields, show, type Expected } from '../../records/written-record.ts';
import { affordable, answered, listed, ok, sameId, sent, SequenceFailure, SequencePrecondition, userVar, type RequestBudget, type SequenceModel, type SequenceReal, type SequenceUser } from './sequence-model.ts';

/**
 * The commands of the user-sequences family (fast-check model-based testing, `fc.commands`): the
 * spec's user operations (§4.2) as a client strings them together. The model is what the sequence
 * wrote; after each command the target's answer must agree with it. Only valid requests are sent
 * (a create with the four required fields, an edit that carries all four too, so it is valid
 * whichever way the target reads USR-EDIT-REQUIRED): every failure is one of state, not validation.
 */

const PASSWORD = 'Valid-pass1';
const FIRST = ['Ada', 'Zoë', 'Rene\u0301e', 'Max'];
const LAST = ['Lovelace', "O'Brien", '李', 'Smith'];
const emailVar = (u: Pick<SequenceUser, 'n'>) => `{{ vars.email_${u.n} }}`;

/** POST /users: a user with the four required fields and some optional ones (every sequence starts with one, sent by its setup). */
export class CreateUser implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly extra: Readonly<Record<string, unknown>>,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.users.length < 3;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const n = m.users.length + 1;
    const email = r.email(n);
    const body = { first_name: FIRST[n % FIRST.length], last_name: LAST[n % LAST.length], email, password: PASSWORD, ...this.extra };
    const exchange = await sent(r, { method: 'POST', path: '/users', json: body });
    // Where the profile says a created user's ID is (id_pointer), else found by shape.
    const read = readCreatedId(exchange.response?.json, r.reading.idPointer === undefined ? {} : { id_pointer: r.reading.idPointer }, 'user');
    if (!ok(exchange) || read.kind !== 'id') throw new SequencePrecondition(`a valid user create was ${ok(exchange) ? 'answered without an ID' : `refused (${answered(exchange)})`}`);
    m.users.push({ n, id: read.id, email, fields: createdFields('user', body) });
    r.steps.push({ name: `create user ${n}`, request: { method: 'POST', path: '/users', json: { ...body, email: emailVar({ n }) } }, expect: { status: 'success' }, capture: { [`user_${n}`]: { from: 'created_id' } } });
  }
  toString = () => `create(${JSON.stringify(this.extra)})`;
}

/** PUT /users/{id}: the four sample fields as they are, and a change. */
class EditUser implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly index: number,
    readonly change: Readonly<Record<string, unknown>>,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.users.length > 0;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const user = m.users[this.index % m.users.length] as SequenceUser;
    const four = { first_name: user.fields.get('first_name')?.value, last_name: user.fields.get('last_name')?.value, email: user.email, password: PASSWORD };
    const body = { ...four, ...this.change };
    const exchange = await sent(r, { method: 'PUT', path: `/users/${String(user.id)}`, json: body });
    if (!ok(exchange)) throw new SequencePrecondition(`a valid edit (the four sample fields with ${JSON.stringify(this.change)}) was refused (${answered(exchange)})`);
    user.fields = editedFields('user', user.fields, body);
    r.steps.push({ name: `edit user ${user.n}`, request: { method: 'PUT', path: `/users/${userVar(user)}`, json: { ...body, email: emailVar(user) } }, expect: { status: 'success' } });
  }
  toString = () => `edit(${this.index}, ${JSON.stringify(this.change)})`;
}

/** GET /users searched by the user's e-mail: the user as the model has it. */
class ReadUser implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly index: number,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.users.length > 0;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const user = m.users[this.index % m.users.length] as SequenceUser;
    const exchange = await sent(r, { method: 'GET', path: '/users', query: { search: user.email } });
    const item = listed(exchange, r.reading).find((i) => sameId(i, user.id));
    if (!ok(exchange) || item === undefined) throw new SequencePrecondition(`a search for the e-mail of a user the sequence created did not list it (${answered(exchange)}): the reads need search to match e-mails`);
    // The e-mail as the replay's own (a fresh one each replay), not the run's.
    const assertions = [...user.fields].map(([field, expected]) => ({ path: `$list[0].${field}`, equals: field === 'email' ? emailVar(user) : expected.value, if_present: true, rule: ruleFor(expected) }));
    r.steps.push({
      name: `read user ${user.n}`,
      request: { method: 'GET', path: '/users', query: { search: emailVar(user) } },
      precondition: { status: 'success', json: [{ path: '$list[0].id', equals: userVar(user), rule: 'SEARCH-MATCHES' }] },
      expect: { status: 'success', json: assertions },
    });
    const diffs = differences({ kind: 'user', id: String(user.id), fields: user.fields, writtenBy: [] }, item, r.reading);
    const first = diffs[0];
    if (first) throw new SequenceFailure(first.rule, `user ${user.n} (${String(user.id)}): ${diffs.map((d) => d.expected).join('; ')}`, `${diffs.map((d) => `${d.field} ${d.actual}`).join(', ')} in the read after the sequence`, exchange);
  }
  toString = () => `read(${this.index})`;
}

/** GET /users searched by the user's e-mail and filtered by a role: listed exactly when the model's role is that one. */
class FilterByRole implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly index: number,
    readonly role: number,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.users.length > 0;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const user = m.users[this.index % m.users.length] as SequenceUser;
    const exchange = await sent(r, { method: 'GET', path: '/users', query: { search: user.email, role: this.role } });
    if (!ok(exchange)) throw new SequencePrecondition(`a list filtered by role=${this.role} was not served (${answered(exchange)})`);
    const role = user.fields.get('role_id');
    const inRole = role !== undefined && String(role.value) === String(this.role);
    const isListed = listed(exchange, r.reading).some((i) => sameId(i, user.id));
    r.steps.push({
      name: `filter by role ${this.role}: user ${user.n} ${inRole ? 'listed' : 'not listed'}`,
      request: { method: 'GET', path: '/users', query: { search: emailVar(user), role: this.role } },
      expect: { status: 'success', json: [{ path: '$list[*].id', [inRole ? 'contains_all' : 'excludes']: [userVar(user)], rule: 'USR-LIST-FILTER-ROLE' }] },
    });
    if (inRole === isListed) return;
    // Which value differs: the user read without the filter shows the role stored. An earlier role there is
    // an edit not stored (STORE-EDIT, or the create's STORE-CREATE); the role written there, a filter that is wrong.
    const read = await sent(r, { method: 'GET', path: '/users', query: { search: user.email } });
    const stored = readField(listed(read, r.reading).find((i) => sameId(i, user.id)), 'role_id', r.reading.fields);
    const diffs = stored.found ? differences({ kind: 'user', id: String(user.id), fields: new Map(role ? [['role_id', role]] : []), writtenBy: [] }, { role_id: stored.value }, r.reading) : [];
    const differing = diffs[0];
    if (differing) throw new SequenceFailure(differing.rule, `user ${user.n} (${String(user.id)}): ${differing.expected}`, `role_id ${differing.actual} in a read without the filter (and ${isListed ? 'listed' : 'not listed'} by role=${this.role})`, read);
    throw new SequenceFailure('USR-LIST-FILTER-ROLE', `role=${this.role} ${inRole ? 'lists' : 'leaves out'} user ${user.n} (${String(user.id)}), whose role_id is ${show(role?.value)} as written and as read`, `${isListed ? 'listed' : 'not listed'}`, exchange);
  }
  toString = () => `filter(${this.index}, role=${this.role})`;
}

/** The rule a read of a field breaks when it differs: an edit's STORE-EDIT, a default's own rule, STORE-TEXT or STORE-CREATE. */
function ruleFor(expected: Expected): RuleId {
  if (expected.by === 'edit') return 'STORE-EDIT';
  if (expected.by === 'default' && expected.defaultRule !== undefined) return expected.defaultRule;
  return typeof expected.value === 'string' ? 'STORE-TEXT' : 'STORE-CREATE';
}

/** The arbitraries of the commands, sharing one request budget. */
export function userCommands(budget: RequestBudget): fc.Arbitrary<fc.AsyncCommand<SequenceModel, SequenceReal>>[] {
  const index = fc.nat({ max: 2 });
  const optional = fc.record({ role_id: fc.constantFrom(2, 3), pay_rate: fc.integer({ min: 1, max: 500 }), phone: fc.constantFrom('555-0100', '+44 20 7946 0000') }, { requiredKeys: [] });
  const change = fc
    .record(
      { last_name: fc.constantFrom(...LAST, 'Nakamura'), role_id: fc.constantFrom(2, 3), pay_rate: fc.integer({ min: 1, max: 500 }), phone: fc.constantFrom('555-0199', '+1 (555) 010-0100'), track_location: fc.boolean() },
      { requiredKeys: [] },
    )
    .filter((c) => Object.keys(c).length > 0);
  return [
    optional.map((extra) => new CreateUser(budget, extra)),
    fc.tuple(index, change).map(([i, c]) => new EditUser(budget, i, c)),
    index.map((i) => new ReadUser(budget, i)),
    fc.tuple(index, fc.constantFrom(2, 3)).map(([i, role]) => new FilterByRole(budget, i, role)),
  ];
}
