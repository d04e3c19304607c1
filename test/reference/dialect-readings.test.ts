import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect, type DialectName } from '../../src/reference/dialect.ts';
import { withChange } from '../support/minimal-pair.ts';
import { baselines, startTestServer, violationPairs, type Reply, type TestServer } from '../support/reference-client.ts';

// Two readings the spec leaves open (USR-EMAIL-FORMAT §2.2, USR-EDIT-REQUIRED §4.2) and the sort
// name spellings, as each dialect chooses them. The alternative dialect refuses with 400
// `{error: {fields}}`, the others with 422 `{violations}`; `refused` reads both.

const EXPECTED: ReadonlyArray<[DialectName, Pick<Dialect, 'emailFormat' | 'editRequires' | 'sortNames'>]> = [
  ['standard', { emailFormat: 'validated', editRequires: 'none', sortNames: 'both' }],
  ['alternative', { emailFormat: 'not-validated', editRequires: 'all-four', sortNames: 'camel' }],
  ['laravel', { emailFormat: 'validated', editRequires: 'none', sortNames: 'snake' }],
];

const MALFORMED_EMAILS = [
  'clockcheck.at.example.com',
  'two@@example.com',
  'a@b@example.com',
  '@example.com',
  'user@localhost',
  'user @example.com',
  'user@exa mple.com',
  'user@example.com ',
  '',
];

const VALID_EMAILS = [
  'clockcheck.abc.1@example.com',
  'clockcheck.defaults.12@example.test',
  'cc1x2y.abcdefghij@example.com',
  'ada.admin2@seed.clockcheck.test',
  "o'brien+tag@sub.example.co.uk",
];

/** Whether the reply is the dialect's refusal naming `field` (and `rule`, where the body names rules). */
function refused(reply: Reply, dialect: DialectName, rule: string, field: string): boolean {
  if (dialect === 'alternative') return reply.status === 400 && (reply.json?.error?.fields ?? []).includes(field);
  return reply.status === 422 && violationPairs(reply).includes(`${rule}@${field}`);
}

const accepted = (reply: Reply) => reply.status >= 200 && reply.status < 300;
const recordOf = (reply: Reply) => reply.json.items ?? reply.json.data;

