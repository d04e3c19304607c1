import { isTimezoneName } from './timezone-name.ts';
import { WEEKDAY_NAMES } from './weekdays.ts';

/**
 * The formats of the spec model as JSON Schema (draft 2020-12) keywords, for the OpenAPI document
 * (`clockcheck openapi`). Each says in a pattern or an enum exactly what its predicate in this
 * folder accepts: test/contract/formats/json-schema.test.ts compares them on the predicates' own cases
 * and on generated strings.
 */
export type FormatSchema = {
  readonly pattern?: string;
  readonly enum?: readonly string[];
  readonly minLength?: number;
  /** Why the keyword says less than the rule, where it must (read by people, not validators). */
  readonly 'x-clockcheck-note'?: string;
};

/** Days of each month (leap day apart), as alternations over `MM` and `DD`. */
const MONTH_31 = '(?:0[13578]|1[02])';
const MONTH_30 = '(?:0[469]|11)';
const DAY_31 = '(?:0[1-9]|[12][0-9]|3[01])';
const DAY_30 = '(?:0[1-9]|[12][0-9]|30)';
const DAY_28 = '(?:0[1-9]|1[0-9]|2[0-8])';
/** A four-digit leap year of the proleptic Gregorian calendar: divisible by 4, centuries only by 400. */
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const YEAR = '[0-9]{4}';

/** §2.1 `MM/DD/YYYY`, a real calendar date (isUsDate). */
export const US_DATE_SCHEMA: FormatSchema = {
  pattern: `^(?:(?:${MONTH_31}/${DAY_31}|${MONTH_30}/${DAY_30}|02/${DAY_28})/${YEAR}|02/29/${LEAP_YEAR})$`,
};

/** §2.1 `HH:mm`, 00:00 to 23:59 (isClockTime). */
export const CLOCK_TIME_SCHEMA: FormatSchema = { pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$' };

const YMD = `(?:${YEAR}-(?:${MONTH_31}-${DAY_31}|${MONTH_30}-${DAY_30}|02-${DAY_28})|${LEAP_YEAR}-02-29)`;
const HMS = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]';
/** §2.3, §2.4 `YYYY-MM-DDTHH:MM:SS±HH:MM`: a real date and time, a numeric offset (isOffsetDateTime). */
export const OFFSET_DATETIME_SCHEMA: FormatSchema = { pattern: `^${YMD}T${HMS}[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]$` };

/** §2.1 `weeks`: lowercase weekday names joined by commas (isWeekdayList). */
export const WEEKDAY_LIST_SCHEMA: FormatSchema = {
  pattern: `^(?:${WEEKDAY_NAMES.join('|')})(?:,(?:${WEEKDAY_NAMES.join('|')}))*$`,
};

/**
 * Current IANA names that this runtime's zone list (Intl.supportedValuesOf, CLDR's spelling) gives
 * under an older name: Intl accepts both, and so does isTimezoneName.
 */
const CURRENT_IANA_NAMES = [
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Yangon',
  'Asia/Ho_Chi_Minh',
  'Europe/Kyiv',
  'America/Nuuk',
  'Atlantic/Faroe',
  'Pacific/Kanton',
  'Pacific/Chuuk',
  'Pacific/Pohnpei',
  'America/Argentina/Buenos_Aires',
  'America/Argentina/Catamarca',
  'America/Argentina/Cordoba',
  'America/Argentina/Jujuy',
  'America/Argentina/Mendoza',
  'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville',
  'Asia/Dhaka',
  'Asia/Thimphu',
  'Asia/Ulaanbaatar',
  'Asia/Urumqi',
  'Africa/Asmara',
  'America/Atikokan',
  'America/Coral_Harbour',
];

let zoneNames: readonly string[] | undefined;

/**
 * §2.1, §2.3 an IANA timezone name (isTimezoneName), as the enum of the names this runtime knows:
 * its zone list and the current IANA spelling of the names that list gives the old way. Other links
 * the runtime also accepts (`US/Eastern`) are valid names the enum leaves out.
 */
export function timezoneNameSchema(): FormatSchema {
  zoneNames ??= [...new Set([...Intl.supportedValuesOf('timeZone'), ...CURRENT_IANA_NAMES])].filter(isTimezoneName).sort();
  return {
    enum: zoneNames,
    'x-clockcheck-note': 'the IANA names this runtime knows, in their current spelling and in the one its zone list gives; other links a server accepts (US/Eastern) are also IANA names',
  };
}
