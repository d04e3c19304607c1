import { setTimeout as delay } from 'node:timers/promises';
import { retainExchange } from '../client/retained.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RunCleanup } from '../report/model.ts';
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
  if (!run.ledger.leftSubscription) return { outcome: 'nothing', detail: `nothing it made can be removed: ${PERMANENT}`, exchanges: [] };
  if (interruption.cleanupSkipped) return skipped(interruption.signal, []);
  const sent: Exchange[] = [];
  const unsubscribe = run.transport.sendCleanup({ method: 'DELETE', path: UNSUBSCRIBE_PATH }).then((exchange) => {
    sent.push(retainExchange(exchange));
    return exchange;
  });
  unsubscribe.catch(() => {}); // a cleanup cut short is not waited for, nor its failure
  const deadlineMs = run.pacer.estimateMs(1) + CLEANUP_DEADLINE_MS;
  const outcome = await Promise.race([unsubscribe, interruption.cleanupSkippedBySignal.then(() => 'skipped' as const), delay(deadlineMs, 'deadline' as const, { ref: false })]).catch(
    (error: unknown) => error as Error,
  );
  if (outcome === 'skipped') return skipped(interruption.signal, sent);
  if (outcome === 'deadline') return { outcome: 'failed', detail: `the unsubscribe got no answer within ${formatDuration(deadlineMs)}: the webhook subscription the run made may be left; ${PERMANENT}`, exchanges: sent };
  if (outcome instanceof Error) return { outcome: 'failed', detail: `the unsubscribe could not be sent (${outcome.message}): the webhook subscription the run made is left; ${PERMANENT}`, exchanges: sent };
  const status = outcome.response?.status ?? 0;
  if (status >= 200 && status < 300) {
    run.ledger.remove('webhook');
    return { outcome: 'removed', detail: `removed the webhook subscription the run made (DELETE ${UNSUBSCRIBE_PATH} → ${status}); ${PERMANENT}`, exchanges: sent };
  }
  const answer = outcome.response ? `${status}` : (outcome.error?.code ?? 'no answer');
  return { outcome: 'failed', detail: `DELETE ${UNSUBSCRIBE_PATH} → ${answer}: the webhook subscription the run made is left; ${PERMANENT}`, exchanges: sent };
}

function skipped(signal: string, sent: readonly Exchange[]): RunCleanup {
  return { outcome: 'skipped', detail: `a second ${signal} skipped the cleanup: the webhook subscription the run made is left (DELETE ${UNSUBSCRIBE_PATH} removes it); ${PERMANENT}`, exchanges: sent };
}
