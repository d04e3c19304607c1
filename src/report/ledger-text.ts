import type { Exchange } from '../client/exchange.ts';
import { IN_SECOND_COMPANY, type CreatedResource, type RunReport } from './model.ts';
import { pathOf } from './_internals/path-of.ts';

/** The records a run creates and cannot delete, in the order the line names them, each with its singular and plural. */
const KINDS: ReadonlyArray<readonly [CreatedResource['kind'], string, string]> = [
  ['user', 'user', 'users'],
  ['timesheet', 'timesheet', 'timesheets'],
  ['break', 'break', 'breaks'],
  ['schedule', 'schedule', 'schedules'],
];

const WEBHOOKS = /\/webhooks(\/|\?|$)/;

/**
 * One line for the end of a run: what it created on the target and left there (the spec has no
 * delete for users, timesheets, breaks or schedules), and what it removed, e.g. `created on the
 * target and left there (the spec has no delete): 14 users, 9 timesheets, 40 breaks, 3 schedules;
 * removed: the webhook subscription`. A subscription the run removed after creating it is not left.
 */
export function ledgerText(report: RunReport): string {
  const writes = successfulWrites(report);
  const removals = [...new Set(writes.filter((e) => e.request.method === 'DELETE').map(removedThing))];
  // A company has one subscription: the run left one when its last webhook write was a subscribe.
  const lastWebhookWrite = writes.filter((e) => WEBHOOKS.test(pathOf(e.request.url))).at(-1);
  const subscribed = report.createdResources.some((r) => r.kind === 'webhook') && lastWebhookWrite?.request.method !== 'DELETE';
  const left = KINDS.flatMap(([kind, one, many]) => {
    const ofKind = report.createdResources.filter((r) => r.kind === kind);
    // The second company's (the isolation checks', the webhook check's) are said apart: the user looks for them there.
    const second = ofKind.filter((r) => r.checkId.endsWith(IN_SECOND_COMPANY)).length;
    const count = ofKind.length;
    return count === 0 ? [] : [`${count} ${count === 1 ? one : many}${second > 0 ? ` (${second === count ? (count === 1 ? 'in' : 'all in') : `${second} in`} the second company)` : ''}`];
  });
  if (subscribed) left.push('the webhook subscription');
  const created = left.length > 0 ? `created on the target and left there (the spec has no delete): ${left.join(', ')}` : 'left nothing it created on the target';
  return `${created}; ${removals.length > 0 ? `removed: ${removals.join(', ')}` : 'removed nothing'}`;
}

/** The POSTs and DELETEs the run sent (its checks, an interrupted run's cleanup) that the target answered 2xx, once each, in the order sent. */
function successfulWrites(report: RunReport): Exchange[] {
  const byId = new Map<number, Exchange>();
  for (const exchanges of [...report.checks.map((c) => c.exchanges), report.cleanup?.exchanges ?? []]) {
    for (const exchange of exchanges) {
      const status = exchange.response?.status ?? 0;
      const write = exchange.request.method === 'POST' || exchange.request.method === 'DELETE';
      if (exchange.direction !== 'inbound' && write && status >= 200 && status < 300) byId.set(exchange.id, exchange);
    }
  }
  return [...byId.values()].sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
}

/** What a DELETE removed: the webhook subscription (§4.5), else the request itself. */
function removedThing(exchange: Exchange): string {
  const path = pathOf(exchange.request.url);
  return WEBHOOKS.test(path) ? 'the webhook subscription' : `DELETE ${path}`;
}
