import fc from 'fast-check';
import { BREAK_FIELDS } from '../../contract/payloads/break.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { breakFrame, breakPayload, type BreakFrame } from './_internals/break-interval.ts';
import { brokenOffsetDateTime } from './_internals/broken-offset-date-time.ts';
import { omit, requiredFields } from './_internals/payload-edits.ts';
import { breakCase } from './break-case.ts';
import { InternalError } from '../../errors.ts';

type Breaker = (ctx: GeneratorContext, frame: BreakFrame) => fc.Arbitrary<GeneratedCase>;

/** How far outside the timesheet: often one second, the edge a minute-granular check misses. */
const outside = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 59 }), fc.integer({ min: 60, max: 4 * 3600 }));

const BREAKERS: Partial<Record<RuleId, Breaker>> = {
  'BRK-DATETIME-FORMAT': (ctx) =>
    fc.tuple(breakCase(ctx), fc.constantFrom('start' as const, 'end' as const)).chain(([c, field]) =>
      brokenOffsetDateTime(String(c.payload[field])).map((bad) => ({
        payload: { ...c.payload, [field]: bad.value },
        breaks: 'BRK-DATETIME-FORMAT' as const,
        label: `${field} ${bad.label}: ${bad.value}`,
      })),
    ),
  'BRK-WITHIN-TIMESHEET': (_ctx, frame) => {
    const total = frame.seconds;
    const before = fc
      .tuple(outside, fc.integer({ min: 1, max: total }))
      .map(([early, to]) => ({ payload: breakPayload(frame, -early, Math.max(to, -early + 1)), label: `starts ${early} s before the timesheet` }));
    const after = fc
      .tuple(outside, fc.integer({ min: 0, max: total }))
      .map(([late, from]) => ({ payload: breakPayload(frame, from, total + late), label: `ends ${late} s after the timesheet` }));
    return fc.oneof(before, after).map((c) => ({ ...c, breaks: 'BRK-WITHIN-TIMESHEET' as const }));
  },
  'BRK-CREATE-REQUIRED': (ctx) =>
    fc
      .tuple(breakCase(ctx), fc.constantFrom(...requiredFields(BREAK_FIELDS, 'create')))
      .map(([c, { field, rule }]) => ({ payload: omit(c.payload, field), breaks: rule, label: `without ${field}` })),
};

/** The rules an invalid break create payload can break (BRK-END-AFTER-START is a profile rule: not generated). */
export const BREAK_BREAKABLE_RULES: readonly RuleId[] = Object.keys(BREAKERS) as RuleId[];

/**
 * A break create payload that breaks exactly one rule (its `breaks`): start or end not in the
 * `±HH:MM` form (naive, no colon, a day that does not exist, hour 25); a break that starts before
 * ctx.timesheet or ends after it (often by one second), end still after start; a required field left
 * out. `rules` restricts the rules broken (default: all, equally likely).
 */
export function invalidBreakCase(ctx: GeneratorContext, rules: readonly RuleId[] = BREAK_BREAKABLE_RULES): fc.Arbitrary<GeneratedCase> {
  const frame = breakFrame(ctx);
  if (rules.length === 0) throw new InternalError('invalidBreakCase needs at least one rule');
  return fc.oneof(
    ...rules.map((rule) => {
      const breaker = BREAKERS[rule];
      if (!breaker) throw new InternalError(`a break payload cannot be made to break ${rule}; it can break ${BREAK_BREAKABLE_RULES.join(', ')}`);
      return breaker(ctx, frame);
    }),
  );
}
