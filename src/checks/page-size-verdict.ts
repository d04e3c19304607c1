import type { RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { itemsOf } from './args.ts';
import { overBoundsFinding } from '../client/bounded-json.ts';

/** One broken expectation about a page_size answer. */
export interface PageSizeProblem {
  readonly rule: RuleId;
  readonly expected: string;
  readonly actual: string;
}

/**
 * PAG-PAGE-SIZE-MAX (§4.6, §8): what a list answer to `page_size=size` may be. A page_size above
 * 100 is clamped (2xx, at most 100 items, `per_page` ≤ 100) or rejected (a 4xx other than 429),
 * never served as asked; the profile's `page_size_over_max` may insist on one of the two. Sizes the
 * spec leaves open (0, negative, not a number) may be rejected or served, but never with a 5xx
 * (ERR-NO-SERVER-ERROR) nor with more than 100 items. A 429 is the caller's problem: not judged here.
 */
export function pageSizeProblems(size: number | string, exchange: Exchange, profile: Profile): PageSizeProblem[] {
  const policy = profile.page_size_over_max;
  const overMax = typeof size === 'number' && size > 100;
  const response = exchange.response;
  if (!response) return [{ rule: 'PAG-PAGE-SIZE-MAX', expected: `page_size=${size} clamped or rejected`, actual: `no response: ${exchange.error?.code}` }];
  const rejected = response.status >= 400 && response.status < 500 && response.status !== 429;
  if (rejected) {
    return policy === 'clamp' && overMax ? [{ rule: 'PAG-PAGE-SIZE-MAX', expected: `page_size=${size} clamped to 100 (profile)`, actual: `status ${response.status}` }] : [];
  }
  if (response.status < 200 || response.status >= 300) {
    return [{ rule: overMax ? 'PAG-PAGE-SIZE-MAX' : 'ERR-NO-SERVER-ERROR', expected: `page_size=${size} ${overMax ? 'clamped' : 'served'} (2xx) or rejected (4xx)`, actual: `status ${response.status}` }];
  }
  const problems: PageSizeProblem[] = [];
  if (policy === 'reject' && overMax) problems.push({ rule: 'PAG-PAGE-SIZE-MAX', expected: `page_size=${size} rejected (profile)`, actual: `status ${response.status}` });
  const items = itemsOf(response.json, profile);
  if (!items) {
    // A served page whose items cannot be read shows nothing about its size: that is the finding.
    const overBounds = overBoundsFinding(response);
    problems.push(
      response.jsonProblem !== undefined
        ? { rule: overBounds.ruleId, expected: overBounds.expected, actual: overBounds.actual }
        : { rule: 'PAG-PAGE-SIZE-MAX', expected: `a page of items for page_size=${size}`, actual: response.json === undefined ? 'a body that is not JSON' : 'no list of items in the body' },
    );
    return problems;
  }
  const perPage = (response.json as { meta_data?: { pagination?: { per_page?: unknown } } })?.meta_data?.pagination?.per_page;
  if (items.length > 100) problems.push({ rule: 'PAG-PAGE-SIZE-MAX', expected: `at most 100 items for page_size=${size}`, actual: `${items.length} items` });
  if (typeof perPage === 'number' && perPage > 100) problems.push({ rule: 'PAG-PAGE-SIZE-MAX', expected: `per_page at most 100 for page_size=${size}`, actual: `per_page ${perPage}` });
  return problems;
}
