import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { RuleId } from '../contract/rules.ts';
import { jsonText } from '../contract/json-text.ts';
import { breakCreated, breakCreateResponse, breakListed, breakListResponse, paginationBlock } from '../contract/responses.ts';
import { isClockTime, isNaiveDateTime, isOffsetDateTime, isTimezoneName, isUsDate, isYmdDate } from '../contract/formats/index.ts';
import type { Exchange, ExchangeResponse } from '../client/exchange.ts';
import { overBoundsFinding } from '../client/bounded-json.ts';
import type { Profile } from '../profile/profile.ts';
import type { Assertion, ExpectedStatus, Expectation, SchemaName } from './format.ts';
import { isMultiPath, readsRecords, select } from '../records/json-path.ts';
import { hasMeaningType, sameMeaning } from '../records/same-meaning.ts';
import { AUTO_READING, recordReadingFor, type RecordReading } from '../records/record-reading.ts';

/** One broken expectation, before it is tied to its exchange. */
export interface Judgement {
  readonly ruleId: RuleId;
  readonly expected: string;
  readonly actual: string;
}

/** What a status expectation means for the profile's operation kind. */
export type OperationKind = 'create' | 'update' | 'list' | 'delete';

export function operationOf(method: string): OperationKind {
  return method === 'POST' ? 'create' : method === 'PUT' ? 'update' : method === 'DELETE' ? 'delete' : 'list';
}

const SCHEMAS: Readonly<Record<SchemaName, z.ZodType>> = {
  'break-list-response': breakListResponse,
  'break-create-response': breakCreateResponse,
  'pagination-block': paginationBlock,
  'break-listed': breakListed,
  'break-created': breakCreated,
};

const FORMATS: Readonly<Record<string, (v: string) => boolean>> = {
  'offset-datetime': isOffsetDateTime,
  'naive-datetime': isNaiveDateTime,
  'us-date': isUsDate,
  'ymd-date': isYmdDate,
  'clock-time': isClockTime,
  'timezone-name': isTimezoneName,
};

const isClientError = (s: number) => s >= 400 && s < 500 && s !== 429;

/** Whether `status` satisfies `expected`, and how to say what was expected. */
export function matchStatus(expected: ExpectedStatus, status: number, profile: Profile, operation: OperationKind): { ok: boolean; wanted: string } {
  const exact = (code: number | undefined, fallback: (s: number) => boolean, label: string) =>
    code === undefined ? { ok: fallback(status), wanted: label } : { ok: status === code, wanted: `${code} (profile)` };
  if (typeof expected === 'number') return { ok: status === expected, wanted: String(expected) };
  switch (expected) {
    case 'success':
      return exact(profile.status_codes[operation], (s) => s >= 200 && s < 300, 'a 2xx success');
    case 'rejected':
      return exact(profile.status_codes.validation, isClientError, 'a 4xx rejection (not 429)');
    case 'refused':
      return exact(profile.status_codes.unauthenticated, isClientError, 'a 4xx refusal (not 429)');
    case 'not-5xx':
      return { ok: status < 500 && status !== 429, wanted: 'an answer that is not a 5xx (served or refused)' };
    case 'any':
      return { ok: true, wanted: 'any status' };
    default: {
      const base = Number(expected[0]) * 100;
      return { ok: status >= base && status < base + 100, wanted: `a ${expected}` };
    }
  }
}

const show = (v: unknown) => (v === undefined ? 'nothing' : jsonText(v));
const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) || typeof v === 'bigint' ? 'integer' : typeof v);

/** How an assertion compares values: by meaning (records the spec does not show) or exactly. */
interface Comparison {
  readonly same: (actual: unknown, expected: unknown) => boolean;
  readonly isType: (value: unknown, type: NonNullable<Assertion['type']>) => boolean;
}

const EXACT: Comparison = {
  same: (actual, expected) => isDeepStrictEqual(actual, expected),
  isType: (value, type) => {
    const t = jsonType(value);
    return type === t || (type === 'number' && t === 'integer');
  },
};
const BY_MEANING: Comparison = { same: sameMeaning, isType: hasMeaningType };

/** By meaning under `$record`/`$list` (unless `exact`), exactly under `$`. */
function comparisonOf(a: Assertion): Comparison {
  return readsRecords(a.path) && !a.exact ? BY_MEANING : EXACT;
}

