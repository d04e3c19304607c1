import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { AnswersWatch } from '../../src/execute/answers-watch.ts';
import { defaultProfile } from '../../src/profile/profile.ts';

let nextId = 1;

/** An answer as the run's client keeps it: the body's text, and its JSON as the bounded parser read it. */
function exchange(spec: { method?: string; path: string; url?: string; requestBody?: unknown; status?: number; body?: unknown; json?: unknown; error?: Exchange['error']; jsonProblem?: string }): Exchange {
  const text = JSON.stringify(spec.body ?? {});
  return {
    id: nextId++,
    startedAt: '2026-11-29T08:00:00.000Z',
    sentAtMs: 0,
    durationMs: 5,
    request: { method: (spec.method ?? 'GET') as Exchange['request']['method'], url: spec.url ?? `https://target.test/api/public${spec.path}`, headers: {}, ...(spec.requestBody === undefined ? {} : { body: JSON.stringify(spec.requestBody) }) },
    response: { status: spec.status ?? 201, headers: { 'content-type': 'application/json' }, body: text, bodyBytes: text.length, bodyTruncated: false, ...(spec.jsonProblem ? { jsonProblem: spec.jsonProblem } : { json: spec.json ?? JSON.parse(text) }) },
    ...(spec.error ? { error: spec.error } : {}),
  };
}

const BREAK = { timesheet_id: 1, break_rule_id: 1, start: '2026-10-01T12:00:00-05:00', end: '2026-10-01T12:01:30-05:00' };
/** A break create's answer with the given duration for a 90 s break. */
const created = (duration: number, id = 7) =>
  exchange({ method: 'POST', path: '/breaks', requestBody: BREAK, body: { items: { id, ...BREAK, duration, created_at: '2026-11-29T08:00:00', updated_at: '2026-11-29T08:00:00' }, message: 'Break created' } });

describe('records/every-answer: every answer judged by the rules an answer shows alone', () => {
  it('fails a break whose duration is whole minutes where its instants are 90 s apart, once per rule and operation with the count', () => {
    const watch = new AnswersWatch(defaultProfile());
    watch.observe(created(90, 1));
    watch.observe(created(60, 2));
    watch.observe(created(60, 3));
    const result = watch.check('clockcheck run --only records/every-answer');
    expect(result.status).toBe('failed');
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ ruleId: 'BRK-DURATION' });
    expect(result.findings[0]!.actual).toMatch(/duration 60; 2 answers like it/);
    expect(result.exchanges.map((e) => e.id)).toHaveLength(2);
    expect(result.rules).toContain('BRK-CREATE-SHAPE');
    expect(result.reason).toMatch(/^3 answers judged/);
  });

  it('passes right answers, and names only the rules some answer showed', () => {
    const watch = new AnswersWatch(defaultProfile());
    watch.observe(created(90));
    const result = watch.check('r');
    expect(result.status).toBe('passed');
    expect(result.rules).toEqual(['JSON-RESPONSE', 'BRK-CREATE-RESPONSE', 'BRK-CREATE-SHAPE', 'BRK-DATETIME-FORMAT', 'BRK-TIMESTAMP-FORMAT', 'BRK-DURATION']);
  });

  it('leaves out answers that did not complete, plain HTTP, undocumented paths and bodies past the parser bounds; with none left it is skipped', () => {
    const watch = new AnswersWatch(defaultProfile());
    watch.observe({ ...created(60), error: { code: 'BODY_TIMEOUT', message: 'stalled' } });
    watch.observe(exchange({ path: '/breaks', url: 'http://target.test/api/public/breaks', status: 200, body: { items: 'x' } }));
    watch.observe(exchange({ path: '/clockcheck-no-such-resource', status: 404, body: 'nope' }));
    watch.observe(exchange({ path: '/breaks', status: 200, jsonProblem: 'nested deeper than 64 levels' }));
    expect(watch.check('r')).toMatchObject({ status: 'skipped' });
  });

  it('reads an ID beyond 2^53 the run kept exact (a BigInt) as grade reads a recording, never a crash', () => {
    const watch = new AnswersWatch(defaultProfile());
    const big = created(90, 9);
    const body = big.response!.body.replace('"id":9', `"id":${2n ** 60n}`);
    watch.observe({ ...big, response: { ...big.response!, body, json: { items: { ...BREAK, id: 2n ** 60n, duration: 90, created_at: '2026-11-29T08:00:00', updated_at: '2026-11-29T08:00:00' }, message: 'Break created' } } });
    expect(watch.check('r').status).toBe('passed');
  });
});
