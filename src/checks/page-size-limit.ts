import { z } from 'zod';
import type { BuiltinCheck } from './context.ts';
import { parseArgs, pathArg } from './args.ts';
import { pageSizeProblems } from './page-size-verdict.ts';

const Args = z.strictObject({ path: pathArg, sizes: z.array(z.union([z.number().int(), z.string()])).default([101, 1000]) });

/** PAG-PAGE-SIZE-MAX (§4.6, §8), one request per size, judged by `pageSizeProblems`. */
export const pageSizeLimit: BuiltinCheck = async (ctx, raw) => {
  const args = parseArgs('page-size-limit', Args, raw);
  for (const size of args.sizes) {
    const exchange = await ctx.send({ method: 'GET', path: args.path, query: { page_size: size } });
    for (const problem of pageSizeProblems(size, exchange, ctx.profile)) ctx.fail(problem.rule, problem.expected, problem.actual);
  }
};
