import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withChange, expectRejected } from '../support/minimal-pair.ts';
import { baselines, startTestServer, violationPairs, violationRules, type TestServer } from '../support/reference-client.ts';

let t: TestServer;
let base: ReturnType<typeof baselines>;

beforeAll(async () => {
  t = await startTestServer();
  base = baselines(t.server);
});

afterAll(async () => {
  await t?.close();
});

const user = (change: Record<string, unknown> = {}) => withChange(base.user(), change);

const create = (body: unknown) => t.call('POST', '/users', { body });
const edit = (id: number | string, body: unknown) => t.call('PUT', `/users/${id}`, { body });

/** The user with this e-mail as GET /users?search= returns it. */
async function listed(email: string): Promise<Record<string, unknown>> {
  const reply = await t.call('GET', `/users?search=${encodeURIComponent(email)}`);
  expect(reply.status, reply.text).toBe(200);
  expect(reply.json.items).toHaveLength(1);
  return reply.json.items[0];
}

async function userTotal(): Promise<number> {
  const reply = await t.call('GET', '/users?page_size=1');
  expect(reply.status).toBe(200);
  return reply.json.meta_data.pagination.total as number;
}

/** Creates a user and returns its ID and e-mail. */
async function stored(change: Record<string, unknown> = {}): Promise<{ id: number; email: string }> {
  const body = user(change);
  const reply = await create(body);
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.json.items.id, email: body.email as string };
}

