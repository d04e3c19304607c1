import { describe, expect, it } from 'vitest';
import { operationFor } from '../../src/contract/operations.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { attributeRefusal } from '../../src/properties/_internals/attribute-refusal.ts';

const schedule = operationFor('POST', '/schedules')!.request!;
const user = operationFor('POST', '/users')!.request!;
const base = { assigned_by: 1, title: 'Shift', repeat: false, all_day: false, color: 'blue', user_ids: [1], start_date: '03/10/2026', end_date: '03/10/2026', start_time: '09:00', end_time: '17:00' };

/** A target that refuses what `refuses` says, and records what it was sent. */
function target(refuses: (body: Record<string, unknown>) => boolean) {
  const sent: Record<string, unknown>[] = [];
  let id = 100;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const body = request.json as Record<string, unknown>;
    sent.push(body);
    const status = refuses(body) ? 422 : 201;
    return { id: ++id, startedAt: '', sentAtMs: 0, durationMs: 1, request: { method: 'POST', url: 'https://t.test/api/public/x', headers: {}, body: JSON.stringify(body) }, response: { status, headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false, json: {} } } as Exchange;
  };
  return { send, sent };
}

describe('a refused valid case, narrowed to the value the refusal follows', () => {
  it('names the rule of the one field whose value the refusal follows (23:59), not the family\'s first rule', async () => {
    const { send, sent } = target((b) => b.end_time === '23:59');
    const refused = { label: 'valid', payload: { ...base, title: 'Night', start_date: '02/27/2026', end_date: '02/27/2026', end_time: '23:59' } };
    const found = await attributeRefusal({ refused, baseline: { label: 'valid', payload: base }, model: schedule, send, request: { method: 'POST', path: '/schedules' }, fallback: () => 'SCH-DATE-FORMAT' }, 'America/Chicago');
    expect(found).toMatchObject({ fields: ['end_time'], rule: 'SCH-TIME-FORMAT' });
    // Minimal pairs: each variant differs from the refused case in the fields set back, nothing else.
    for (const body of sent) expect(body.title).toBe('Night');
  });

  it('moves the fields of one format together (both dates on February 29th), and the conditional ones as a group', async () => {
    const { send } = target((b) => String(b.start_date).startsWith('02/29') || String(b.end_date).startsWith('02/29'));
    const refused = { label: 'valid', payload: { ...base, start_date: '02/29/2028', end_date: '02/29/2028' } };
    expect(await attributeRefusal({ refused, baseline: { label: 'valid', payload: base }, model: schedule, send, request: { method: 'POST', path: '/schedules' }, fallback: () => null }, 'America/Chicago')).toMatchObject({ fields: ['start_date', 'end_date'], rule: 'SCH-DATE-FORMAT' });
  });

  it('names the conditional rule when the refused case left a field out that the accepted one had', async () => {
    const { send } = target((b) => b.all_day === true && b.start_time === undefined);
    const refused = { label: 'valid', payload: { ...base, all_day: true, start_time: undefined, end_time: undefined } };
    delete refused.payload.start_time;
    delete refused.payload.end_time;
    const found = await attributeRefusal({ refused, baseline: { label: 'valid', payload: base }, model: schedule, send, request: { method: 'POST', path: '/schedules' }, fallback: () => null }, 'America/Chicago');
    expect(found?.rule).toBe('SCH-TIMES-UNLESS-ALL-DAY');
  });

  it('without an accepted case, tries plain valid values; the password at the minimum names the length rule', async () => {
    const { send } = target((b) => typeof b.password === 'string' && b.password.length === 6);
    const refused = { label: 'valid', payload: { first_name: 'A', last_name: 'B', email: 'a@b.test', password: 'Aa1!xy', role_id: 3 } };
    expect(await attributeRefusal({ refused, baseline: null, model: user, send, request: { method: 'POST', path: '/users' }, fallback: () => null }, 'America/Chicago')).toMatchObject({ fields: ['password'], rule: 'USR-PASSWORD-LENGTH' });
  });

  it('says nothing when no single field or group explains the refusal, within its request budget', async () => {
    const { send, sent } = target(() => true);
    const refused = { label: 'valid', payload: { ...base, title: 'X', start_time: '00:00', end_time: '23:59', start_date: '02/29/2028', end_date: '02/29/2028' } };
    expect(await attributeRefusal({ refused, baseline: { label: 'valid', payload: base }, model: schedule, send, request: { method: 'POST', path: '/schedules' }, fallback: () => null }, 'America/Chicago')).toBeNull();
    expect(sent.length).toBeLessThanOrEqual(10);
  });
});