/**
 * How an assertion reads records: as the profile says; or, when `exact` (a shape the spec fixes: the
 * break records and answers of §2.4 and §4.4), as the spec writes it, whatever the profile reads of
 * the records it does not show: names as written, the record in `items` (an object or a one-element
 * array), a list's items in `items`. A profile that reads bare records (`id_pointer: /id`) or another
 * envelope for users and timesheets does not move where a created break is looked for.
 */
function readingOf(a: Assertion, reading: RecordReading): RecordReading {
  return a.exact ? SPEC_READING : reading;
}

/** The spec's own reading of the shapes it shows (§2.4, §2.5, §4.4). */
const SPEC_READING: RecordReading = { fields: 'exact' };

/** The ways `value` fails the assertion's operators (empty when it passes). */
function valueProblems(value: unknown, a: Assertion, c: Comparison): string[] {
  const problems: string[] = [];
  const among = (list: readonly unknown[]) => list.some((o) => c.same(value, o));
  if (a.equals !== undefined && !c.same(value, a.equals)) problems.push(`equal to ${show(a.equals)}`);
  if (a.not_equals !== undefined && c.same(value, a.not_equals)) problems.push(`not ${show(a.not_equals)}`);
  if (a.type !== undefined && !c.isType(value, a.type)) problems.push(`of type ${a.type}`);
  if (a.matches !== undefined && !(typeof value === 'string' && new RegExp(a.matches).test(value))) problems.push(`matching /${a.matches}/`);
  if (a.one_of !== undefined && !among(a.one_of)) problems.push(`one of ${show(a.one_of)}`);
  if (a.length !== undefined && !(Array.isArray(value) && value.length === a.length)) problems.push(`an array of length ${a.length}`);
  if (a.max_length !== undefined && !(Array.isArray(value) && value.length <= a.max_length)) problems.push(`an array of at most ${a.max_length}`);
  if (a.every_in !== undefined && !among(a.every_in)) problems.push(`one of ${show(a.every_in)}`);
  if (a.excludes !== undefined && among(a.excludes)) problems.push(`none of ${show(a.excludes)}`);
  if (a.format !== undefined && !(typeof value === 'string' && (FORMATS[a.format] as (v: string) => boolean)(value))) problems.push(`in ${a.format} format`);
  return problems;
}

/** Whether the object a path's last field would be read from exists (`$record` for `$record.timezone`). */
function holdsObject(json: unknown, path: string, reading: RecordReading): boolean {
  const parent = path.replace(/\.[A-Za-z_][\w-]*$/, '');
  if (parent === path) return false;
  const [holder] = select(json, parent, reading);
  return holder !== null && typeof holder === 'object' && !Array.isArray(holder);
}

/** Judges one JSON assertion; null when it holds. Records are read as `reading` says (field spellings, envelopes). */
export function judgeAssertion(json: unknown, a: Assertion, reading: RecordReading = AUTO_READING): { expected: string; actual: string } | null {
  const c = comparisonOf(a);
  const values = select(json, a.path, readingOf(a, reading));
  if (a.exists === false) return values.length === 0 ? null : { expected: `${a.path} absent`, actual: `${a.path} = ${show(values[0])}` };
  if (values.length === 0) {
    // By meaning, an absent field is null: `equals: null` holds for a record that does not show the field.
    if (c === BY_MEANING && a.equals === null && !isMultiPath(a.path) && holdsObject(json, a.path, reading)) return null;
    return a.if_present ? null : { expected: `${a.path} present`, actual: `${a.path} missing` };
  }
  if (a.contains_all !== undefined) {
    const missing = a.contains_all.filter((want) => !values.some((v) => c.same(v, want)));
    if (missing.length > 0) return { expected: `${a.path} to include ${show(a.contains_all)}`, actual: `missing ${show(missing)} in ${show(values)}` };
  }
  for (const value of values) {
    const problems = valueProblems(value, a, c);
    if (problems.length > 0) {
      const which = isMultiPath(a.path) ? `every ${a.path}` : a.path;
      const meaning = c === BY_MEANING ? ' (compared by meaning)' : '';
      return { expected: `${which} ${problems.join(', ')}${meaning}`, actual: `${a.path} = ${show(value)}` };
    }
  }
  return null;
}

/**
 * The `if_present` assertions of `expectation` that the response did not let us observe (their path
 * reaches nothing): the spec does not show those fields, so they are not failures.
 */
