import { jsonText } from '../contract/json-text.ts';
import type { PaginationBlock } from '../contract/responses.ts';
import type { RuleId } from '../contract/rules.ts';

/** What one page shows wrong about itself: the rule, what §2.5 expects, what the page says. */
export interface PageProblem {
  readonly ruleId: Extract<RuleId, 'PAG-BLOCK-CONSISTENT' | 'PAG-LINKS'>;
  readonly expected: string;
  readonly actual: string;
}

/**
 * PAG-BLOCK-CONSISTENT, from one page alone: the block agrees with itself and with the items it came
 * with (last_page from total and per_page, from/to indexing the items, full pages before the last,
 * the rest on the last). The walk judges every page it fetches with it; `grade` every list answer
 * it reads.
 */
export function blockProblems(block: PaginationBlock, items: readonly unknown[]): PageProblem[] {
  const problems: PageProblem[] = [];
  const fail = (expected: string, actual: string) => problems.push({ ruleId: 'PAG-BLOCK-CONSISTENT', expected, actual });
  const expectedLast = Math.max(1, Math.ceil(block.total / block.per_page));
  if (block.last_page !== expectedLast && !(block.total === 0 && block.last_page === 0)) {
    fail(`last_page = ceil(total ${block.total} / per_page ${block.per_page}) = ${expectedLast}`, `last_page ${block.last_page}`);
  }
  if (items.length > block.per_page) fail(`at most per_page (${block.per_page}) items`, `${items.length} items`);
  if (items.length > 0) {
    const from = (block.current_page - 1) * block.per_page + 1;
    if (block.from !== from || block.to !== from + items.length - 1) {
      fail(`from ${from}, to ${from + items.length - 1} on page ${block.current_page} of ${items.length} items`, `from ${block.from}, to ${block.to}`);
    }
  }
  if (block.current_page < block.last_page && items.length !== block.per_page) {
    fail(`a full page (${block.per_page} items) before the last page`, `${items.length} items on page ${block.current_page} of ${block.last_page}`);
  }
  if (block.current_page === block.last_page && block.total > 0) {
    const rest = block.total - (block.last_page - 1) * block.per_page;
    if (items.length !== rest) fail(`${rest} items on the last page (total ${block.total})`, `${items.length} items`);
  }
  return problems;
}

/** The `page` parameter of a pagination link, or null when it has none (a link need not carry one). */
function linkedPage(url: string | null): number | null {
  if (url === null) return null;
  try {
    const page = new URL(url).searchParams.get('page');
    return page !== null && /^\d+$/.test(page) ? Number(page) : null;
  } catch {
    return null;
  }
}

/** PAG-LINKS, from one page alone: next/prev are null exactly at the ends, and every link that names a page names the right one. */
export function linkProblems(block: PaginationBlock): PageProblem[] {
  const problems: PageProblem[] = [];
  const fail = (expected: string, actual: string) => problems.push({ ruleId: 'PAG-LINKS', expected, actual });
  const atEnd = block.current_page >= block.last_page;
  if (atEnd !== (block.next_page_url === null)) {
    fail(`next_page_url ${atEnd ? 'null on the last page' : 'set before the last page'}`, `next_page_url ${jsonText(block.next_page_url)} on page ${block.current_page} of ${block.last_page}`);
  }
  if ((block.current_page <= 1) !== (block.prev_page_url === null)) {
    fail(`prev_page_url ${block.current_page <= 1 ? 'null on the first page' : 'set after the first page'}`, `prev_page_url ${jsonText(block.prev_page_url)} on page ${block.current_page}`);
  }
  const named: Array<[string, string | null, number]> = [
    ['next_page_url', block.next_page_url, block.current_page + 1],
    ['prev_page_url', block.prev_page_url, block.current_page - 1],
    ['first_page_url', block.first_page_url, 1],
    ['last_page_url', block.last_page_url, block.last_page],
  ];
  for (const [name, url, want] of named) {
    const linked = linkedPage(url);
    if (linked !== null && linked !== want) fail(`${name} naming page ${want}`, `${name} ${url} names page ${linked}`);
  }
  return problems;
}
