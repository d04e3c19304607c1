import type { ChangeKind } from '../../contract/webhook-notification.ts';
import type { Company, CompanyId } from './company.ts';
import type { BreakRecord, NamedRecord, ScheduleRecord, TimesheetRecord, UserRecord } from '../records.ts';
import type { Repository, StoredRecord } from '../store.ts';

/**
 * One company's view of a shared repository: the rows it owns, and nothing else. Every read a
 * handler makes goes through one of these methods, so the company condition is applied in this
 * file and nowhere else; `shared` is the whole table, every company's rows, named so that a read
 * without the condition (the tenant-isolation faults of issue 49) is visible where it is made.
 */
export class ScopedRepository<T extends StoredRecord> {
  constructor(
    /** The whole table: every company's rows. Reading it skips the company condition. */
    readonly shared: Repository<T>,
    private readonly company: CompanyId,
  ) {}

  /** Whether the record with this ID exists and is the company's. */
  exists(id: number): boolean {
    return this.shared.ownerOf(id) === this.company;
  }

  /** The company's record with this ID; undefined for another company's, as for one that never existed. */
  get(id: number): T | undefined {
    return this.exists(id) ? this.shared.get(id) : undefined;
  }

  /** The company's records in ID order (read-only, not copied: store.ts). */
  all(): Readonly<T>[] {
    return this.shared.all().filter((record) => this.exists(record.id));
  }

  /** How many records the company has. */
  get count(): number {
    return this.all().length;
  }

  /**
   * A list's rows and its pagination total (§2.5 `total`): the company's records that match, and
   * how many they are.
   *
   * Scope spot, the unscoped total: a backend that counts the total in a query of its own
   * (`SELECT COUNT(*) … WHERE <filters>`) without the company condition counts every company's
   * rows, `this.shared.all().filter(matches).length`, while the page holds the company's only.
   */
  listed(matches: (record: Readonly<T>) => boolean): { records: Readonly<T>[]; total: number } {
    const records = this.all().filter(matches);
    return { records, total: records.length };
  }

  /** Stores a new record as the company's. */
  insert(fields: Omit<T, 'id'>): T {
    return this.shared.insert(fields, this.company);
  }

  /** Replaces a record read before (by `get`, which applied the scope); it stays its company's. */
  replace(record: T): T {
    return this.shared.replace(record);
  }
}

/** The shared repositories of the server (ServerContext), one per resource. */
export interface SharedTables {
  readonly users: Repository<UserRecord>;
  readonly schedules: Repository<ScheduleRecord>;
  readonly timesheets: Repository<TimesheetRecord>;
  readonly breaks: Repository<BreakRecord>;
  readonly jobs: Repository<NamedRecord>;
  readonly tasks: Repository<NamedRecord>;
  readonly breakRules: Repository<NamedRecord>;
}

/** The resources a webhook notification names. */
export type NotifiedCategory = 'users' | 'schedules' | 'timesheets' | 'breaks';

/** Sends a notification of one company's change to that company's subscription (ServerContext.notify). */
export type CompanyNotifier = (company: Company, category: NotifiedCategory, id: number, change: ChangeKind) => void;

/**
 * What a request works within: the company its token belongs to (auth.ts), its records in each
 * shared repository, its timezone and its subscription. A handler reads and writes through this,
 * never through the shared repositories.
 */
export class CompanyScope {
  readonly users: ScopedRepository<UserRecord>;
  readonly schedules: ScopedRepository<ScheduleRecord>;
  readonly timesheets: ScopedRepository<TimesheetRecord>;
  readonly breaks: ScopedRepository<BreakRecord>;
  readonly jobs: ScopedRepository<NamedRecord>;
  readonly tasks: ScopedRepository<NamedRecord>;
  readonly breakRules: ScopedRepository<NamedRecord>;

  constructor(
    readonly company: Company,
    tables: SharedTables,
    private readonly notifier: CompanyNotifier,
  ) {
    this.users = new ScopedRepository(tables.users, company.id);
    this.schedules = new ScopedRepository(tables.schedules, company.id);
    this.timesheets = new ScopedRepository(tables.timesheets, company.id);
    this.breaks = new ScopedRepository(tables.breaks, company.id);
    this.jobs = new ScopedRepository(tables.jobs, company.id);
    this.tasks = new ScopedRepository(tables.tasks, company.id);
    this.breakRules = new ScopedRepository(tables.breakRules, company.id);
  }

  /** The company timezone (§2.1, §2.3). */
  get timezone(): string {
    return this.company.timezone;
  }

  /** Notifies the company's own subscription (and no other company's) that one of its records changed. */
  notify(category: NotifiedCategory, id: number, change: ChangeKind): void {
    this.notifier(this.company, category, id, change);
  }
}
