import { z } from 'zod';
import type { Violation } from '../violation.ts';
import { field, format, type FieldTable } from './field-table.ts';
import { missingPasswordClasses, PASSWORD_CLASSES_PATTERN, PASSWORD_MIN_LENGTH } from './password.ts';
import { payloadSchema } from './payload-schema.ts';
import { tableViolations } from './validate.ts';

const T = 'USR-FIELD-TYPES';

/** Spec §2.2, §8: `employee_code` is exactly 4 digits. */
export const EMPLOYEE_CODE_SHAPE = /^[0-9]{4}$/;

/** Spec §2.2: role_id 1 Admin, 2 Manager, 3 Employee. */
export const ROLE_IDS = { admin: 1, manager: 2, employee: 3 } as const;
/** Spec §2.2: billing_rate_type 0 hourly, 1 daily. */
export const BILLING_RATE_TYPES = { hourly: 0, daily: 1 } as const;

/** Spec §2.2: the defaults applied to a created user when a field is omitted. */
export const USER_DEFAULTS = {
  role_id: 3,
  track_location: false,
  track_mileage: false,
  pay_rate: 0,
  billing_rate_type: 0,
} as const;

/** The rule each user default belongs to. */
export const USER_DEFAULT_RULES = {
  role_id: 'USR-ROLE-ID-DEFAULT',
  track_location: 'USR-TRACK-LOCATION-DEFAULT',
  track_mileage: 'USR-TRACK-MILEAGE-DEFAULT',
  pay_rate: 'USR-PAY-RATE-DEFAULT',
  billing_rate_type: 'USR-BILLING-RATE-TYPE-DEFAULT',
} as const satisfies Record<keyof typeof USER_DEFAULTS, string>;

/** The *_option flags that appear in the create sample only (§2.2). */
export const USER_OPTION_FLAGS = [
  'timesheet_option',
  'schedule_option',
  'job_option',
  'report_option',
  'whoworking_option',
] as const;

const requiredOnCreate = { requiredOn: ['create'] as const, requiredRule: 'USR-CREATE-REQUIRED' as const };
const isStringMap = (v: Record<string, unknown>) => Object.values(v).every((x) => typeof x === 'string');

/** Spec §2.2: the user fields accepted on create and edit. */
export const USER_FIELDS = {
  first_name: field(z.string(), T, requiredOnCreate),
  last_name: field(z.string(), T, requiredOnCreate),
  email: field(z.string(), T, requiredOnCreate),
  phone: field(z.string(), T),
  password: field(z.string(), T, {
    ...requiredOnCreate,
    formats: [
      // JSON Schema counts a string's length in code points, as the rule does.
      format('USR-PASSWORD-LENGTH', (v: string) => [...v].length >= PASSWORD_MIN_LENGTH, `expected at least ${PASSWORD_MIN_LENGTH} characters`, { minLength: PASSWORD_MIN_LENGTH }),
      format('USR-PASSWORD-CLASSES', (v: string) => missingPasswordClasses(v).length === 0, 'expected a lowercase letter, an uppercase letter, a digit and a special character', {
        pattern: PASSWORD_CLASSES_PATTERN,
      }),
    ],
  }),
  company_employee_id: field(z.string(), T),
  employee_code: field(z.string(), T, {
    formats: [format('USR-EMPLOYEE-CODE', (v: string) => EMPLOYEE_CODE_SHAPE.test(v), 'expected exactly 4 digits', { pattern: EMPLOYEE_CODE_SHAPE.source })],
  }),
  role_id: field(z.number().int(), T, {
    formats: [format('USR-ROLE-ID-VALUES', (v: number) => v === 1 || v === 2 || v === 3, 'expected 1 (Admin), 2 (Manager) or 3 (Employee)', { enum: Object.values(ROLE_IDS) })],
  }),
  track_location: field(z.boolean(), T),
  track_mileage: field(z.boolean(), T),
  pay_rate: field(z.number().int(), T),
  billing_rate_type: field(z.number().int(), T, {
    formats: [format('USR-BILLING-RATE-TYPE-VALUES', (v: number) => v === 0 || v === 1, 'expected 0 (hourly) or 1 (daily)', { enum: Object.values(BILLING_RATE_TYPES) })],
  }),
  custom_fields: field(z.record(z.string(), z.unknown()), 'USR-CUSTOM-FIELDS-SHAPE', {
    formats: [format('USR-CUSTOM-FIELDS-SHAPE', isStringMap, 'expected string values', { additionalProperties: { type: 'string' } })],
  }),
  timesheet_option: field(z.boolean(), T),
  schedule_option: field(z.boolean(), T),
  job_option: field(z.boolean(), T),
  report_option: field(z.boolean(), T),
  whoworking_option: field(z.boolean(), T),
} satisfies FieldTable;

/** A user payload (spec §2.2). */
export interface UserPayload {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  password?: string;
  company_employee_id?: string;
  employee_code?: string;
  role_id?: number;
  track_location?: boolean;
  track_mileage?: boolean;
  pay_rate?: number;
  billing_rate_type?: number;
  custom_fields?: Record<string, string>;
  timesheet_option?: boolean;
  schedule_option?: boolean;
  job_option?: boolean;
  report_option?: boolean;
  whoworking_option?: boolean;
}

/**
 * The spec rules a user payload breaks (§2.2, §4.2, §8). Edit is judged as a partial update:
 * whether edit also requires the four create fields is `USR-EDIT-REQUIRED`, a profile choice.
 */
export function userViolations(body: Readonly<Record<string, unknown>>, operation: 'create' | 'update'): Violation[] {
  return tableViolations(USER_FIELDS, body, operation);
}

export const userCreatePayload = payloadSchema<UserPayload>('user create', (b) => userViolations(b, 'create'));
export const userEditPayload = payloadSchema<UserPayload>('user edit', (b) => userViolations(b, 'update'));
