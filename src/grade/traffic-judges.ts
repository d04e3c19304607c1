import type { Profile } from '../profile/profile.ts';
import { isSuccess, judged, statusOf, type Judgement } from './judgement.ts';
import type { Observed } from './traffic.ts';

/** How far apart a HEAD and the GET it is compared with may be (ms): further, the resource may have changed. */
const PARITY_SPAN_MS = 60_000;

/** HEAD-PARITY (§1): a HEAD answers the status the nearest GET of the same URL with the same credential got. */
export function headParityJudgements(observed: readonly Observed[]): Judgement[] {
  const gets = new Map<string, Observed[]>();
  const key = (o: Observed) => `${o.exchange.request.url} ${o.credential.form} ${o.credential.fingerprint ?? ''}`;
  const definite = (o: Observed) => { const s = statusOf(o); return s !== null && s !== 429; };
  for (const o of observed) if (o.exchange.request.method === 'GET' && definite(o)) gets.set(key(o), [...(gets.get(key(o)) ?? []), o]);
  const out: Judgement[] = [];
  for (const head of observed) {
    if (head.exchange.request.method !== 'HEAD' || !definite(head)) continue;
    const nearest = (gets.get(key(head)) ?? []).filter((g) => Math.abs(g.startMs - head.startMs) <= PARITY_SPAN_MS).sort((a, b) => Math.abs(a.startMs - head.startMs) - Math.abs(b.startMs - head.startMs))[0];
    if (!nearest) continue;
    const [h, g] = [statusOf(head), statusOf(nearest)];
    out.push({ ruleId: 'HEAD-PARITY', ok: h === g, expected: `HEAD answered as GET was (status ${g})`, actual: `status ${h}`, exchangeIds: [head.exchange.id, nearest.exchange.id] });
  }
  return out;
}

/**
 * AUTH-HEADER-RAW (§5.2): the token sent raw (`Authorization: <token>`) is served; it fails when a
 * token refused raw was served with a scheme (`Bearer <token>`) in the same recording.
 */
export function rawTokenJudgements(observed: readonly Observed[]): Judgement[] {
  const servedWithScheme = new Set(observed.filter((o) => o.credential.form === 'scheme' && isSuccess(statusOf(o))).map((o) => o.credential.fingerprint));
  const out: Judgement[] = [];
  for (const o of observed) {
    if (o.credential.form !== 'raw' || o.operation === undefined) continue;
    const status = statusOf(o);
    if (isSuccess(status)) out.push(judged(o, 'AUTH-HEADER-RAW', true, 'the raw token accepted', `status ${status}`));
    else if ((status === 401 || status === 403) && servedWithScheme.has(o.credential.fingerprint)) {
      out.push(judged(o, 'AUTH-HEADER-RAW', false, 'the raw token accepted (the same token was served with a scheme)', `status ${status}`));
    }
  }
  return out;
}

/** Whether the target counted the call for certain: it carried a token and was answered, not with 401, 429 or a 5xx. */
function counted(o: Observed): boolean {
  const status = statusOf(o);
  return o.credential.fingerprint !== null && status !== null && status !== 401 && status !== 429 && status < 500;
}

/**
 * RATE-LIMIT-CAP (§8): no one-minute window serves more than the limit's calls with one token. A
 * window is certain only where the calls lie whole inside it (from the first one's start to the last
 * one's end, as the recording timed them), wherever the target counted each. Judged where the
 * recording went beyond the limit in such a window (served or refused); below that it shows nothing.
 */
export function rateLimitJudgements(observed: readonly Observed[], profile: Profile): Judgement[] {
  const { limit, window } = profile.rate_limit;
  const byToken = new Map<string, Observed[]>();
  for (const o of observed) if (o.credential.fingerprint !== null && statusOf(o) !== null) byToken.set(o.credential.fingerprint, [...(byToken.get(o.credential.fingerprint) ?? []), o]);
  const out: Judgement[] = [];
  for (const calls of byToken.values()) {
    const verdict = capVerdict(calls, limit, window);
    if (verdict) out.push(verdict);
  }
  return out;
}

/** The first window of one token's calls (sorted by start) that served more than the limit, else one that went beyond it and held; null when none went beyond. */
function capVerdict(calls: readonly Observed[], limit: number, window: number): Judgement | null {
  let reached: Observed[] | null = null;
  let k = 0;
  for (let i = 0; i < calls.length; i++) {
    const until = calls[i]!.startMs + window;
    k = Math.max(k, i);
    while (k < calls.length && calls[k]!.startMs < until) k++;
    if (k - i <= limit) continue;
    const inside = calls.slice(i, k).filter((c) => c.endMs < until);
    if (inside.length <= limit) continue;
    const served = inside.filter(counted);
    if (served.length > limit) {
      const last = Math.max(...inside.map((c) => c.endMs));
      return { ruleId: 'RATE-LIMIT-CAP', ok: false, expected: `at most ${limit} calls served within ${window / 1000} s with one token`, actual: `${served.length} served between ${new Date(calls[i]!.startMs).toISOString()} and ${new Date(last).toISOString()}`, exchangeIds: [served[0]!.exchange.id, served[limit]!.exchange.id] };
    }
    reached ??= inside;
  }
  return reached && { ruleId: 'RATE-LIMIT-CAP', ok: true, expected: `at most ${limit} calls served within ${window / 1000} s`, actual: `${reached.length} calls in one window, ${reached.filter(counted).length} served`, exchangeIds: [reached[0]!.exchange.id] };
}
