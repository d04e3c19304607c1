import type { Exchange } from '../../client/exchange.ts';
import type { Profile } from '../../profile/profile.ts';
import type { Finding } from '../../report/model.ts';
import { recordReadingFor } from '../record-reading.ts';
import { differences, shownCount, type Difference } from '../written-record.ts';
import { recordKey, type KeptRecord } from './kept-record.ts';
import type { Found } from './list-reader.ts';

// What the reads found, judged against what the run wrote: each field by meaning (written-record.ts),
// and a create stored twice.

export interface Judged {
  readonly findings: Finding[];
  readonly differing: Set<string>;
  readonly fieldsJudged: number;
}

export function judgeAll(records: readonly KeptRecord[], found: ReadonlyMap<string, Found>, profile: Profile): Judged {
  const findings: Finding[] = [];
  const differing = new Set<string>();
  let fieldsJudged = 0;
  for (const record of records) {
    const read = found.get(recordKey(record));
    if (!read) continue;
    const reading = recordReadingFor(profile, `/${record.kind}s`);
    const diffs = differences({ kind: record.kind, id: record.id, fields: record.fields, writtenBy: [] }, read.item, reading);
    fieldsJudged += shownCount(record.fields, read.item, reading);
    if (diffs.length === 0) continue;
    differing.add(recordKey(record));
    for (const diff of diffs) findings.push(finding(record, diff, read.exchange));
  }
  return { findings, differing, fieldsJudged };
}

function finding(record: KeptRecord, diff: Difference, read: Exchange): Finding {
  const write = record.writes.at(-1);
  return {
    ruleId: diff.rule,
    expected: `${record.kind} ${record.id}${record.writers.size > 0 ? ` (written by ${[...record.writers].sort().join(', ')})` : ''}: ${diff.expected}`,
    actual: `${diff.field} ${diff.actual} in the list read`,
    exchangeIds: [...(write ? [write.id] : []), read.id],
    ...writtenBy([record]),
  };
}

/**
 * Users listed more often than the run created them: two listed users with an e-mail the run sent
 * in one accepted create only (each e-mail the run writes is unique to it: unique-values.ts). One
 * create stored twice (STORE-CREATE). Only what the reads listed is seen: a copy on a page the walk
 * did not reach is not.
 */
export function storedTwice(records: readonly KeptRecord[], found: ReadonlyMap<string, Found>): Finding[] {
  const written = new Map<string, KeptRecord[]>();
  for (const record of records) {
    const email = record.kind === 'user' ? record.fields.get('email')?.value : undefined;
    if (typeof email === 'string') written.set(email, [...(written.get(email) ?? []), record]);
  }
  const listed = new Map<string, { id: string; exchange: Exchange }[]>();
  for (const [k, entry] of found) {
    const email = k.startsWith('user:') ? (entry.item as { email?: unknown } | null)?.email : undefined;
    if (typeof email === 'string' && written.has(email)) listed.set(email, [...(listed.get(email) ?? []), { id: k.slice('user:'.length), exchange: entry.exchange }]);
  }
  const findings: Finding[] = [];
  for (const [email, copies] of listed) {
    const creates = written.get(email)!;
    if (copies.length <= creates.length) continue;
    findings.push({
      ruleId: 'STORE-CREATE',
      expected: `one user for each accepted create with e-mail ${email} (${creates.length}: user ${creates.map((r) => r.id).join(', ')})`,
      actual: `${copies.length} users listed with it: ${copies.map((c) => c.id).join(', ')} (a create stored twice)`,
      exchangeIds: [...new Set([...creates.flatMap((r) => r.writes.map((w) => w.id)), ...copies.map((c) => c.exchange.id)])],
      ...writtenBy(creates),
    });
  }
  return findings;
}

/** The checks whose writes a finding judges (Finding.writtenBy), when any check wrote them. */
export function writtenBy(records: readonly KeptRecord[]): Pick<Finding, 'writtenBy'> {
  const checks = [...new Set(records.flatMap((r) => [...r.writers]))].sort();
  return checks.length === 0 ? {} : { writtenBy: checks };
}