describe.each(EXPECTED)('the %s dialect', (name, readings) => {
  let t: TestServer;
  let base: ReturnType<typeof baselines>;

  beforeAll(async () => {
    t = await startTestServer({ dialect: name });
    base = baselines(t.server);
  });

  afterAll(async () => {
    await t?.close();
  });

  const create = (change: Record<string, unknown> = {}) => t.call('POST', '/users', { body: withChange(base.user(), change) });
  const edit = (id: number, body: Record<string, unknown>) => t.call('PUT', `/users/${id}`, { body });
  /** A fresh user's ID and a PUT body carrying all four sample fields. */
  async function freshUser(): Promise<{ id: number; allFour: Record<string, unknown> }> {
    const body = base.user();
    const reply = await t.call('POST', '/users', { body });
    expect(accepted(reply), reply.text).toBe(true);
    return { id: recordOf(reply).id, allFour: { first_name: 'Renamed', last_name: 'User', email: body.email, password: 'Other-pass3' } };
  }

  it(`reads e-mails as ${readings.emailFormat}, edits as ${readings.editRequires}, sort names as ${readings.sortNames}, readable from the started server`, () => {
    expect(t.server.context.dialect).toBe(DIALECTS[name]);
    expect(t.server.context.dialect).toMatchObject(readings);
  });

  describe('USR-EMAIL-FORMAT', () => {
    it.each(MALFORMED_EMAILS)(`${readings.emailFormat === 'validated' ? 'rejects' : 'accepts'} the malformed e-mail %j on create`, async (email) => {
      const reply = await create({ email });
      if (readings.emailFormat === 'validated') expect(refused(reply, name, 'USR-EMAIL-FORMAT', 'email'), reply.text).toBe(true);
      else expect(accepted(reply), reply.text).toBe(true);
    });

    // Others than the create's: a dialect that takes them on create would refuse them here as taken.
    it.each(['edited.at.example.com', 'three@@example.com', 'b@c@example.com', 'user@intranet', 'edited user@example.com'])(`${readings.emailFormat === 'validated' ? 'rejects' : 'accepts'} the malformed e-mail %j on edit`, async (email) => {
      const { id, allFour } = await freshUser();
      const reply = await edit(id, { ...allFour, email });
      if (readings.emailFormat === 'validated') expect(refused(reply, name, 'USR-EMAIL-FORMAT', 'email'), reply.text).toBe(true);
      else expect(accepted(reply), reply.text).toBe(true);
    });

    it.each(VALID_EMAILS)('accepts the e-mail %j on create and on edit', async (email) => {
      const created = await create({ email });
      expect(accepted(created), created.text).toBe(true);
      const { id, allFour } = await freshUser();
      const edited = await edit(id, { ...allFour, email: `edited.${email}` });
      expect(accepted(edited), edited.text).toBe(true);
    });

    it.each([
      [1, 'Ada', 'Admin'],
      [2, 'Max', 'Manager'],
      [3, 'Emma', 'Employee'],
    ])('accepts the seed user %i keeping its own e-mail (first.last@seed.clockcheck.test)', async (id, first, last) => {
      const email = `${first}.${last}@seed.clockcheck.test`.toLowerCase();
      const reply = await edit(id, { first_name: first, last_name: last, email, password: 'Seed-pass2!' });
      expect(accepted(reply), reply.text).toBe(true);
    });
  });

  describe('USR-EDIT-REQUIRED', () => {
    it('accepts an edit carrying first_name, last_name, email and password', async () => {
      const { id, allFour } = await freshUser();
      expect(accepted(await edit(id, { ...allFour, phone: '555-0100' }))).toBe(true);
    });

    it(`${readings.editRequires === 'none' ? 'accepts' : 'rejects'} an edit of the phone alone`, async () => {
      const { id } = await freshUser();
      const reply = await edit(id, { phone: '555-0100' });
      if (readings.editRequires === 'none') expect(accepted(reply), reply.text).toBe(true);
      else for (const field of ['first_name', 'last_name', 'email', 'password']) expect(refused(reply, name, 'USR-EDIT-REQUIRED', field), `${field}: ${reply.text}`).toBe(true);
    });

    it.each(['first_name', 'last_name', 'email', 'password'])(`${readings.editRequires === 'none' ? 'accepts' : 'rejects'} an edit lacking only %s`, async (missing) => {
      const { id, allFour } = await freshUser();
      const reply = await edit(id, withChange(allFour, { [missing]: undefined }));
      if (readings.editRequires === 'none') {
        expect(accepted(reply), reply.text).toBe(true);
        return;
      }
      expect(refused(reply, name, 'USR-EDIT-REQUIRED', missing), reply.text).toBe(true);
      if (name !== 'alternative') expect(violationPairs(reply).filter((p) => p.startsWith('USR-EDIT-REQUIRED@'))).toEqual([`USR-EDIT-REQUIRED@${missing}`]);
    });

  });

  describe('sort names', () => {
    const sorts = async (sort: string) => (await t.call('GET', `/users?sort=${sort}`)).status;

    it(`${readings.sortNames === 'snake' ? 'refuses' : 'accepts'} the camelCase names firstName and roleId`, async () => {
      const expected = readings.sortNames === 'snake' ? (name === 'alternative' ? 400 : 422) : 200;
      expect(await sorts('firstName')).toBe(expected);
      expect(await sorts('-roleId')).toBe(expected);
    });

    it(`${readings.sortNames === 'camel' ? 'refuses' : 'accepts'} the snake_case names first_name and role_id`, async () => {
      const expected = readings.sortNames === 'camel' ? (name === 'alternative' ? 400 : 422) : 200;
      expect(await sorts('first_name')).toBe(expected);
      expect(await sorts('-role_id')).toBe(expected);
    });

    it('accepts a one-word name (email) in every dialect', async () => {
      expect(await sorts('email')).toBe(200);
    });
  });
});
