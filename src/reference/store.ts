/**
 * Storage of the reference server: one in-memory repository per resource behind a small interface,
 * shared by every company the server serves, as the tables of one database are. IDs come from one
 * sequence per repository across the companies, so a company's IDs have gaps when another's records
 * were inserted between them. Each row carries the company it belongs to (its owner), beside the
 * record and never in it, so no answer can show it; company-scope.ts reads a company's rows only.
 *
 * Concurrency: Node runs each request handler's validation and write in one synchronous step
 * (no await between reading and writing a record), so concurrent requests never interleave
 * inside a read-modify-write. Records are copied in and out, so callers cannot mutate storage;
 * `all()` is the exception, read-only by type and not copied: a list or the e-mail uniqueness check
 * reads every record on every request, and copying them all made the server's cost grow with each
 * record a run created.
 */
import { InternalError } from '../errors.ts';
import type { CompanyId } from './companies/company.ts';

export interface StoredRecord {
  readonly id: number;
}

export interface Repository<T extends StoredRecord> {
  /** Stores a new record of `company` under the next ID and returns it. */
  insert(fields: Omit<T, 'id'>, company: CompanyId): T;
  /** The record with this ID, of whichever company, or undefined. */
  get(id: number): T | undefined;
  /** Whether a record with this ID exists, of whichever company. */
  exists(id: number): boolean;
  /** The company the record with this ID belongs to, or undefined when there is none. */
  ownerOf(id: number): CompanyId | undefined;
  /** Replaces the record with this ID (which must exist) and returns it; it stays its company's. */
  replace(record: T): T;
  /** Removes the record; true when it existed. */
  remove(id: number): boolean;
  /** All records of every company in ID order: the stored records themselves, read-only (not copied). */
  all(): Readonly<T>[];
  readonly size: number;
}

export class InMemoryRepository<T extends StoredRecord> implements Repository<T> {
  private readonly records = new Map<number, T>();
  private readonly owners = new Map<number, CompanyId>();
  private nextId = 1;

  insert(fields: Omit<T, 'id'>, company: CompanyId): T {
    const record = { id: this.nextId++, ...fields } as unknown as T;
    this.records.set(record.id, record);
    this.owners.set(record.id, company);
    return structuredClone(record);
  }

  get(id: number): T | undefined {
    const found = this.records.get(id);
    return found ? structuredClone(found) : undefined;
  }

  exists(id: number): boolean {
    return this.records.has(id);
  }

  ownerOf(id: number): CompanyId | undefined {
    return this.owners.get(id);
  }

  replace(record: T): T {
    if (!this.records.has(record.id)) throw new InternalError(`no record ${record.id} to replace: the reference server replaces only a record it read`);
    this.records.set(record.id, structuredClone(record));
    return structuredClone(record);
  }

  remove(id: number): boolean {
    this.owners.delete(id);
    return this.records.delete(id);
  }

  all(): Readonly<T>[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }
}
