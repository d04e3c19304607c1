import { isDeepStrictEqual } from 'node:util';
import { jsonText } from '../../contract/json-text.ts';
import type { RequestModel } from '../../contract/operations.ts';
import type { RuleId } from '../../contract/rules.ts';
import { PASSWORD_MIN_LENGTH } from '../../contract/payloads/password.ts';
import type { TargetRequest } from '../../client/client.ts';
import type { Exchange } from '../../client/exchange.ts';
import { RunStopped } from '../../errors.ts';
import { retainExchange } from '../../client/retained.ts';
import type { GeneratedCase } from '../family.ts';
import { accepted } from './case-verdicts.ts';

/** Variants an attribution sends at most: one per group of fields the two cases differ in. */
const MAX_VARIANTS = 10;

/** Fields never put back from the accepted case: unique per create (§2.2's e-mail), so the accepted one's is taken. */
const UNIQUE_FIELDS = new Set(['email']);

/** What names the value a refusal follows: the group of fields, the rule of its value, the variant that showed it. */
export interface Attribution {
  readonly fields: readonly string[];
  readonly rule: RuleId;
  /** The refused case with those fields put back as the accepted case has them: accepted. */
  readonly variant: Exchange;
}

export interface AttributionInput {
  readonly refused: GeneratedCase;
  /** A valid case the target accepted in the same family (the baseline); without one, plain valid values stand in. */
  readonly baseline: GeneratedCase | null;
  readonly model: RequestModel;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly request: Pick<TargetRequest, 'method'> & { readonly path: string };
  /** The rule a refusal of this group's values names, when its fields' formats do not say it (e.g. the family's refusalRule). */
  readonly fallback: (fields: readonly string[], refused: GeneratedCase) => RuleId | null;
}

/**
 * The fields a payload's conditional rules tie together (§2.1: all_day with the times; repeat,
 * repeat_type, repeat_end_date and weeks), each set moved as one, so a variant stays valid; every
 * other field alone.
 */
function fieldGroups(model: RequestModel, fields: readonly string[]): string[][] {
  const groupOf = new Map<string, Set<string>>();
  const join = (a: string, b: string) => {
    const [ga, gb] = [groupOf.get(a) ?? new Set([a]), groupOf.get(b) ?? new Set([b])];
    if (ga === gb) return;
    for (const f of gb) ga.add(f);
    for (const f of ga) groupOf.set(f, ga);
  };
  for (const condition of model.conditions) {
    if (condition.trigger.kind === 'operation') continue;
    for (const required of condition.requires) join(condition.trigger.field, required);
  }
  const groups: string[][] = [];
  const placed = new Set<string>();
  for (const field of fields) {
    if (placed.has(field)) continue;
    const group = [...(groupOf.get(field) ?? new Set([field]))];
    for (const f of group) placed.add(f);
    groups.push(group);
  }
  return groups;
}

/**
 * The format rule a value of `field` stands at the edge of: its one format's; of the password's two
 * (§2.2, §8), the length's when the value is within one character of the minimum, else the classes'.
 */
function formatRuleOf(model: RequestModel, field: string, value: unknown): RuleId | null {
  const formats = model.table[field]?.formats ?? [];
  if (formats.length <= 1) return formats[0]?.rule ?? null;
  if (field === 'password' && typeof value === 'string') return [...value].length <= PASSWORD_MIN_LENGTH + 1 ? 'USR-PASSWORD-LENGTH' : 'USR-PASSWORD-CLASSES';
  return formats[0]!.rule;
}

/**
 * The rule a refusal follows when the refused case left `field` out and the accepted one had it:
 * the conditional rule that says when it is required (§2.1: start_time unless all_day), else its own
 * requirement; null when neither says (then another field of the variant, or the family, names it).
 */
function absenceRuleOf(model: RequestModel, field: string): RuleId | null {
  return model.conditions.find((c) => c.trigger.kind !== 'operation' && c.requires.includes(field))?.rule ?? model.table[field]?.requiredRule ?? null;
}

/** The rule a value of `field` is judged by: its first format's, else its JSON type's. */
function valueRule(model: RequestModel, field: string): RuleId | null {
  const spec = model.table[field];
  if (!spec) return null;
  return spec.formats[0]?.rule ?? spec.typeRule;
}

/** A plainly valid value of each format, put in where the accepted case has none of its own (no edge: mid-range, common). */
const PLAIN_VALUES: Readonly<Partial<Record<RuleId, unknown>>> = {
  'SCH-DATE-FORMAT': '01/15/2026',
  'SCH-TIME-FORMAT': '12:00',
  'SCH-WEEKS-FORMAT': 'monday,wednesday',
  'SCH-TIMEZONE-NAME': 'America/Chicago',
  'USR-PASSWORD-LENGTH': 'Valid-pass1',
  'USR-EMPLOYEE-CODE': '4821',
};

/** One variant to send: the refused case with `fields` set back to a value the spec accepts. */
interface Variant {
  readonly fields: readonly string[];
  readonly payload: Record<string, unknown>;
}

