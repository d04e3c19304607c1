import { formatDuration } from '../duration.ts';
import type { Profile } from '../profile/profile.ts';
import type { Exchange } from '../client/exchange.ts';
import { CheckOutcome } from './check-outcome.ts';
import { certainlyCounted, outcomeOf } from './window-count.ts';

/**
 * Body bytes a burst call keeps: 1 KiB. A burst is judged on statuses, headers and timing, and a 429's
 * body on its first kilobyte (§7's "Too Many Attempts" is a short message); a burst of a few hundred
 * calls then holds, and its check reports, well under a megabyte of bodies whatever the target sends.
 */
export const BURST_BODY_BYTES = 1024;

/** A burst as the rate-limit checks see it: its calls, the ones with no answer, and how long it took. */
export interface BurstOutcome {
  readonly exchanges: readonly Exchange[];
  /** Calls sent that got no response at all. */
  readonly unanswered: number;
  /** Why the burst stopped before its end (its first call that stalled or broke a bound), or why it was not sent. */
  readonly failure?: string;
}

/** `: <why the burst stopped>`, or nothing for a burst that ran to its end. */
export function stopped(burst: BurstOutcome): string {
  return burst.failure === undefined ? '' : `: ${burst.failure}`;
}

export function burstSpan(burst: BurstOutcome): { readonly from: number; readonly to: number; readonly ms: number } {
  const from = Math.min(...burst.exchanges.map((e) => e.sentAtMs));
  const to = Math.max(...burst.exchanges.map((e) => e.sentAtMs + e.durationMs));
  return { from, to, ms: to - from };
}

