import type { Exchange } from '../../client/exchange.ts';
import { parseJsonExact } from '../../contract/json-text.ts';
import type { StoredKind, WrittenRecord } from '../written-record.ts';

/** A record the run wrote, as the read-back keeps it: its fields as written, the writes that wrote them, and the checks that sent them. */
export interface KeptRecord {
  readonly kind: StoredKind;
  readonly id: string;
  /** The ID as the target wrote it, for an `ids` body (a BigInt beyond 2^53 goes back exactly). */
  readonly rawId: number | bigint;
  fields: WrittenRecord['fields'];
  readonly writes: Exchange[];
  /** The checks whose accepted writes these were (none for a write outside every check: the calls that meet the checks' needs). */
  readonly writers: Set<string>;
}

/** The key a kept record is found by: its kind and ID. */
export const recordKey = (r: Pick<KeptRecord, 'kind' | 'id'>) => `${r.kind}:${r.id}`;

/** The JSON object a request sent, read exactly (IDs beyond 2^53 as BigInt); null for anything else. */
export function bodyOf(text: string | undefined): Readonly<Record<string, unknown>> | null {
  if (text === undefined) return null;
  try {
    const value = parseJsonExact(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
