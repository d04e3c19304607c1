import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/needs/ledger.ts';

describe('the run ledger of webhook subscriptions, per company', () => {
  const subscription = (checkId: string) => ({ kind: 'webhook' as const, id: 'subscription', checkId });

  it("knows each company's subscription apart: one company's unsubscribe leaves the other's made and not removed", () => {
    const ledger = new Ledger();
    ledger.add(subscription('webhooks/notifications'));
    ledger.add(subscription('webhooks/notifications (in the second company)'), 'second');
    expect(ledger.leftSubscriptions).toEqual(['first', 'second']);
    ledger.remove('webhook');
    expect(ledger.leftSubscriptions).toEqual(['second']);
    expect(ledger.leftSubscription).toBe(true);
    ledger.remove('webhook', 'second');
    expect(ledger.leftSubscriptions).toEqual([]);
    expect(ledger.leftSubscription).toBe(false);
  });

  it('counts a subscription made again after its unsubscribe as left', () => {
    const ledger = new Ledger();
    ledger.add(subscription('a'), 'second');
    ledger.remove('webhook', 'second');
    ledger.add(subscription('b'), 'second');
    expect(ledger.leftSubscriptions).toEqual(['second']);
    expect(ledger.created.map((r) => r.checkId)).toEqual(['a', 'b']);
  });
});
