import { jsonText } from '../contract/json-text.ts';
import type { CheckResult } from '../report/model.ts';
import type { Profile } from '../profile/profile.ts';
import type { Exchange } from '../client/exchange.ts';
import { pageSizeProblems } from '../checks/page-size-verdict.ts';
import type { CheckOutcome } from './check-outcome.ts';
import { histogram } from './boundary.ts';
import { retainExchange } from '../client/retained.ts';

/** §4.6 / §8: the page sizes sent at once: the maximum, just above it, far above it, zero and negative. */
export const PAGE_SIZES_UNDER_LOAD: readonly number[] = [100, 101, 1000, 0, -1];

/** The same answer, as far as a page_size verdict goes: the status and, when shown, per_page. */
function answerKey(exchange: Exchange): string {
  const status = exchange.response?.status ?? exchange.error?.code ?? 'none';
  const perPage = (exchange.response?.json as { meta_data?: { pagination?: { per_page?: unknown } } } | undefined)?.meta_data?.pagination?.per_page;
  return perPage === undefined ? String(status) : `${status} per_page ${jsonText(perPage)}`;
}

/**
 * PAG-PAGE-SIZE-MAX under load: each size is asked for several times at once (`ask`). Every answer is
 * judged as the single-request check judges it (never more than 100 items; a valid error or a
 * clamp), and the copies of one size must agree: the same status and per_page, not a clamp for some
 * and a full page for others. A 429 is not judged (the monitor reports it). One size after another,
 * each judged while its whole pages are at hand and then kept as a report keeps it: a target's
 * pages of up to 1 MiB are held for one size's copies at a time, not for every size at once.
 */
export async function judgePageSizesUnderLoad(
  sizes: readonly number[],
  ask: (size: number) => Promise<readonly Exchange[]>,
  profile: Profile,
  outcome: CheckOutcome,
): Promise<CheckResult> {
  const all: Exchange[] = [];
  let judged = 0;
  for (const size of sizes) {
    const copies = await ask(size);
    judged += judgeCopies(size, copies, profile, outcome);
    all.push(...copies.map(retainExchange));
  }
  return verdict(all, judged, outcome);
}

/** Judges the copies of one page size; the outcome keeps them as a report does. Returns how many were judged (not 429). */
function judgeCopies(size: number, exchanges: readonly Exchange[], profile: Profile, outcome: CheckOutcome): number {
  outcome.keep(exchanges);
  const answered = exchanges.filter((e) => e.response?.status !== 429);
  for (const exchange of answered) {
    for (const problem of pageSizeProblems(size, exchange, profile)) outcome.fail(problem.rule, problem.expected, problem.actual, [exchange]);
  }
  const kinds = new Map<string, Exchange[]>();
  for (const exchange of answered) kinds.set(answerKey(exchange), [...(kinds.get(answerKey(exchange)) ?? []), exchange]);
  if (kinds.size > 1) {
    outcome.fail(
      'PAG-PAGE-SIZE-MAX',
      `the same answer to each of ${answered.length} concurrent requests for page_size=${size}`,
      [...kinds].map(([key, list]) => `${key} ×${list.length}`).join(', '),
      [...kinds.values()].map((list) => list[0]!),
    );
  }
  outcome.note(`page_size=${size}: ${[...kinds].map(([key, list]) => `${key} ×${list.length}`).join(', ') || 'all limited (429)'}`);
  return answered.length;
}

/** The verdict once every size was asked: `all` their calls (statuses are enough), `judged` of them judged. */
function verdict(all: readonly Exchange[], judged: number, outcome: CheckOutcome): CheckResult {
  if (judged === 0) return outcome.errored('every request was refused with 429, so no page_size answer could be judged');
  if (!all.some((e) => e.response !== undefined && !e.error && e.response.status >= 200 && e.response.status < 300)) {
    // Not even page_size=100 was served: the target serves no list here, and its answers show nothing about page sizes.
    return outcome.errored(`no page_size was served (${histogram(all)}): the page_size limit needs a list the target serves`);
  }
  return outcome.result();
}
