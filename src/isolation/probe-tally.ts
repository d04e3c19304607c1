import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import type { RuleId } from '../contract/rules.ts';
import type { Finding } from '../report/model.ts';
import { readId, type RecordId } from '../records/created-id.ts';
import { locateItems } from '../records/locate.ts';
import { recordReading } from '../records/record-reading.ts';
import type { Profile } from '../profile/profile.ts';
import type { IsolationCheckId } from './isolation-check.ts';

/** What the probes of one check judged, both ways: verdicts, findings, the probes skipped and why, the exchanges. */
export interface CheckTally {
  judged: number;
  /** The rules a verdict was given on (a rule of the check with none is left out of its result). */
  readonly rules: Set<RuleId>;
  readonly findings: Finding[];
  readonly skipped: string[];
  readonly exchanges: Exchange[];
}

/** The tallies of the isolation checks, filled by the probes (cross-*.ts). */
export class IsolationTally {
  readonly checks: Record<IsolationCheckId, CheckTally> = {
    'isolation/lists': { judged: 0, rules: new Set(), findings: [], skipped: [], exchanges: [] },
    'isolation/items': { judged: 0, rules: new Set(), findings: [], skipped: [], exchanges: [] },
    'isolation/references': { judged: 0, rules: new Set(), findings: [], skipped: [], exchanges: [] },
  };

  /** One verdict of `ruleId` on `exchanges`: a finding when not `ok`. */
  judge(id: IsolationCheckId, ruleId: RuleId, ok: boolean, expected: string, actual: string, exchanges: readonly Exchange[]): void {
    const tally = this.checks[id];
    tally.judged++;
    tally.rules.add(ruleId);
    for (const exchange of exchanges) if (!tally.exchanges.some((e) => e.id === exchange.id)) tally.exchanges.push(retainExchange(exchange));
    if (!ok) tally.findings.push({ ruleId, expected, actual, exchangeIds: exchanges.map((e) => e.id) });
  }

  /** A probe that could not be made soundly, and why (the check says so; it is skipped if nothing else was judged). */
  skip(id: IsolationCheckId, why: string): void {
    if (!this.checks[id].skipped.includes(why)) this.checks[id].skipped.push(why);
  }
}

/** The status of an exchange, or its transport error's code. */
export function statusText(exchange: Exchange): string {
  return exchange.response ? String(exchange.response.status) : (exchange.error?.code ?? 'no answer');
}

export const isSuccess = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && status >= 200 && status < 300;
};

export const isRefusal = (exchange: Exchange): boolean => {
  const status = exchange.response?.status;
  return status !== undefined && status >= 400 && status < 500;
};

/** What a list answer shows: its items' IDs, the total it states (§2.5's block, else a top-level `total`), whether the page holds the whole list. */
export interface ListView {
  readonly ids: readonly RecordId[];
  readonly items: readonly unknown[];
  readonly total: number | undefined;
  readonly complete: boolean;
}

export function listView(exchange: Exchange, profile: Profile, pageSize: number): ListView | undefined {
  const json = exchange.response?.json;
  const items = locateItems(json, recordReading(profile));
  if (items === undefined) return undefined;
  const ids = items.map((item) => (item !== null && typeof item === 'object' ? readId((item as { id?: unknown }).id) : null)).filter((id): id is RecordId => id !== null);
  const block = (json as { meta_data?: { pagination?: { total?: unknown } }; total?: unknown } | undefined) ?? {};
  const stated = block.meta_data?.pagination?.total ?? block.total;
  const total = typeof stated === 'number' && Number.isInteger(stated) ? stated : undefined;
  const complete = total !== undefined ? total <= items.length : items.length < pageSize;
  return { ids, items, total, complete };
}

export const sameId = (a: RecordId, b: RecordId): boolean => String(a) === String(b);

/** Whether the answer's text shows `mark` anywhere (a name, an e-mail, notes the other company wrote). */
export function shows(exchange: Exchange, mark: string): boolean {
  return (exchange.response?.body ?? '').includes(mark);
}
