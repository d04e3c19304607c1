import fc from 'fast-check';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { breakFrame, breakPayload } from './_internals/break-interval.ts';

/**
 * A valid break create payload (spec §4.4) as a GeneratedCase: timesheet_id and break_rule_id from
 * the context, start and end whole seconds inside ctx.timesheet (start ≥ its start, end ≤ its end,
 * end > start), written with the company timezone's offsets. Biased toward the edges: breaks that
 * begin exactly at the timesheet's start, end exactly at its end, or fill it.
 */
export function breakCase(ctx: GeneratorContext): fc.Arbitrary<GeneratedCase> {
  const frame = breakFrame(ctx);
  const total = frame.seconds;
  const inside = fc.integer({ min: 0, max: total - 1 }).chain((from) =>
    fc.oneof(fc.integer({ min: from + 1, max: Math.min(total, from + 3600) }), fc.integer({ min: from + 1, max: total })).map((to) => [from, to] as const),
  );
  const atStart = fc.integer({ min: 1, max: total }).map((to) => [0, to] as const);
  const atEnd = fc.integer({ min: 0, max: total - 1 }).map((from) => [from, total] as const);
  return fc
    .oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: atStart }, { weight: 1, arbitrary: atEnd }, { weight: 1, arbitrary: fc.constant([0, total] as const) })
    .map(([from, to]): GeneratedCase => {
      const payload = breakPayload(frame, from, to);
      const edges = [from === 0 ? 'at the timesheet start' : '', to === total ? 'to the timesheet end' : ''].filter(Boolean).join(', ');
      return { payload, label: `valid: ${to - from} s break${edges ? ` ${edges}` : ''}, ${String(payload.start)}..${String(payload.end)}` };
    });
}