export function unobserved(expectation: Expectation, exchange: Exchange, reading: RecordReading = AUTO_READING): { observed: number; missing: string[] } {
  const optional = (expectation.json ?? []).filter((a) => a.if_present);
  const json = exchange.response?.json;
  const missing = optional.filter((a) => json === undefined || select(json, a.path, readingOf(a, reading)).length === 0).map((a) => a.path);
  return { observed: optional.length - missing.length, missing };
}

/**
 * What a redirect is, for a finding: where it points, and that it was not followed (the token goes
 * to the verified target only); a redirect to plain http:// is named as what §1 forbids.
 */
export function redirectNote(response: ExchangeResponse): string {
  if (response.status < 300 || response.status >= 400) return '';
  const location = response.headers.location;
  if (location === undefined) return ' (a redirect without a Location)';
  const plain = /^http:\/\//i.test(location) ? ', to plain http://, which §1 forbids (HTTPS-ONLY)' : '';
  return ` (a redirect to ${location}${plain}; not followed: clockcheck sends the token to the verified target only)`;
}

/** Everything in `expectation` that `exchange` breaks, each with its rule. */
export function judge(expectation: Expectation, exchange: Exchange, profile: Profile, defaultRule: RuleId): Judgement[] {
  const rule = expectation.rule ?? defaultRule;
  const response = exchange.response;
  if (!response) {
    return [{ ruleId: rule, expected: 'a response', actual: `no response: ${exchange.error?.code ?? 'OTHER'} ${exchange.error?.message ?? ''}`.trim() }];
  }
  if (exchange.error) {
    // The head arrived but the body did not (reset, stalled, too large): no verdict on a partial answer.
    return [{ ruleId: rule, expected: 'a complete response', actual: `status ${response.status}, then ${exchange.error.code}: ${exchange.error.message}` }];
  }
  const judgements: Judgement[] = [];
  if (expectation.status !== undefined) {
    const { ok, wanted } = matchStatus(expectation.status, response.status, profile, operationOf(exchange.request.method));
    if (!ok) {
      const note = response.status === 429 ? ' (429: rate limited, which the pacer should have prevented)' : redirectNote(response);
      judgements.push({ ruleId: rule, expected: `status ${wanted}`, actual: `status ${response.status}${note}` });
      return judgements; // the body of an unexpected status says nothing about the rest
    }
  }
  for (const [name, want] of Object.entries(expectation.headers ?? {})) {
    const value = response.headers[name.toLowerCase()];
    if (want.exists === false && value !== undefined) judgements.push({ ruleId: rule, expected: `no ${name} header`, actual: `${name}: ${value}` });
    if ((want.exists === true || want.matches !== undefined) && value === undefined) judgements.push({ ruleId: rule, expected: `a ${name} header`, actual: 'absent' });
    else if (want.matches !== undefined && value !== undefined && !new RegExp(want.matches, 'i').test(value)) {
      judgements.push({ ruleId: rule, expected: `${name} matching /${want.matches}/`, actual: `${name}: ${value}` });
    }
  }
  if (expectation.no_body && response.bodyBytes > 0) judgements.push({ ruleId: rule, expected: 'no body', actual: `${response.bodyBytes} bytes of body` });
  const needsJson = expectation.schema !== undefined || (expectation.json?.length ?? 0) > 0;
  if (response.jsonProblem !== undefined) {
    // Over the bounds of bounded-json.ts whatever the check needs of it: not a sound JSON document for this API.
    judgements.push(overBoundsFinding(response));
    return judgements;
  }
  if (needsJson && response.json === undefined) {
    judgements.push({ ruleId: rule, expected: 'a JSON body', actual: response.bodyTruncated ? 'a body too large to judge' : `not JSON: ${response.body.slice(0, 80)}` });
    return judgements;
  }
  if (expectation.schema !== undefined) {
    const parsed = (SCHEMAS[expectation.schema] as z.ZodType).safeParse(response.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      judgements.push({ ruleId: rule, expected: `a body of the spec's ${expectation.schema} shape`, actual: `${issue?.path.join('.') || '(body)'}: ${issue?.message}` });
    }
  }
  const reading = recordReadingFor(profile, exchange.request.url);
  for (const assertion of expectation.json ?? []) {
    const broken = judgeAssertion(response.json, assertion, reading);
    if (broken) judgements.push({ ruleId: assertion.rule ?? rule, ...broken });
  }
  return judgements;
}