describe('POST /users', () => {
  it('accepts the baseline user with 201 and never returns the password', async () => {
    const body = user();
    const reply = await create(body);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items).toMatchObject({ first_name: 'Test', last_name: 'User', email: body.email });
    expect(typeof reply.json.items.id).toBe('number');
    expect(typeof reply.json.message).toBe('string');
    expect(reply.text).not.toContain('Valid-pass1');
    expect(reply.json.items).not.toHaveProperty('password');
    expect(reply.json.items).not.toHaveProperty('password_hash');
  });

  it('applies the §2.2 defaults (role_id 3, track_location false, track_mileage false, pay_rate 0, billing_rate_type 0) in the create response', async () => {
    const reply = await create(user());
    expect(reply.json.items).toMatchObject({ role_id: 3, track_location: false, track_mileage: false, pay_rate: 0, billing_rate_type: 0 });
  });

  it('applies the same defaults to the stored user, as GET /users?search=<email> shows', async () => {
    const { email } = await stored();
    const found = await listed(email);
    expect(found).toMatchObject({ email, role_id: 3, track_location: false, track_mileage: false, pay_rate: 0, billing_rate_type: 0 });
    expect(found).not.toHaveProperty('password_hash');
  });

  it('stores the optional fields when given, overriding the defaults', async () => {
    const { email } = await stored({
      phone: '555-0100',
      company_employee_id: 'E-77',
      employee_code: '0042',
      role_id: 2,
      track_location: true,
      track_mileage: true,
      pay_rate: 25,
      billing_rate_type: 1,
      custom_fields: { '12': 'blue' },
      timesheet_option: true,
    });
    expect(await listed(email)).toMatchObject({
      phone: '555-0100',
      company_employee_id: 'E-77',
      employee_code: '0042',
      role_id: 2,
      track_location: true,
      track_mileage: true,
      pay_rate: 25,
      billing_rate_type: 1,
      custom_fields: { '12': 'blue' },
    });
  });

  it.each(['first_name', 'last_name', 'email', 'password'])('rejects a user without %s as USR-CREATE-REQUIRED', async (field) => {
    expectRejected(await create(user({ [field]: undefined })), 'USR-CREATE-REQUIRED', field);
  });

  it('rejects a null first_name as USR-CREATE-REQUIRED', async () => {
    expectRejected(await create(user({ first_name: null })), 'USR-CREATE-REQUIRED', 'first_name');
  });

  it.each(['Aa1!aa', 'Valid-pass1', 'Zz9#zz'])('accepts the password %j (6+ characters, all four classes)', async (password) => {
    expect((await create(user({ password }))).status).toBe(201);
  });

  it.each(['Aa1!a', 'A1!a', ''])('rejects the password %j (shorter than 6) as USR-PASSWORD-LENGTH', async (password) => {
    expectRejected(await create(user({ password })), 'USR-PASSWORD-LENGTH', 'password');
  });

  it.each([
    ['AAAA1!', 'a lowercase letter'],
    ['aaaa1!', 'an uppercase letter'],
    ['Aaaaa!', 'a digit'],
    ['Aaaaa1', 'a special character'],
  ])('rejects the password %j (no %s) as USR-PASSWORD-CLASSES', async (password) => {
    const reply = await create(user({ password }));
    expectRejected(reply, 'USR-PASSWORD-CLASSES', 'password');
    expect(violationRules(reply)).not.toContain('USR-PASSWORD-LENGTH');
  });

  it('accepts employee_code of exactly 4 digits', async () => {
    expect((await create(user({ employee_code: '1234' }))).status).toBe(201);
  });

  it.each([
    ['123', '3 digits'],
    ['12345', '5 digits'],
    ['abcd', '4 letters'],
    ['12a4', 'a letter among digits'],
    ['', 'the empty string'],
  ])('rejects employee_code %j (%s) as USR-EMPLOYEE-CODE', async (code) => {
    expectRejected(await create(user({ employee_code: code })), 'USR-EMPLOYEE-CODE', 'employee_code');
  });

  it.each([1, 2, 3])('accepts role_id %i', async (roleId) => {
    const reply = await create(user({ role_id: roleId }));
    expect(reply.status).toBe(201);
    expect(reply.json.items.role_id).toBe(roleId);
  });

  it.each([4, 0, -1])('rejects role_id %i as USR-ROLE-ID-VALUES', async (roleId) => {
    expectRejected(await create(user({ role_id: roleId })), 'USR-ROLE-ID-VALUES', 'role_id');
  });

  it.each([0, 1])('accepts billing_rate_type %i', async (type) => {
    expect((await create(user({ billing_rate_type: type }))).status).toBe(201);
  });

  it.each([2, -1])('rejects billing_rate_type %i as USR-BILLING-RATE-TYPE-VALUES', async (type) => {
    expectRejected(await create(user({ billing_rate_type: type })), 'USR-BILLING-RATE-TYPE-VALUES', 'billing_rate_type');
  });

  it('rejects custom_fields with a non-string value as USR-CUSTOM-FIELDS-SHAPE', async () => {
    expectRejected(await create(user({ custom_fields: { '12': 7 } })), 'USR-CUSTOM-FIELDS-SHAPE', 'custom_fields');
  });

  it.each([
    ['pay_rate', '10'],
    ['track_location', 'yes'],
    ['role_id', '1'],
    ['role_id', 2.5],
    ['email', 42],
  ])('rejects %s of the wrong JSON type (%j) as USR-FIELD-TYPES', async (field, value) => {
    expectRejected(await create(user({ [field]: value })), 'USR-FIELD-TYPES', field);
  });

  it('rejects an e-mail that is already taken, whatever its case', async () => {
    const reply = await create(user({ email: 'ADA.ADMIN@seed.clockcheck.test' }));
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toContain('null@email');
  });

  it('stores nothing when a create is rejected: the GET /users total is unchanged', async () => {
    const before = await userTotal();
    const rejections = await Promise.all([
      create(user({ password: 'short' })),
      create(user({ email: undefined })),
      create(user({ employee_code: '12345' })),
      create(user({ role_id: 4 })),
      t.call('POST', '/users', { rawBody: '{"first_name":' }),
    ]);
    for (const reply of rejections) expect([400, 422]).toContain(reply.status);
    expect(await userTotal()).toBe(before);
    await stored();
    expect(await userTotal()).toBe(before + 1);
  });

  it('never answers a bad user payload with a 5xx', async () => {
    const bad: unknown[] = [{}, [], 'user', 0, { custom_fields: [] }, { custom_fields: 'x' }, { password: 123456 }, { email: null, password: null }];
    for (const body of bad) {
      const reply = await create(body);
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });
});

