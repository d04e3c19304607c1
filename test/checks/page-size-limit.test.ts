import { describe, expect, it } from 'vitest';
import { pageSizeLimit } from '../../src/checks/page-size-limit.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { profileWith, queryParam, runCheck, type Reply } from '../scenarios/support.ts';

/** A list that serves `served(page_size)` items and says so in per_page. */
const serving = (served: (size: number) => number) => (request: TargetRequest): Reply => {
  const size = served(Number(queryParam(request, 'page_size')));
  return { status: 200, json: { items: Array.from({ length: size }, (_, i) => ({ id: i + 1 })), meta_data: { pagination: { per_page: size } } } };
};
const clamps = serving((size) => Math.min(size, 100));
/** Rejects any page_size; serves the list without one (the baseline a rejection is judged against). */
const rejects = (request: TargetRequest): Reply =>
  queryParam(request, 'page_size') === undefined ? { status: 200, json: { items: [{ id: 1 }] } } : { status: 422, json: { message: 'page_size must be at most 100' } };

describe('page-size-limit', () => {
  it('passes a target that clamps to 100, trying 101 and 1000 by default', async () => {
    const outcome = await runCheck(pageSizeLimit, { path: '/users' }, clamps);
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests.map((r) => r.query)).toEqual([{ page_size: 101 }, { page_size: 1000 }]);
  });

  it('passes a target that rejects with a 4xx, once the plain list shows it serves the list', async () => {
    const outcome = await runCheck(pageSizeLimit, { path: '/users' }, rejects);
    expect(outcome).toMatchObject({ status: 'passed', findings: [] });
    expect(outcome.requests.map((r) => r.query ?? {})).toEqual([{ page_size: 101 }, { page_size: 1000 }, {}]);
  });

  it('is errored, never passed, when the list is not served at all (500 or 4xx to everything, no answer)', async () => {
    const cases: Array<[Reply, RegExp]> = [
      [{ status: 500, json: {} }, /^page_size=101 answered 500, page_size=1000 answered 500, and the plain GET \/users answered 500: the page_size limit needs a list the target serves$/],
      [{ status: 400, json: {} }, /page_size=101 answered 400, .* the plain GET \/users answered 400: /],
      [{ error: 'CONNECTION_RESET' }, /the plain GET \/users got no response \(CONNECTION_RESET\)/],
    ];
    for (const [reply, reason] of cases) {
      const outcome = await runCheck(pageSizeLimit, { path: '/users' }, () => reply);
      expect(outcome.status).toBe('errored');
      expect(outcome.findings).toEqual([]);
      expect(outcome.reason).toMatch(reason);
    }
  });

  it('fails PAG-PAGE-SIZE-MAX when 101 items are served, on items and per_page', async () => {
    const outcome = await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, serving((size) => size));
    expect(outcome.findings.map((f) => [f.ruleId, f.expected, f.actual])).toEqual([
      ['PAG-PAGE-SIZE-MAX', 'at most 100 items for page_size=101', '101 items'],
      ['PAG-PAGE-SIZE-MAX', 'per_page at most 100 for page_size=101', 'per_page 101'],
    ]);
  });

  it('fails when per_page says more than 100 even with few items', async () => {
    const outcome = await runCheck(pageSizeLimit, { path: '/users', sizes: [500] }, () => ({ status: 200, json: { items: [{ id: 1 }], meta_data: { pagination: { per_page: 500 } } } }));
    expect(outcome.findings.map((f) => f.actual)).toEqual(['per_page 500']);
  });

  it('never counts a 429 or a 5xx as a rejection', async () => {
    // The plain list is served, so the 429 and the 500 to page_size=101 are the target's answers to it.
    const plainServed = (reply: Reply) => (request: TargetRequest): Reply => (queryParam(request, 'page_size') === undefined ? { status: 200, json: { items: [] } } : reply);
    const limited = await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, plainServed({ status: 429 }));
    expect(limited.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-PAGE-SIZE-MAX', expected: 'page_size=101 clamped (2xx) or rejected (4xx)', actual: 'status 429' })]);
    const crashed = await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, plainServed({ status: 500 }));
    expect(crashed.findings[0]!.actual).toBe('status 500');
  });

  it('fails a transport error and goes on with the next size', async () => {
    const outcome = await runCheck(pageSizeLimit, { path: '/users' }, (request, index) => (index === 0 ? { error: 'HEADERS_TIMEOUT' } : clamps(request)));
    expect(outcome.findings).toEqual([expect.objectContaining({ actual: 'no response: HEADERS_TIMEOUT' })]);
    expect(outcome.requests).toHaveLength(2);
  });

  it('insists on a clamp when the profile says clamp', async () => {
    const profile = profileWith({ page_size_over_max: 'clamp' });
    expect((await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, clamps, { profile })).findings).toEqual([]);
    const outcome = await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, rejects, { profile });
    expect(outcome.findings).toEqual([expect.objectContaining({ expected: 'page_size=101 clamped to 100 (profile)', actual: 'status 422' })]);
  });

  it('insists on a rejection when the profile says reject', async () => {
    const profile = profileWith({ page_size_over_max: 'reject' });
    expect((await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, rejects, { profile })).findings).toEqual([]);
    const outcome = await runCheck(pageSizeLimit, { path: '/users', sizes: [101] }, clamps, { profile });
    expect(outcome.findings).toEqual([expect.objectContaining({ expected: 'page_size=101 rejected (profile)', actual: 'status 200' })]);
  });
});
