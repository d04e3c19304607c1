/**
 * Real IANA zones the generators draw from: both hemispheres, with and without DST, and the odd
 * offsets (Asia/Kolkata +05:30, Asia/Kathmandu +05:45, Australia/Eucla +08:45, Australia/Lord_Howe's
 * 30-minute DST, America/St_Johns -03:30/-02:30, Pacific/Chatham +12:45/+13:45, Pacific/Kiritimati +14).
 */

/** Zones that change offset at least once a year for some of 2015–2030 (DST, or Morocco's Ramadan hour). */
export const DST_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Anchorage',
  'America/Halifax',
  'America/St_Johns',
  'America/Havana', // transitions at local midnight
  'America/Mexico_City', // DST until 2022
  'Europe/London',
  'Europe/Dublin', // "negative DST" in tzdb: winter is the exception
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Helsinki',
  'Asia/Jerusalem',
  'Asia/Beirut', // transitions at local midnight
  'Africa/Casablanca', // an hour off during Ramadan
  'Africa/Cairo', // DST again from 2023
  'Asia/Tehran', // +03:30/+04:30 until 2022
  'America/Santiago',
  'America/Asuncion',
  'America/Sao_Paulo', // DST until 2019, transitions at local midnight
  'Australia/Sydney',
  'Australia/Adelaide', // +09:30/+10:30
  'Australia/Hobart',
  'Australia/Lord_Howe', // +10:30/+11:00: a 30-minute DST
  'Pacific/Auckland',
  'Pacific/Chatham', // +12:45/+13:45
] as const;

/** Zones with one offset all through 2015–2030. */
export const FIXED_ZONES = [
  'UTC',
  'Asia/Kolkata', // +05:30
  'Asia/Kathmandu', // +05:45
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Dubai',
  'Asia/Singapore',
  'Asia/Yangon', // +06:30
  'Africa/Johannesburg',
  'Africa/Lagos',
  'America/Phoenix',
  'Pacific/Honolulu',
  'America/Argentina/Buenos_Aires',
  'Australia/Brisbane',
  'Australia/Perth',
  'Australia/Eucla', // +08:45
  'Pacific/Kiritimati', // +14:00
  'Pacific/Pago_Pago', // -11:00
  'Europe/Moscow',
  'Europe/Istanbul',
] as const;

export const ZONES: readonly string[] = [...DST_ZONES, ...FIXED_ZONES];
