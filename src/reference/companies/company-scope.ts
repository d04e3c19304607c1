import type { ChangeKind } from '../../contract/webhook-notification.ts';
import type { Company, CompanyId } from './company.ts';
import type { BreakRecord, NamedRecord, ScheduleRecord, TimesheetRecord, UserRecord } from '../records.ts';
import type { Repository, StoredRecord } from '../store.ts';
import type { FaultName } from '../faults.ts';

/** Whether a fault is switched on (ServerContext.fault). */
export type FaultProbe = (name: FaultName) => boolean;

/**
 * One company's view of a shared repository: the rows it owns, and nothing else. Every read a
 * handler makes goes through one of these methods, so the company condition is applied in this
 * file and nowhere else; `shared` is the whole table, every company's rows, named so that a read
 * without the condition (the tenant-isolation faults of issue 49) is visible where it is made:
 * `get` and `exists` read alike on both, so a lookup or an exists-check by ID alone is
 * `(ctx.fault('…') ? scope.users.shared : scope.users).get(id)`.
 */
export class ScopedRepository<T extends StoredRecord> {
  constructor(
    /** The whole table: every company's rows. Reading it skips the company condition. */
    readonly shared: Repository<T>,
    private readonly company: CompanyId,
    /** The server's faults, for a fault whose spot is here: `this.fault('…')`. */
    readonly fault: FaultProbe,
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
   * (`SELECT COUNT(*) … WHERE <filters>`) without the company condition counts every company's rows,
   * `this.shared.all().filter(matches).length`, while the page holds the company's only (the user
   * search's, `search-total-unscoped`, is made so in handlers/users.ts).
   */
  listed(matches: (record: Readonly<T>) => boolean): { records: Readonly<T>[]; total: number } {
    const records = this.all().filter(matches);
    return { records, total: records.length };
  }

  /**
   * The rows of a WHERE clause whose OR escapes the company condition, its parentheses missing
   * (`company AND matches OR escaping`): the company's records that match, and every company's that
   * match `escaping`, with their total. What a search (or an `ids` filter) that escapes the scope
   * lists; a list reads it only under a fault.
   */
  listedEscaping(matches: (record: Readonly<T>) => boolean, escaping: (record: Readonly<T>) => boolean): { records: Readonly<T>[]; total: number } {
    const records = this.shared.all().filter((record) => (this.exists(record.id) && matches(record)) || escaping(record));
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
    fault: FaultProbe,
  ) {
    this.users = new ScopedRepository(tables.users, company.id, fault);
    this.schedules = new ScopedRepository(tables.schedules, company.id, fault);
    this.timesheets = new ScopedRepository(tables.timesheets, company.id, fault);
    this.breaks = new ScopedRepository(tables.breaks, company.id, fault);
    this.jobs = new ScopedRepository(tables.jobs, company.id, fault);
    this.tasks = new ScopedRepository(tables.tasks, company.id, fault);
    this.breakRules = new ScopedRepository(tables.breakRules, company.id, fault);
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
