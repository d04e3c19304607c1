import { setTimeout as delay } from 'node:timers/promises';
import { retainExchange } from '../client/retained.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RecordCompany, RunCleanup } from '../report/model.ts';
import type { OpenRun } from './open.ts';
import { InternalError } from '../errors.ts';
import { formatDuration } from '../duration.ts';

/** §4.5: the one operation that removes something a run makes. */
export const UNSUBSCRIBE_PATH = '/webhooks/subscription/unsubscribe';

/** The cleanup's call gets at most this long once its turn at the target's rate limit comes; the run's reports are written then, whatever it waits for. */
export const CLEANUP_DEADLINE_MS = 10_000;

/** What the spec gives no delete for, said once where a cleanup names what it left. */
const PERMANENT = 'the users, timesheets, breaks and schedules it created stay (the spec has no delete for them)';

/**
 * After a signal interrupted the run: one attempt to remove what the run made and the API can
 * remove: the webhook subscription it made and had not yet unsubscribed (§4.5's unsubscribe). A
 * second signal skips the attempt, or cuts it short; it waits for its turn at the target's rate
 * limit and CLEANUP_DEADLINE_MS more at most. The
 * cleanup's calls are paced like the run's and are the only ones sent after the signal.
 * Returns undefined when no signal interrupted the run; else what it did, also in the run's notes.
 */
export async function cleanUpAfterSignal(run: OpenRun): Promise<RunCleanup | undefined> {
  const signal = run.limits.interruption?.signal;
  if (!signal) return undefined;
  const cleanup = await cleanUp(run);
  run.notes.push(`interrupted by ${signal} after ${run.transport.made - cleanup.exchanges.length} requests: nothing of the run was sent after it, the checks under way and after it were not run; cleanup: ${cleanup.detail}`);
  return cleanup;
}

async function cleanUp(run: OpenRun): Promise<RunCleanup> {
  const interruption = run.limits.interruption!;
  if (!interruption.signal) throw new InternalError('cleanUp without a signal');
  const left = run.ledger.leftSubscriptions;
  if (left.length === 0) return { outcome: 'nothing', detail: `nothing it made can be removed: ${PERMANENT}`, exchanges: [] };
  if (interruption.cleanupSkipped) return skipped(interruption.signal, []);
  const sent: Exchange[] = [];
  const removed: string[] = [];
  // Each company's subscription the run left, with that company's token (the webhook check's second company subscribes its own).
  for (const company of left) {
    const whose = company === 'second' ? "the second company's webhook subscription" : 'the webhook subscription';
    const deadlineMs = run.pacer.estimateMs(1) + CLEANUP_DEADLINE_MS;
    const outcome = await unsubscribeOnce(run, company, sent, deadlineMs);
    if (outcome === 'skipped') return skipped(interruption.signal, sent);
    const failed = (why: string): RunCleanup => ({ outcome: 'failed', detail: `${[...removed, why].join('; ')}; ${PERMANENT}`, exchanges: sent });
    if (outcome === 'deadline') return failed(`the unsubscribe got no answer within ${formatDuration(deadlineMs)}: ${whose} the run made may be left`);
    if (outcome instanceof Error) return failed(`the unsubscribe could not be sent (${outcome.message}): ${whose} the run made is left`);
    const status = outcome.response?.status ?? 0;
    if (status < 200 || status >= 300) return failed(`DELETE ${UNSUBSCRIBE_PATH} → ${outcome.response ? status : (outcome.error?.code ?? 'no answer')}: ${whose} the run made is left`);
    run.ledger.remove('webhook', company);
    removed.push(`removed ${whose} the run made (DELETE ${UNSUBSCRIBE_PATH} → ${status})`);
  }
  return { outcome: 'removed', detail: `${removed.join('; ')}; ${PERMANENT}`, exchanges: sent };
}

/** One unsubscribe of the cleanup, with the company's token: its answer, or what ended the wait for it. */
async function unsubscribeOnce(run: OpenRun, company: RecordCompany, sent: Exchange[], deadlineMs: number): Promise<Exchange | Error | 'skipped' | 'deadline'> {
  const interruption = run.limits.interruption!;
  const unsubscribe = run.transport.sendCleanup({ method: 'DELETE', path: UNSUBSCRIBE_PATH, ...(company === 'second' ? { auth: 'second-token' as const } : {}) }).then((exchange) => {
    sent.push(retainExchange(exchange));
    return exchange;
  });
  unsubscribe.catch(() => {}); // a cleanup cut short is not waited for, nor its failure
  return Promise.race([unsubscribe, interruption.cleanupSkippedBySignal.then(() => 'skipped' as const), delay(deadlineMs, 'deadline' as const, { ref: false })]).catch((error: unknown) => error as Error);
}

function skipped(signal: string, sent: readonly Exchange[]): RunCleanup {
  return { outcome: 'skipped', detail: `a second ${signal} skipped the cleanup: the webhook subscription the run made is left (DELETE ${UNSUBSCRIBE_PATH} removes it); ${PERMANENT}`, exchanges: sent };
}
