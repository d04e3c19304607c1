import { parseJsonExact } from '../contract/json-text.ts';
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
  if (definiteAnswer(answer)) {
    await requireMaximumServed(ctx, answer, needs);
    return;
  }
  const plain = await ctx.send({ method: 'GET', path });
  if (served(plain)) return;
  ctx.precondition(`${what} ${describeAnswer(answer)} and the plain GET ${path} ${describeAnswer(plain)}: ${needs} needs a list the target serves`);
}

/** The most items a page may hold (§4.6, §8): the page size list checks ask for. */
const MAXIMUM_PAGE_SIZE = '100';

/**
 * A list asked at page_size=100 (the maximum, which §4.6 allows) and refused with a 4xx, while the
 * same request at the default page size is served: the refusal is about the page size, which is
 * PAG-PAGE-SIZE-MAX's to judge (pagination/page-size-100-served), not this check's rule. The check
 * ends errored, saying so; any other answer is judged by the check as it stands.
 */
async function requireMaximumServed(ctx: CheckContext, answer: Exchange, needs: string): Promise<void> {
  const status = answer.response?.status ?? 0;
  const url = new URL(answer.request.url);
  if (status < 400 || status === 401 || status === 403 || url.searchParams.get('page_size') !== MAXIMUM_PAGE_SIZE) return;
  url.searchParams.delete('page_size');
  const json = answer.request.body === undefined ? undefined : parseJsonExact(answer.request.body);
  const plain = await ctx.send({ method: 'GET', url: url.toString(), ...(json === undefined ? {} : { json }) });
  if (!served(plain)) return;
  ctx.precondition(`the list ${describeAnswer(answer)} at page_size=100 and was served at its default page size (exchange ${plain.id}): it refuses the maximum page size, which PAG-PAGE-SIZE-MAX judges; ${needs} needs pages of 100`);
}
