/**
 * Storage of the reference server: one in-memory repository per resource behind a small interface.
 *
 * Concurrency: Node runs each request handler's validation and write in one synchronous step
 * (no await between reading and writing a record), so concurrent requests never interleave
 * inside a read-modify-write. Records are copied in and out, so callers cannot mutate storage;
 * `all()` is the exception, read-only by type and not copied: a list or the e-mail uniqueness check
 * reads every record on every request, and copying them all made the server's cost grow with each
 * record a run created.
 */
import { InternalError } from '../errors.ts';

export interface StoredRecord {
  readonly id: number;
}

export interface Repository<T extends StoredRecord> {
  /** Stores a new record under the next ID and returns it. */
  insert(fields: Omit<T, 'id'>): T;
  /** The record with this ID, or undefined. */
  get(id: number): T | undefined;
  /** Replaces the record with this ID (which must exist) and returns it. */
  replace(record: T): T;
  /** Removes the record; true when it existed. */
  remove(id: number): boolean;
  /** All records in ID order: the stored records themselves, read-only (not copied). */
  all(): Readonly<T>[];
  readonly size: number;
}

export class InMemoryRepository<T extends StoredRecord> implements Repository<T> {
  private readonly records = new Map<number, T>();
  private nextId = 1;

  insert(fields: Omit<T, 'id'>): T {
    const record = { id: this.nextId++, ...fields } as unknown as T;
    this.records.set(record.id, record);
    return structuredClone(record);
  }

  get(id: number): T | undefined {
    const found = this.records.get(id);
    return found ? structuredClone(found) : undefined;
  }

  replace(record: T): T {
    if (!this.records.has(record.id)) throw new InternalError(`no record ${record.id} to replace: the reference server replaces only a record it read`);
    this.records.set(record.id, structuredClone(record));
    return structuredClone(record);
  }

  remove(id: number): boolean {
    return this.records.delete(id);
  }

  all(): Readonly<T>[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }
}
