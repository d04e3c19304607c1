import type { Exchange } from '../../client/exchange.ts';
import type { Profile } from '../../profile/profile.ts';
import type { Finding } from '../../report/model.ts';
import { formatDuration } from '../../duration.ts';
import { recordKey, type KeptRecord } from './kept-record.ts';
import type { ListReader, ReadAll } from './list-reader.ts';
import { writtenBy } from './written-findings.ts';

/** Breaks an `ids` read left out that are read once more alone, at most (each a request). */
const MAX_SINGLE_READS = 20;

/**
 * Lost writes (ReadBackDeps.missingIsLost): each user or timesheet written with a 2xx that no list
 * read found, and each break the `ids` reads left out that a read of its ID alone does not list either
 * (one it does list is the ids filter's doing, BRK-IDS-FILTER, and stays in `read.idsShort`).
 */
export async function lostWrites(reader: ListReader, notFound: readonly KeptRecord[], read: ReadAll, profile: Profile): Promise<Finding[]> {
  const findings = notFound.map((record) => lostFinding(record, `not listed by GET /${record.kind}s read to its end${record.kind === 'user' ? ' (searched for the run\'s nonce, then the whole list)' : ' (the dates written, a day either side)'}, also after ${formatDuration(profile.read_back.settle)}`, read.exchanges.at(-1)));
  const remaining: ReadAll['idsShort'] = [];
  let reads = 0;
  for (const short of read.idsShort) {
    const stillShort: KeptRecord[] = [];
    for (const b of short.missing) {
      if (reads >= MAX_SINGLE_READS || reader.left <= 0) {
        stillShort.push(b);
        continue;
      }
      reads++;
      const alone = await reader.readAll([b]);
      read.exchanges.push(...alone.exchanges);
      if (alone.found.has(recordKey(b))) stillShort.push(b);
      else findings.push(lostFinding(b, `not listed by GET /breaks with its ID alone (ids [${b.id}]), nor with the others`, alone.exchanges.at(-1)));
    }
    if (stillShort.length > 0) remaining.push({ ...short, missing: stillShort });
  }
  read.idsShort.splice(0, read.idsShort.length, ...remaining);
  return findings;
}

function lostFinding(record: KeptRecord, actual: string, read: Exchange | undefined): Finding {
  const write = record.writes.at(-1);
  return {
    ruleId: 'STORE-CREATE',
    expected: `${record.kind} ${record.id}, created with a 2xx${write ? ` (exchange ${write.id})` : ''}, read back (a lost write otherwise)`,
    actual,
    exchangeIds: [...(write ? [write.id] : []), ...(read ? [read.id] : [])],
    ...writtenBy([record]),
  };
}
