import { describe, expect, it } from 'vitest';
import type { Exchange, HttpMethod } from '../../src/client/exchange.ts';
import { ledgerText } from '../../src/report/ledger-text.ts';
import type { CheckResult, CreatedResource, RunReport } from '../../src/report/model.ts';
import { sampleReport } from './sample-report.ts';

const API = 'https://127.0.0.1:8443/api/public';

function exchange(id: number, method: HttpMethod, path: string, status: number, direction?: 'inbound'): Exchange {
  return {
    id,
    ...(direction ? { direction } : {}),
    startedAt: new Date(id * 1000).toISOString(),
    sentAtMs: id * 1000,
    durationMs: 5,
    request: { method, url: `${API}${path}`, headers: {} },
    response: { status, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false },
  };
}

/** The sample report with `created` as its ledger and one check holding `exchanges`. */
function reportWith(created: ReadonlyArray<[CreatedResource['kind'], number]>, exchanges: readonly Exchange[] = []): RunReport {
  const report = sampleReport();
  const check: CheckResult = { ...report.checks[0]!, id: 'webhooks/unsubscribe', exchanges };
  const createdResources = created.flatMap(([kind, n]) => Array.from({ length: n }, (_, i) => ({ kind, id: String(i + 1), checkId: 'x' })));
  return { ...report, checks: [check, check], createdResources };
}

describe('ledgerText', () => {
  it('counts what the run created and left on the target, kind by kind, and names what it removed', () => {
    const text = ledgerText(reportWith([['schedule', 3], ['user', 14], ['break', 40], ['timesheet', 9], ['webhook', 1]], [exchange(1, 'POST', '/webhooks/subscription', 201), exchange(2, 'DELETE', '/webhooks/subscription/unsubscribe', 200)]));
    expect(text).toBe('created on the target and left there (the spec has no delete): 14 users, 9 timesheets, 40 breaks, 3 schedules; removed: the webhook subscription');
  });

  it("says how many of a kind are the second company's (the isolation checks', the webhook check's)", () => {
    const report = reportWith([['user', 3], ['timesheet', 1]]);
    const ids = ['isolation/companies (in the second company)', 'webhooks/notifications (in the second company)', 'users/create-valid', 'isolation/companies (in the second company)'];
    const text = ledgerText({ ...report, createdResources: report.createdResources.map((r, i) => ({ ...r, checkId: ids[i]! })) });
    expect(text).toBe('created on the target and left there (the spec has no delete): 3 users (2 in the second company), 1 timesheet (in the second company); removed nothing');
  });

  it('says one of a kind in the singular, and a subscription the run made last as left there', () => {
    const text = ledgerText(reportWith([['user', 1], ['webhook', 2]], [exchange(1, 'DELETE', '/webhooks/subscription/unsubscribe', 200), exchange(2, 'POST', '/webhooks/subscription', 201)]));
    expect(text).toBe('created on the target and left there (the spec has no delete): 1 user, the webhook subscription; removed: the webhook subscription');
  });

  it('counts a removal only when the target answered it 2xx, and never a delivery the sink received', () => {
    const text = ledgerText(reportWith([], [exchange(1, 'DELETE', '/webhooks/subscription/unsubscribe', 404), exchange(2, 'DELETE', '/hook', 200, 'inbound')]));
    expect(text).toBe('left nothing it created on the target; removed nothing');
  });

  it('names a removal outside the spec by its request', () => {
    expect(ledgerText(reportWith([['schedule', 2]], [exchange(3, 'DELETE', '/schedules/9', 204)]))).toBe(
      'created on the target and left there (the spec has no delete): 2 schedules; removed: DELETE /api/public/schedules/9',
    );
  });
});
