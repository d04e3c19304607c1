import { USER_DEFAULTS } from '../contract/payloads/user.ts';
import type { UserRecord } from './records.ts';

/**
 * A user record with nothing set but the §2.2 defaults (role 3, no tracking, pay rate 0, hourly),
 * active, created at `timestamp`. Create and seed fill in the fields they have.
 */
export function newUserRecord(timestamp: string, defaults: Pick<UserRecord, keyof typeof USER_DEFAULTS> = USER_DEFAULTS): Omit<UserRecord, 'id'> {
  return {
    first_name: '',
    last_name: '',
    email: '',
    phone: null,
    company_employee_id: null,
    employee_code: null,
    ...defaults,
    custom_fields: {},
    timesheet_option: false,
    schedule_option: false,
    job_option: false,
    report_option: false,
    whoworking_option: false,
    active: true,
    password_hash: '',
    created_at: timestamp,
    updated_at: timestamp,
  };
}
