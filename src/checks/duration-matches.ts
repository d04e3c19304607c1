import { jsonText } from '../contract/json-text.ts';
import { z } from 'zod';
import { parseOffsetDateTime } from '../contract/formats/index.ts';
import { select } from '../records/json-path.ts';
import { builtinCheck, describeAnswer } from './context.ts';
import { jsonPathArg } from './args.ts';

const Args = z.strictObject({
  /** JSON path of the break or breaks in the previous response, e.g. `$.items` or `$.items[*]`. */
  items: jsonPathArg,
  field: z.enum(['duration', 'duration_in_seconds']),
});

/** BRK-DURATION (§2.4): a break's duration is end minus start, in whole seconds. */
export const durationMatches = builtinCheck(Args, async (ctx, args) => {
  const exchange = ctx.lastExchange();
  const json = exchange?.response?.json;
  if (!exchange) return ctx.precondition('no previous step: the durations need a break list or a created break to judge');
  if (json === undefined) return ctx.precondition(`the previous step's ${exchange.request.method} ${describeAnswer(exchange)} without a JSON body: the durations need a break to judge`);
  const breaks = select(json, args.items).flatMap((v) => (Array.isArray(v) ? v : [v]));
  let judged = 0;
  for (const item of breaks) {
    const b = item as Record<string, unknown>;
    const start = typeof b.start === 'string' ? parseOffsetDateTime(b.start) : null;
    const end = typeof b.end === 'string' ? parseOffsetDateTime(b.end) : null;
    if (!start || !end) continue; // a format problem, judged by the format rules
    if (!(args.field in b)) continue; // a shape problem (BRK-LIST-SHAPE / BRK-CREATE-SHAPE), not a duration one
    judged++;
    const expected = Math.round((end.dateTime.toMillis() - start.dateTime.toMillis()) / 1000);
    if (b[args.field] !== expected) {
      ctx.fail('BRK-DURATION', `${args.field} = ${expected} (end ${b.end} − start ${b.start}, in seconds)`, `${args.field} = ${jsonText(b[args.field])} (break ${String(b.id)})`);
    }
  }
  // No break to judge: BRK-DURATION was never shown. A break without the field or a parsable start and
  // end is a shape or format finding of the step before (then the scenario is failed anyway).
  if (judged === 0) ctx.precondition(`${breaks.length === 0 ? 'no break' : `none of ${breaks.length} breaks with start, end and ${args.field}`} at ${args.items} in the previous answer: BRK-DURATION needs a break to judge`);
});
