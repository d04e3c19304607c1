/** Records the reference server stores. Response records are these minus secrets (spec: "not shown"). */

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  company_employee_id: string | null;
  employee_code: string | null;
  role_id: number;
  track_location: boolean;
  track_mileage: boolean;
  pay_rate: number | null;
  billing_rate_type: number;
  custom_fields: Record<string, string>;
  timesheet_option: boolean;
  schedule_option: boolean;
  job_option: boolean;
  report_option: boolean;
  whoworking_option: boolean;
  active: boolean;
  /** scrypt hash of the password; never returned. */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface ScheduleRecord {
  id: number;
  event_pid: string | null;
  assigned_by: number;
  title: string;
  description: string | null;
  job_id: number | null;
  timezone: string;
  repeat: boolean;
  all_day: boolean;
  color: string;
  user_ids: number[];
  publish: boolean;
  start_date: string;
  end_date: string;
  start_time: string | null;
  end_time: string | null;
  use_different_address: boolean;
  street: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip_code: string | null;
  repeat_type: string | null;
  repeat_end_date: string | null;
  weeks: string | null;
  created_at: string;
  updated_at: string;
}

export interface TimesheetRecord {
  id: number;
  user_id: number;
  start: string;
  end: string | null;
  /** The instants of start and end (epoch ms), for chronological sorting; never returned. */
  start_ms: number;
  end_ms: number | null;
  job_id: number | null;
  task_id: number | null;
  clock_in_timezone: string;
  clock_out_timezone: string;
  notes: string | null;
  mileage: number | null;
  created_at: string;
  updated_at: string;
}

export interface BreakRecord {
  id: number;
  timesheet_id: number;
  break_rule_id: number;
  start: string;
  end: string;
  /** The instants of start and end (epoch ms), for sorting and the duration; never returned. */
  start_ms: number;
  end_ms: number;
  created_at: string;
  updated_at: string;
}

export interface NamedRecord {
  id: number;
  name: string;
}

export interface WebhookSubscription {
  url: string;
  created_at: string;
  /** The secret notifications are signed with (the subscribe extension's); never returned. */
  secret?: string | null;
}
