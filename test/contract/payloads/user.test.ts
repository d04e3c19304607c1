import { describe, expect, it } from 'vitest';
import {
  BILLING_RATE_TYPES,
  EMPLOYEE_CODE_SHAPE,
  ROLE_IDS,
  USER_DEFAULTS,
  USER_DEFAULT_RULES,
  USER_FIELDS,
  USER_OPTION_FLAGS,
  userCreatePayload,
  userEditPayload,
  userViolations,
} from '../../../src/contract/payloads/user.ts';
import { isRuleId } from '../../../src/contract/rules.ts';
import { broken, edit } from '../support.ts';

const CREATE = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', password: 'Secr3t!' };
const FULL = {
  ...CREATE,
  phone: '+1 312 555 0100',
  company_employee_id: 'E-17',
  employee_code: '0420',
  role_id: 2,
  track_location: true,
  track_mileage: false,
  pay_rate: 25,
  billing_rate_type: 1,
  custom_fields: { '12': 'Blue', '13': '' },
  timesheet_option: true,
  schedule_option: false,
  job_option: true,
  report_option: false,
  whoworking_option: true,
};

/** One-field changes that break exactly one rule, on create and on edit alike. */
const FORMAT_PAIRS: { why: string; change: Record<string, unknown>; rule: string; field: string }[] = [
  { why: 'a 5-character password', change: { password: 'Ab1!x' }, rule: 'USR-PASSWORD-LENGTH', field: 'password' },
  { why: 'a password without uppercase', change: { password: 'secr3t!' }, rule: 'USR-PASSWORD-CLASSES', field: 'password' },
  { why: 'a password without lowercase', change: { password: 'SECR3T!' }, rule: 'USR-PASSWORD-CLASSES', field: 'password' },
  { why: 'a password without digit', change: { password: 'Secret!' }, rule: 'USR-PASSWORD-CLASSES', field: 'password' },
  { why: 'a password without special character', change: { password: 'Secr3t1' }, rule: 'USR-PASSWORD-CLASSES', field: 'password' },
  { why: 'a password whose only non-alphanumeric is a space', change: { password: 'Secr3t 1' }, rule: 'USR-PASSWORD-CLASSES', field: 'password' },
  { why: 'a password that is a number', change: { password: 123456 }, rule: 'USR-FIELD-TYPES', field: 'password' },
  { why: 'employee_code of 3 digits', change: { employee_code: '123' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code of 5 digits', change: { employee_code: '12345' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code of 4 letters', change: { employee_code: 'abcd' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code mixing digits and a letter', change: { employee_code: '12a4' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code with a space', change: { employee_code: '1234 ' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code of Arabic-Indic digits', change: { employee_code: '١٢٣٤' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code empty', change: { employee_code: '' }, rule: 'USR-EMPLOYEE-CODE', field: 'employee_code' },
  { why: 'employee_code a number', change: { employee_code: 1234 }, rule: 'USR-FIELD-TYPES', field: 'employee_code' },
  { why: 'role_id 0', change: { role_id: 0 }, rule: 'USR-ROLE-ID-VALUES', field: 'role_id' },
  { why: 'role_id 4', change: { role_id: 4 }, rule: 'USR-ROLE-ID-VALUES', field: 'role_id' },
  { why: 'role_id -1', change: { role_id: -1 }, rule: 'USR-ROLE-ID-VALUES', field: 'role_id' },
  { why: 'role_id a string', change: { role_id: '1' }, rule: 'USR-FIELD-TYPES', field: 'role_id' },
  { why: 'role_id a fraction', change: { role_id: 1.5 }, rule: 'USR-FIELD-TYPES', field: 'role_id' },
  { why: 'billing_rate_type 2', change: { billing_rate_type: 2 }, rule: 'USR-BILLING-RATE-TYPE-VALUES', field: 'billing_rate_type' },
  { why: 'billing_rate_type -1', change: { billing_rate_type: -1 }, rule: 'USR-BILLING-RATE-TYPE-VALUES', field: 'billing_rate_type' },
  { why: 'billing_rate_type a string', change: { billing_rate_type: 'hourly' }, rule: 'USR-FIELD-TYPES', field: 'billing_rate_type' },
  { why: 'custom_fields with a number value', change: { custom_fields: { '12': 5 } }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields with a null value', change: { custom_fields: { '12': null } }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields with an object value', change: { custom_fields: { '12': { a: 'b' } } }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields with a boolean among strings', change: { custom_fields: { '12': 'Blue', '13': true } }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields an array', change: { custom_fields: ['Blue'] }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields a string', change: { custom_fields: 'Blue' }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'custom_fields null', change: { custom_fields: null }, rule: 'USR-CUSTOM-FIELDS-SHAPE', field: 'custom_fields' },
  { why: 'track_location a string', change: { track_location: 'false' }, rule: 'USR-FIELD-TYPES', field: 'track_location' },
  { why: 'track_mileage a number', change: { track_mileage: 0 }, rule: 'USR-FIELD-TYPES', field: 'track_mileage' },
  { why: 'pay_rate a fraction', change: { pay_rate: 12.5 }, rule: 'USR-FIELD-TYPES', field: 'pay_rate' },
  { why: 'pay_rate a string', change: { pay_rate: '10' }, rule: 'USR-FIELD-TYPES', field: 'pay_rate' },
  { why: 'phone a number', change: { phone: 3125550100 }, rule: 'USR-FIELD-TYPES', field: 'phone' },
  { why: 'company_employee_id a number', change: { company_employee_id: 17 }, rule: 'USR-FIELD-TYPES', field: 'company_employee_id' },
  { why: 'email a number', change: { email: 5 }, rule: 'USR-FIELD-TYPES', field: 'email' },
  ...USER_OPTION_FLAGS.map((flag) => ({ why: `${flag} a string`, change: { [flag]: 'true' }, rule: 'USR-FIELD-TYPES', field: flag })),
];

const STILL_VALID: { why: string; change: Record<string, unknown> }[] = [
  ...['0000', '1234', '9999', '0420'].map((code) => ({ why: `employee_code ${code}`, change: { employee_code: code } })),
  ...[1, 2, 3].map((role) => ({ why: `role_id ${role}`, change: { role_id: role } })),
  ...[0, 1].map((type) => ({ why: `billing_rate_type ${type}`, change: { billing_rate_type: type } })),
  { why: 'custom_fields empty', change: { custom_fields: {} } },
  { why: 'custom_fields with string values', change: { custom_fields: { '12': 'Blue', '99': '' } } },
  { why: 'a password of exactly 6 characters', change: { password: 'Ab1!xy' } },
  { why: 'a password with a non-ASCII special character', change: { password: 'Abcde1€' } },
];

describe('userViolations on create', () => {
  it.each([
    ['the four required fields', CREATE],
    ['every field of table 2.2', FULL],
  ])('finds nothing wrong with %s', (_why, body) => {
    expect(userViolations(body, 'create')).toEqual([]);
  });

  it.each(['first_name', 'last_name', 'email', 'password'])('without %s, breaks only USR-CREATE-REQUIRED', (name) => {
    expect(broken(userViolations(edit(CREATE, { [name]: undefined }), 'create'))).toEqual([`USR-CREATE-REQUIRED@${name}`]);
  });

  it.each(['first_name', 'last_name', 'email', 'password'])('with %s null, breaks only USR-CREATE-REQUIRED', (name) => {
    expect(broken(userViolations(edit(CREATE, { [name]: null }), 'create'))).toEqual([`USR-CREATE-REQUIRED@${name}`]);
  });

  it.each(FORMAT_PAIRS)('with $why, breaks only $rule on $field', ({ change, rule, field }) => {
    expect(broken(userViolations(edit(FULL, change), 'create'))).toEqual([`${rule}@${field}`]);
  });

  it.each(STILL_VALID)('with $why, finds nothing wrong', ({ change }) => {
    expect(userViolations(edit(CREATE, change), 'create')).toEqual([]);
  });

  it('with a short password lacking classes, breaks both password rules', () => {
    expect(broken(userViolations(edit(CREATE, { password: 'ab' }), 'create'))).toEqual([
      'USR-PASSWORD-LENGTH@password',
      'USR-PASSWORD-CLASSES@password',
    ]);
  });
});

describe('userViolations on edit (a partial update)', () => {
  it.each([
    ['an empty body', {}],
    ['one field', { first_name: 'Augusta' }],
    ['the create fields', CREATE],
    ['every field', FULL],
  ])('finds nothing wrong with %s', (_why, body) => {
    expect(userViolations(body, 'update')).toEqual([]);
  });

  it.each(FORMAT_PAIRS)('with $why alone, breaks only $rule on $field', ({ change, rule, field }) => {
    expect(broken(userViolations(edit({}, change), 'update'))).toEqual([`${rule}@${field}`]);
  });

  it.each(['first_name', 'last_name', 'email', 'password'])('with %s null, reports a type error, not a missing create field', (name) => {
    expect(broken(userViolations({ [name]: null }, 'update'))).toEqual([`USR-FIELD-TYPES@${name}`]);
  });
});

describe('user constants', () => {
  it('maps role names to the IDs of §2.2', () => {
    expect(ROLE_IDS).toEqual({ admin: 1, manager: 2, employee: 3 });
  });

  it('maps billing rate types to the values of §2.2', () => {
    expect(BILLING_RATE_TYPES).toEqual({ hourly: 0, daily: 1 });
  });

  it('states the defaults of §2.2, each tied to a rule of the catalog', () => {
    expect(USER_DEFAULTS).toEqual({ role_id: 3, track_location: false, track_mileage: false, pay_rate: 0, billing_rate_type: 0 });
    expect(Object.keys(USER_DEFAULT_RULES).sort()).toEqual(Object.keys(USER_DEFAULTS).sort());
    for (const rule of Object.values(USER_DEFAULT_RULES)) expect(isRuleId(rule)).toBe(true);
  });

  it('lists the five *_option flags of the create sample', () => {
    expect([...USER_OPTION_FLAGS].sort()).toEqual(['job_option', 'report_option', 'schedule_option', 'timesheet_option', 'whoworking_option']);
  });

  it.each([
    ['1234', true],
    ['0000', true],
    ['123', false],
    ['12345', false],
    ['abcd', false],
  ])('EMPLOYEE_CODE_SHAPE tests %s as %s', (code, ok) => {
    expect(EMPLOYEE_CODE_SHAPE.test(code)).toBe(ok);
  });

  it('declares exactly the fields of spec table 2.2', () => {
    expect(Object.keys(USER_FIELDS).sort()).toEqual(
      [
        'first_name', 'last_name', 'email', 'phone', 'password', 'company_employee_id', 'employee_code', 'role_id',
        'track_location', 'track_mileage', 'pay_rate', 'billing_rate_type', 'custom_fields', ...USER_OPTION_FLAGS,
      ].sort(),
    );
  });
});

describe.each([
  ['userCreatePayload', userCreatePayload, CREATE, { password: 'secret' }, 'USR-PASSWORD-CLASSES'],
  ['userEditPayload', userEditPayload, {}, { employee_code: '123' }, 'USR-EMPLOYEE-CODE'],
] as const)('%s (zod)', (_name, schema, valid, change, rule) => {
  it('accepts a valid payload', () => {
    expect(schema.safeParse(valid).success).toBe(true);
  });

  it(`names ${rule} in params.rule`, () => {
    const result = schema.safeParse(edit(valid, change));
    expect(result.error?.issues.map((i) => (i as { params?: { rule?: string } }).params?.rule)).toEqual([rule]);
  });

  it('rejects a non-object', () => {
    expect(schema.safeParse([valid]).success).toBe(false);
  });
});
