import { describe, expect, it } from 'vitest';
import { exactPageSize, paginationWalk } from '../../src/checks/pagination-walk.ts';
import { parseArguments } from '../../src/input/arguments.ts';
import { ORIGIN, pagedList, profileWith, queryParam, rulesOf, runCheck, urlOf } from '../scenarios/support.ts';

const walk = (handler: Parameters<typeof runCheck>[2], args: Record<string, unknown> = { path: '/breaks' }) => runCheck(paginationWalk, args, handler);

describe('pagination-walk', () => {
  it('with exact_pages, walks at the largest size from 2 to 100 that divides the total into two pages or more', async () => {
    expect([36, 240, 7, 3, 1, 0, 101, 1009].map(exactPageSize)).toEqual([18, 80, null, null, null, null, null, null]);
    const outcome = await walk(pagedList(36), { path: '/breaks', exact_pages: true });
    expect(outcome.findings).toEqual([]);
    // The default page for the total, then page 1 at 18 (and its next link once), then nothing past page 2.
    expect(outcome.requests.map((r) => r.url ?? r.query)).toEqual([{}, { page_size: 18 }, `${ORIGIN}/api/public/breaks?page=2&page_size=18`]);
  });

  it('with exact_pages and a prime total, asks for the whole list on one page of that size, which must be the last', async () => {
    const outcome = await walk(pagedList(37), { path: '/breaks', exact_pages: true });
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests.map((r) => r.query)).toEqual([{}, { page_size: 37 }]);
    // One page too many when the size divides the total: floor(total / size) + 1.
    const extraPage = (page: { meta_data: { pagination: Record<string, unknown> } }) => {
      const p = page.meta_data.pagination;
      p.last_page = Math.floor((p.total as number) / (p.per_page as number)) + 1;
    };
    expect(rulesOf((await walk(pagedList(37, { tamper: extraPage }), { path: '/breaks', exact_pages: true })).findings)).toContain('PAG-BLOCK-CONSISTENT');
    // Above 100, a prime total is judged at page_size 1: its first page and its last.
    const large = await walk(pagedList(139), { path: '/breaks', exact_pages: true });
    expect(large.status).toBe('passed');
    expect(large.requests.map((r) => r.query)).toEqual([{}, { page_size: 1 }, { page_size: 1, page: 139 }]);
  });

  it('passes a consistent walk and follows next_page_url to the last page', async () => {
    const outcome = await walk(pagedList(25));
    expect(outcome.findings).toEqual([]);
    expect(outcome.status).toBe('passed');
    expect(outcome.requests.map((r) => queryParam(r, 'page') ?? '1')).toEqual(['1', '2', '3']);
    expect(outcome.requests[0]).toMatchObject({ method: 'GET', path: '/breaks', query: {} });
    expect(outcome.requests[1]).toMatchObject({ method: 'GET', url: `${ORIGIN}/api/public/breaks?page=2&page_size=10` });
  });

  it('sends page_size and the query when given, and passes a walk of that size', async () => {
    const outcome = await walk(pagedList(20), { path: '/breaks', page_size: 7, query: { active: true } });
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests[0]!.query).toEqual({ active: 'true', page_size: 7 });
    // page 1, its next link followed once, then page=2 and page=3 asked for with page_size kept
    expect(outcome.requests).toHaveLength(4);
    expect(outcome.requests[2]!.query).toEqual({ active: 'true', page_size: 7, page: 2 });
  });

  it('does not ask for page 2 again when its next link was already exactly that request', async () => {
    const outcome = await walk(pagedList(20), { path: '/breaks', page_size: 7 });
    expect(outcome.findings).toEqual([]);
    // page 1, its next link (page=2&page_size=7, what page=2 would ask), then page=3 asked for
    expect(outcome.requests.map((r) => r.url ?? r.query)).toEqual([{ page_size: 7 }, `${ORIGIN}/api/public/breaks?page=2&page_size=7`, { page_size: 7, page: 3 }]);
  });

  it('walks with page_size even when the links drop the other query parameters', async () => {
    const dropQuery = (page: { meta_data: { pagination: Record<string, unknown> } }) => {
      const p = page.meta_data.pagination;
      for (const key of ['first_page_url', 'last_page_url', 'next_page_url', 'prev_page_url']) {
        if (typeof p[key] === 'string') p[key] = (p[key] as string).replace(/page_size=\d+&?/, '').replace(/[?&]$/, '');
      }
    };
    const outcome = await walk(pagedList(20, { tamper: dropQuery }), { path: '/breaks', page_size: 7 });
    expect(outcome.findings).toEqual([]);
  });

  it('holds the links to the form the profile declares (page_links), and to none by default', async () => {
    const dropQuery = (page: { meta_data: { pagination: Record<string, unknown> } }) => {
      const p = page.meta_data.pagination;
      for (const key of ['first_page_url', 'last_page_url', 'next_page_url', 'prev_page_url']) {
        if (typeof p[key] === 'string') p[key] = (p[key] as string).replace(/page_size=\d+&?/, '').replace(/[?&]$/, '');
      }
    };
    const args = { path: '/breaks', page_size: 7 };
    const keep = { profile: profileWith({ page_links: 'keep-query' }) };
    const pageOnly = { profile: profileWith({ page_links: 'page-only' }) };
    expect((await runCheck(paginationWalk, args, pagedList(20), keep)).findings).toEqual([]);
    expect((await runCheck(paginationWalk, args, pagedList(20, { tamper: dropQuery }), pageOnly)).findings).toEqual([]);
    const dropped = await runCheck(paginationWalk, args, pagedList(20, { tamper: dropQuery }), keep);
    expect(dropped.findings[0]).toMatchObject({ ruleId: 'PAG-LINKS', expected: "first_page_url repeating the request's page_size=7 (profile: page_links keep-query)" });
    const kept = await runCheck(paginationWalk, args, pagedList(20), pageOnly);
    expect(kept.findings[0]).toMatchObject({ ruleId: 'PAG-LINKS', expected: 'first_page_url with page alone (profile: page_links page-only)' });
  });

  it('passes an exactly full last page', async () => {
    expect(await walk(pagedList(20))).toMatchObject({ status: 'passed', findings: [] });
  });

  it('is errored, never passed, when the collection fits on one page (no link followed, no page boundary crossed)', async () => {
    expect(await walk(pagedList(0))).toMatchObject({ status: 'errored', findings: [], reason: 'GET /breaks holds 0 items on one page: the walk needs at least two pages' });
    expect(await walk(pagedList(3), { path: '/users', page_size: 5 })).toMatchObject({ status: 'errored', reason: 'GET /users with page_size=5 holds 3 items on one page: the walk needs at least two pages' });
    // A finding on that one page still makes it failed.
    const broken = await walk(pagedList(3, { tamper: (page) => (page.meta_data.pagination.current_page = 0) }));
    expect(broken.status).toBe('failed');
  });

  it('is errored, never failed under PAG-WALK, when the first page and the plain list both answer 500 or nothing', async () => {
    const crashed = await walk(() => ({ status: 500, body: 'oops' }), { path: '/users', page_size: 5 });
    expect(crashed).toMatchObject({ status: 'errored', findings: [], reason: 'GET /users answered 500 and the plain GET /users answered 500: the walk needs a list the target serves' });
    expect(crashed.requests.map((r) => r.query ?? {})).toEqual([{ page_size: 5 }, {}]);
    expect((await walk(() => ({ error: 'CONNECTION_RESET' }))).status).toBe('errored');
  });

  it('fails PAG-WALK when an item appears on two pages', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 2 && (page.items[0] = { id: 1 }) }));
    expect(rulesOf(outcome.findings)).toEqual(['PAG-WALK']);
    expect(outcome.findings[0]).toMatchObject({ expected: 'every item on exactly one page', actual: 'item 1 on page 1 and again on page 2 (position 1)' });
    expect(outcome.findings[1]).toMatchObject({ expected: '25 distinct items over 3 pages (total)', actual: '24 distinct items' });
  });

  it('fails PAG-WALK when the walk yields fewer items than total', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page) => (page.meta_data.pagination.total = 26) }));
    expect(outcome.findings.some((f) => f.ruleId === 'PAG-WALK' && f.actual === '25 distinct items')).toBe(true);
  });

  it('fails PAG-WALK when a page is not a 2xx', async () => {
    const list = pagedList(25);
    const outcome = await walk((request, index) => (index === 1 ? { status: 500, body: 'oops' } : list(request)));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-WALK', actual: 'status 500' })]);
  });

  it('fails PAG-BLOCK-CONSISTENT when last_page does not match total / per_page', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 1 && (page.meta_data.pagination.last_page = 4) }));
    expect(rulesOf(outcome.findings)).toContain('PAG-BLOCK-CONSISTENT');
    expect(outcome.findings[0]).toMatchObject({ expected: 'last_page = ceil(total 25 / per_page 10) = 3', actual: 'last_page 4' });
  });

  it('fails PAG-BLOCK-CONSISTENT when from/to do not match the page', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 2 && (page.meta_data.pagination.from = 1) }));
    expect(rulesOf(outcome.findings)).toEqual(['PAG-BLOCK-CONSISTENT']);
    expect(outcome.findings[0]!.actual).toBe('from 1, to 20');
  });

  it('fails PAG-BLOCK-CONSISTENT when per_page differs from the page_size sent', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page) => (page.meta_data.pagination.per_page = 10) }), { path: '/breaks', page_size: 5 });
    expect(outcome.findings[0]).toMatchObject({ ruleId: 'PAG-BLOCK-CONSISTENT', expected: 'per_page 5', actual: 'per_page 10' });
  });

  it('fails PAG-LINKS when next_page_url leads to the same page', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 1 && (page.meta_data.pagination.next_page_url = `${ORIGIN}/api/public/breaks?page=1`) }));
    expect(rulesOf(outcome.findings)).toEqual(['PAG-LINKS']);
    expect(outcome.findings).toHaveLength(2);
    expect(outcome.findings[0]).toMatchObject({ expected: 'next_page_url naming page 2' });
    expect(outcome.findings[1]).toMatchObject({ expected: 'next_page_url of page 1 leads to page 2', actual: 'it leads to page 1' });
    expect(outcome.findings[1]!.exchangeIds).toHaveLength(2);
    expect(outcome.requests).toHaveLength(2);
  });

  it('fails PAG-LINKS, without following it, when next_page_url is on another origin', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 1 && (page.meta_data.pagination.next_page_url = 'https://elsewhere.test/api/public/breaks?page=2') }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-LINKS', expected: `next_page_url on ${ORIGIN}`, actual: 'https://elsewhere.test/api/public/breaks?page=2' })]);
    expect(outcome.requests).toHaveLength(1);
  });

  it('fails PAG-LINKS when next_page_url is not an absolute URL', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page, n) => n === 1 && (page.meta_data.pagination.next_page_url = '/breaks?page=2') }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-LINKS', expected: 'next_page_url an absolute URL' })]);
  });

  it('fails PAG-LINKS when next_page_url is set on the last page or prev_page_url on the first', async () => {
    const outcome = await walk(
      pagedList(25, {
        tamper: (page, n) => {
          if (n === 3) page.meta_data.pagination.next_page_url = `${ORIGIN}/api/public/breaks?page=4`;
          if (n === 1) page.meta_data.pagination.prev_page_url = `${ORIGIN}/api/public/breaks?page=0`;
        },
      }),
    );
    expect(rulesOf(outcome.findings)).toEqual(['PAG-LINKS']);
    expect(outcome.findings.map((f) => f.expected)).toEqual(['prev_page_url null on the first page', 'next_page_url null on the last page']);
    expect(outcome.requests).toHaveLength(3);
  });

  it('fails PAG-BLOCK-FIELDS when a field of the block is missing, naming it', async () => {
    const outcome = await walk(pagedList(25, { tamper: (page) => delete page.meta_data.pagination.first_page_url }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-BLOCK-FIELDS' })]);
    expect(outcome.findings[0]!.actual).toMatch(/^pagination\.first_page_url: /);
    expect(outcome.requests).toHaveLength(1);
  });

  it('fails PAG-BLOCK-FIELDS when there is no items array', async () => {
    const outcome = await walk(() => ({ status: 200, json: { message: 'ok' } }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-BLOCK-FIELDS', actual: 'no items array' })]);
  });

  it('fails PAG-PAGE-DEFAULT when the first page is not page 1', async () => {
    const outcome = await walk(pagedList(5, { tamper: (page) => (page.meta_data.pagination.current_page = 0) }));
    expect(outcome.findings[0]).toMatchObject({ ruleId: 'PAG-PAGE-DEFAULT', expected: 'current_page 1 when no page is given', actual: 'current_page 0' });
  });

  it('fails PAG-PAGE-SIZE-DEFAULT, and nothing else, when the default page size is 15', async () => {
    const outcome = await walk(pagedList(40, { defaultPerPage: 15 }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'PAG-PAGE-SIZE-DEFAULT', expected: 'per_page 10 (the default)', actual: 'per_page 15' })]);
  });

  it('stops after max_pages without judging the totals', async () => {
    const outcome = await walk(pagedList(100), { path: '/breaks', max_pages: 2 });
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests).toHaveLength(2);
  });

  it('sends the body with every page', async () => {
    const outcome = await walk(pagedList(15), { path: '/breaks', body: { ids: [1, 2] } });
    expect(outcome.requests.map((r) => r.json)).toEqual([{ ids: [1, 2] }, { ids: [1, 2] }]);
    expect(urlOf(outcome.requests[1]!)).toContain('page=2');
  });

  it('declares a path without / and an unknown key bad arguments, the key with "did you mean"', () => {
    expect(parseArguments(paginationWalk.args, { path: 'breaks' })).toMatchObject({ ok: false, issue: { path: ['path'] } });
    expect(parseArguments(paginationWalk.args, { path: '/breaks', max_page: 2 })).toEqual({
      ok: false,
      issue: { path: ['max_page'], problem: 'unknown argument', hint: 'did you mean "max_pages"?', atKey: true },
    });
  });
});