/**
 * The variants that narrow a refusal, most telling first: each field with a format of its own (where
 * edges live) alone, then each other field alone, then the groups the conditional rules tie
 * together; each set back to the accepted case's value (or left out where it has none), else to a
 * plain valid value of its format, and only when the spec model finds the variant valid.
 */
function variants(input: AttributionInput, differing: readonly string[], companyTimezone: string): Variant[] {
  const refused = input.refused.payload;
  const baseline = input.baseline?.payload ?? {};
  const valid = (payload: Record<string, unknown>) => input.model.violations(payload, { companyTimezone }).length === 0;
  const setBack = (fields: readonly string[], plain: boolean): Record<string, unknown> => {
    const payload: Record<string, unknown> = { ...refused };
    for (const field of fields) {
      const rule = valueRule(input.model, field);
      const value = baseline[field] ?? (plain && rule ? PLAIN_VALUES[rule] : undefined);
      if (value === undefined) delete payload[field];
      else payload[field] = value;
    }
    return payload;
  };
  const formatted = (f: string) => (input.model.table[f]?.formats.length ?? 0) > 0;
  const singles = [...differing.filter(formatted), ...differing.filter((f) => !formatted(f))];
  const out: Variant[] = [];
  const seen = new Set<string>();
  const add = (fields: readonly string[], payload: Record<string, unknown>) => {
    const key = jsonText(payload);
    if (seen.has(key) || !valid(payload)) return;
    seen.add(key);
    out.push({ fields, payload });
  };
  const formattedFields = differing.filter(formatted);
  // Each formatted field back to the accepted case's value; then the fields of one format together
  // (start_date and end_date both on February 29th); then plain values; then the other fields.
  for (const field of formattedFields) add([field], setBack([field], false));
  const byRule = new Map<RuleId, string[]>();
  for (const field of formattedFields) {
    const rule = valueRule(input.model, field);
    if (rule) byRule.set(rule, [...(byRule.get(rule) ?? []), field]);
  }
  for (const fields of byRule.values()) if (fields.length > 1) add(fields, setBack(fields, false));
  for (const field of formattedFields) add([field], setBack([field], true));
  for (const fields of byRule.values()) if (fields.length > 1) add(fields, setBack(fields, true));
  for (const field of singles.filter((f) => !formatted(f))) add([field], setBack([field], false));
  for (const group of fieldGroups(input.model, differing)) if (group.length > 1) add(group.filter((f) => differing.includes(f)), setBack(group, false));
  return out;
}

/**
 * A refused valid case, narrowed to the value it was refused for (a minimal pair): the refused case
 * is sent again with one field (or one group of fields the conditional rules tie together) set back
 * to a value the target accepted, the most telling first (variants). The first variant the target
 * accepts shows that the refusal follows the refused case's value there: the finding names that
 * field's rule (`end_time "23:59"` → SCH-TIME-FORMAT, `weeks "monday"` → SCH-WEEKS-FORMAT), not the
 * first rule its family lists. At most MAX_VARIANTS requests; null when none explains the refusal
 * (then the family's own reading of the refusal stands).
 */
export async function attributeRefusal(input: AttributionInput, companyTimezone: string): Promise<Attribution | null> {
  const refused = input.refused.payload;
  const baseline = input.baseline?.payload;
  // Without an accepted case, each field of the refused case that has a format is tried with a plain value.
  const differing = baseline
    ? [...new Set([...Object.keys(refused), ...Object.keys(baseline)])].filter((k) => !UNIQUE_FIELDS.has(k) && !isDeepStrictEqual(refused[k], baseline[k]))
    : Object.keys(refused).filter((k) => !UNIQUE_FIELDS.has(k) && (input.model.table[k]?.formats.length ?? 0) > 0);
  for (const variant of variants(input, differing, companyTimezone).slice(0, MAX_VARIANTS)) {
    let exchange: Exchange;
    try {
      exchange = await input.send({ method: input.request.method, path: input.request.path, json: variant.payload } as TargetRequest);
    } catch (error) {
      if (error instanceof RunStopped) return null;
      throw error;
    }
    if (!accepted(exchange)) continue;
    // The field's own format rule (the password's two: the length's at the minimum's edge, else the classes'); in a group, the first field with one; else the family's reading.
    const own = variant.fields.map((f) => (refused[f] === undefined ? absenceRuleOf(input.model, f) : formatRuleOf(input.model, f, refused[f]))).find((r): r is RuleId => r !== null);
    const rule = own ?? input.fallback(variant.fields, input.refused) ?? valueRule(input.model, variant.fields[0] ?? '');
    if (rule === null || rule === undefined) continue;
    return { fields: variant.fields, rule, variant: retainExchange(exchange) };
  }
  return null;
}

/** How a finding says which values the refusal followed: `end_time "23:59"`. */
export function describeValues(payload: Readonly<Record<string, unknown>>, fields: readonly string[]): string {
  return fields.map((f) => `${f} ${payload[f] === undefined ? 'absent' : jsonText(payload[f])}`).join(', ');
}