describe('PUT /users/{userId}', () => {
  it('updates only the fields sent: the others keep their values, as GET /users shows', async () => {
    const { id, email } = await stored({ phone: '555-0100', role_id: 2, pay_rate: 30, employee_code: '1111' });
    const reply = await edit(id, { phone: '555-0199' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items).toMatchObject({ id, phone: '555-0199', first_name: 'Test', role_id: 2 });
    expect(await listed(email)).toMatchObject({
      id,
      phone: '555-0199',
      first_name: 'Test',
      last_name: 'User',
      email,
      role_id: 2,
      pay_rate: 30,
      employee_code: '1111',
      track_location: false,
    });
  });

  it('accepts an empty edit and changes nothing', async () => {
    const { id, email } = await stored();
    const before = await listed(email);
    expect((await edit(id, {})).status).toBe(200);
    const after = await listed(email);
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
  });

  it('accepts a new e-mail on edit, and the user is then found by it', async () => {
    const { id } = await stored();
    const email = `renamed-${id}@clockcheck.test`;
    expect((await edit(id, { email })).status).toBe(200);
    expect((await listed(email)).id).toBe(id);
  });

  it('accepts the user keeping its own e-mail on edit', async () => {
    const { id, email } = await stored();
    expect((await edit(id, { email })).status).toBe(200);
  });

  it("rejects another user's e-mail on edit", async () => {
    const { id } = await stored();
    const reply = await edit(id, { email: 'max.manager@seed.clockcheck.test' });
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toContain('null@email');
  });

  it('accepts a valid new password on edit', async () => {
    const { id } = await stored();
    const reply = await edit(id, { password: 'New-pass2' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).not.toContain('New-pass2');
  });

  it('rejects a password shorter than 6 on edit as USR-PASSWORD-LENGTH', async () => {
    const { id } = await stored();
    expectRejected(await edit(id, { password: 'Aa1!a' }), 'USR-PASSWORD-LENGTH', 'password');
  });

  it.each(['AAAA1!', 'aaaa1!', 'Aaaaa!', 'Aaaaa1'])('rejects the password %j on edit as USR-PASSWORD-CLASSES', async (password) => {
    const { id } = await stored();
    expectRejected(await edit(id, { password }), 'USR-PASSWORD-CLASSES', 'password');
  });

  it.each([
    ['employee_code', '12345', 'USR-EMPLOYEE-CODE'],
    ['employee_code', 'abcd', 'USR-EMPLOYEE-CODE'],
    ['role_id', 4, 'USR-ROLE-ID-VALUES'],
    ['billing_rate_type', 2, 'USR-BILLING-RATE-TYPE-VALUES'],
    ['pay_rate', '10', 'USR-FIELD-TYPES'],
  ])('rejects %s %j on edit as %s', async (field, value, rule) => {
    const { id } = await stored();
    expectRejected(await edit(id, { [field]: value }), rule, field);
  });

  it('accepts employee_code, role_id and billing_rate_type within their values on edit', async () => {
    const { id, email } = await stored();
    expect((await edit(id, { employee_code: '9876', role_id: 1, billing_rate_type: 1 })).status).toBe(200);
    expect(await listed(email)).toMatchObject({ employee_code: '9876', role_id: 1, billing_rate_type: 1 });
  });

  it('leaves the user unchanged when an edit is rejected', async () => {
    const { id, email } = await stored({ phone: '555-0100' });
    const reply = await edit(id, { phone: '555-0111', password: 'weak' });
    expect(reply.status).toBe(422);
    expect((await listed(email)).phone).toBe('555-0100');
  });

  it('answers 404 for an unknown user ID', async () => {
    const reply = await edit(99_999, { phone: '1' });
    expect(reply.status).toBe(404);
    expect(reply.json).toHaveProperty('message');
  });

  it.each(['abc', '0', '-1', '1.5'])('answers 404 for the user ID %j', async (id) => {
    expect((await edit(id, { phone: '1' })).status).toBe(404);
  });

  it('rejects an edit whose body is not a JSON object with 422', async () => {
    const { id } = await stored();
    expect((await t.call('PUT', `/users/${id}`, { rawBody: '["phone"]' })).status).toBe(422);
  });
});
