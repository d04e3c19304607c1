import type { Exchange } from '../client/exchange.ts';
import { definiteAnswer, describeAnswer, served, type CheckContext } from './context.ts';

/**
 * The baseline of a list check, asked only when needed: when `answer` (the check's own request, with
 * its query) is not definite (a 5xx, no response, a 429), the list is asked plainly (`GET path`, no
 * query, no body). Not served either: the target serves no list there, so the check's precondition
 * failed and it ends errored, saying what both answered and what `needs` it. Served: the target
 * serves the list but not the check's request, and the check judges that answer as it stands.
 */
export async function requireServedList(ctx: CheckContext, path: string, answer: Exchange, what: string, needs: string): Promise<void> {
  if (definiteAnswer(answer)) return;
  const plain = await ctx.send({ method: 'GET', path });
  if (served(plain)) return;
  ctx.precondition(`${what} ${describeAnswer(answer)} and the plain GET ${path} ${describeAnswer(plain)}: ${needs} needs a list the target serves`);
}
