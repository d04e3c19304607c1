import { z } from 'zod';
import { builtinCheck, describeAnswer, served } from './context.ts';
import { pathArg } from './args.ts';
import { pageSizeProblems } from './page-size-verdict.ts';

const Args = z.strictObject({ path: pathArg, sizes: z.array(z.union([z.number().int(), z.string()])).default([101, 1000]) });

/**
 * PAG-PAGE-SIZE-MAX (§4.6, §8), one request per size, judged by `pageSizeProblems`. When no size was
 * served (all rejected, a 5xx, no answer), the list is asked without page_size: a target that does
 * not serve it shows nothing about page sizes (its rejections are no clamp-or-reject, its 5xx no
 * verdict), so the check ends errored. One plain GET more, only then.
 */
export const pageSizeLimit = builtinCheck(Args, async (ctx, args) => {
  const answers = [];
  for (const size of args.sizes) answers.push({ size, exchange: await ctx.send({ method: 'GET', path: args.path, query: { page_size: size } }) });
  if (!answers.some((a) => served(a.exchange))) {
    const plain = await ctx.send({ method: 'GET', path: args.path });
    if (!served(plain)) {
      const each = answers.map((a) => `page_size=${a.size} ${describeAnswer(a.exchange)}`).join(', ');
      ctx.precondition(`${each}, and the plain GET ${args.path} ${describeAnswer(plain)}: the page_size limit needs a list the target serves`);
    }
  }
  for (const { size, exchange } of answers) {
    for (const problem of pageSizeProblems(size, exchange, ctx.profile)) ctx.fail(problem.rule, problem.expected, problem.actual, [exchange]);
  }
});