/** "200 ×60, 429 ×4": the answers of some calls, by status (or transport error). */
export function histogram(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const e of exchanges) {
    const key = e.response ? String(e.response.status) : (e.error?.code ?? 'no response');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

const RATE_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy'];

function headerNotes(label: string, exchange: Exchange | undefined): string[] {
  if (!exchange?.response) return [];
  const shown = RATE_HEADERS.filter((h) => exchange.response!.headers[h] !== undefined).map((h) => `${h}: ${exchange.response!.headers[h]}`);
  return shown.length > 0 ? [`${label} (exchange ${exchange.id}): ${shown.join('; ')}`] : [];
}

/**
 * §8 and §7 at the boundary: after a window with no calls, `paced` calls of the checks (each judged
 * by its own check) and then a concurrent burst that crosses the limit by K calls. Exactly `limit`
 * are served (more: RATE-LIMIT-CAP; fewer: RATE-LIMIT-QUOTA) and the rest of the burst gets 429
 * (anything else: RATE-LIMIT-STATUS); with the profile's `rate_limit.body_text`, each 429 body says
 * it (RATE-LIMIT-BODY). A paced call counts as served when the limiter certainly counted it
 * (certainlyCounted); one that may or may not have counted only keeps RATE-LIMIT-QUOTA from
 * failing. The window's calls must fit well inside one window, or no verdict is drawn.
 */
export function judgeBoundary(
  burst: BurstOutcome,
  profile: Profile,
  outcome: CheckOutcome,
  /** What emptied the window before the burst, for the note; default: a window without calls. */
  after?: string,
  paced: readonly Exchange[] = [],
): ReturnType<CheckOutcome['result']> {
  const { limit, window: windowMs, body_text: bodyText } = profile.rate_limit;
  const calls = burst.exchanges;
  const counted = paced.filter(certainlyCounted);
  const pacedLimited = paced.filter((e) => outcomeOf(e) === 'limited');
  const unsure = paced.length - counted.length - pacedLimited.length;
  outcome.keep([...paced.slice(0, 1), ...pacedLimited.slice(0, 1), ...paced.slice(-1), ...calls]);
  if (calls.length === 0) return outcome.errored(`none of the ${burst.unanswered} calls of the burst got a response${stopped(burst)}`);
  const burstOnly = burstSpan(burst);
  const span = paced.length === 0 ? burstOnly : { ms: burstOnly.to - Math.min(burstOnly.from, ...paced.map((e) => e.sentAtMs)) };
  const sent = calls.length + burst.unanswered;
  const opening = after ?? `after ${formatDuration(windowMs)} without calls`;
  if (paced.length > 0) {
    const unsureText = unsure > 0 ? `, ${unsure} that may not count (no token, 401, 5xx or no answer)` : '';
    outcome.note(`${opening}, ${paced.length} calls of the paced checks first (${histogram(paced)}${unsureText}), then ${sent} calls at once; all within ${formatDuration(span.ms)}; the burst: ${histogram(calls)}`);
  } else {
    outcome.note(`${sent} calls sent at once ${opening}; answered within ${formatDuration(span.ms)}: ${histogram(calls)}`);
  }
  const served = calls.filter((e) => outcomeOf(e) === 'served');
  const limited = calls.filter((e) => outcomeOf(e) === 'limited');
  const other = calls.filter((e) => outcomeOf(e) === 'other');
  for (const note of [...headerNotes('last call served', served.at(-1)), ...headerNotes('first 429', limited[0])]) outcome.note(note);
  if (span.ms >= windowMs) {
    return outcome.errored(`the window's calls took ${formatDuration(span.ms)}, not less than the ${formatDuration(windowMs)} window, so they do not show one window's count`);
  }
  if (served.length === 0 && limited.length === 0) {
    return outcome.errored(`no call of the burst was served or limited (${histogram(calls)}): the probe ${profile.rate_limit.probe_path} does not answer 2xx`);
  }
  const total = sent + paced.length;
  const inAll = counted.length + served.length;
  const servedText = paced.length === 0 ? `${served.length} served` : `${counted.length} paced calls counted and ${served.length} of the burst served`;
  if (inAll > limit) {
    const evidence = [...counted, ...served];
    outcome.fail('RATE-LIMIT-CAP', `at most ${limit} of ${total} calls served within one ${formatDuration(windowMs)} window`, `${servedText} within ${formatDuration(span.ms)}`, [...new Set([evidence[limit]!, evidence.at(-1)!])]);
  }
  if (inAll + unsure + burst.unanswered < limit && limited.length + other.length + pacedLimited.length > 0) {
    const refused = [...pacedLimited, ...limited, ...other].sort((a, b) => a.sentAtMs - b.sentAtMs);
    outcome.fail('RATE-LIMIT-QUOTA', `${limit} of ${total} calls served after ${formatDuration(windowMs)} without calls`, `only ${servedText} (${histogram([...paced, ...calls])})`, [refused[0]!]);
  }
  if (other.length > 0) {
    outcome.fail('RATE-LIMIT-STATUS', `each call served (2xx) or, beyond the limit of ${limit}, refused with 429`, histogram(other), other.slice(0, 3));
  }
  if (bodyText !== undefined) {
    const lacking = limited.filter((e) => !(e.response?.body ?? '').toLowerCase().includes(bodyText.toLowerCase()));
    // A body cut before its end might say it further on: only whole bodies are judged.
    const silent = lacking.filter((e) => !e.response?.bodyTruncated);
    const unseen = lacking.length - silent.length;
    if (unseen > 0) outcome.note(`${unseen} 429 bodies longer than the ${BURST_BODY_BYTES} bytes a burst call keeps do not say "${bodyText}" within them: not judged`);
    if (silent.length > 0) outcome.fail('RATE-LIMIT-BODY', `a 429 body that says "${bodyText}" (profile)`, `${silent.length} of ${limited.length} do not, e.g. ${JSON.stringify((silent[0]!.response?.body ?? '').slice(0, 80))}`, [silent[0]!]);
  }
  if (!outcome.failed && burst.unanswered > 0) return outcome.errored(`${burst.unanswered} of ${sent} calls got no response${stopped(burst)}`);
  return outcome.result();
}
