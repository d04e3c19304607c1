import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import type { Profile } from '../profile/profile.ts';
import { createdKindOf, readCreatedId } from './created-id.ts';
import type { CheckResult, Finding } from '../report/model.ts';
import { pathOf } from './url-path.ts';

/** The run-wide check of ID-INTEGER: every create answer of the run, whichever check (or the run's own provisioning) sent it. */
export const CREATED_IDS_CHECK_ID = 'records/created-ids';
const TITLE = 'the IDs create answers give users, schedules and timesheets are integers (§4.1, §4.2, §4.4 name them as integers)';

/** Findings a failed check lists at most (one per path and ID shown), and the exchanges each cites. */
const MAX_FINDINGS = 10;
const EXCHANGES_PER_FINDING = 3;

/**
 * Watches every exchange of a run (RunTransport.tap) and judges ID-INTEGER on each create answer of
 * a user, schedule or timesheet that names an ID (2xx to POST /users, /schedules, /timesheets): an
 * integer by meaning passes (`42`, `"42"`, `-7`, `9007199254740993` read exactly); anything else
 * fails, shown escaped, whatever check sent the create. A break's ID is §2.4's and judged by its
 * own checks (BRK-CREATE-SHAPE). An answer that names no ID judges nothing (the spec does not show
 * these answers). The checks that needed such a record are errored on their own, with the reason.
 */
export class CreatedIdWatch {
  readonly #profile: Pick<Profile, 'id_pointer'>;
  #integers = 0;
  #firstInteger: Exchange | null = null;
  /** The answers whose ID is no integer, by the path they created at and the ID shown: one finding each, with their exchanges. */
  readonly #refused = new Map<string, { readonly path: string; readonly shown: string; readonly exchanges: Exchange[]; count: number }>();

  constructor(profile: Pick<Profile, 'id_pointer'>) {
    this.#profile = profile;
  }

  /** Judges one exchange if it is a create answer that names an ID. */
  observe(exchange: Exchange): void {
    const status = exchange.response?.status ?? 0;
    if (exchange.request.method !== 'POST' || status < 200 || status >= 300) return;
    const path = pathOf(exchange.request.url);
    const kind = createdKindOf(path);
    if (kind === undefined || kind === 'break') return;
    const read = readCreatedId(exchange.response?.json, this.#profile, kind);
    if (read.kind === 'absent') return;
    if (read.kind === 'id') {
      this.#integers++;
      this.#firstInteger ??= retainExchange(exchange);
      return;
    }
    const key = `${path}\u0000${read.shown}`;
    const group = this.#refused.get(key) ?? (this.#refused.size < MAX_FINDINGS ? { path, shown: read.shown, exchanges: [], count: 0 } : undefined);
    if (group === undefined) return;
    this.#refused.set(key, group);
    group.count++;
    if (group.exchanges.length < EXCHANGES_PER_FINDING) group.exchanges.push(retainExchange(exchange));
  }

  /** The check's result over what the run's create answers showed. */
  check(replay: string): CheckResult {
    const base = { id: CREATED_IDS_CHECK_ID, title: TITLE, rules: ['ID-INTEGER' as const], source: { kind: 'builtin' as const, name: CREATED_IDS_CHECK_ID }, replay, durationMs: 0 };
    const refused = [...this.#refused.values()];
    const notIntegers = refused.reduce((n, g) => n + g.count, 0);
    const judged = this.#integers + notIntegers;
    if (judged === 0) return { ...base, status: 'skipped', reason: 'no create answer of the run named the ID of a user, schedule or timesheet', findings: [], exchanges: [] };
    const summary = `${judged} create answer${judged === 1 ? '' : 's'} named an ID: ${this.#integers} an integer`;
    if (refused.length === 0) return { ...base, status: 'passed', reason: summary, findings: [], exchanges: this.#firstInteger ? [this.#firstInteger] : [] };
    // One finding per path and ID: a target that writes the same ID in every answer is one finding, not one per create.
    const findings: Finding[] = refused.map((g) => ({
      ruleId: 'ID-INTEGER',
      expected: `an integer ID for each record POST ${g.path} creates (§4: the IDs that name it in paths and bodies are integers)`,
      actual: `the ID ${g.shown}${g.count > 1 ? ` in ${g.count} answers` : ''}`,
      exchangeIds: g.exchanges.map((e) => e.id),
    }));
    return { ...base, status: 'failed', reason: `${summary}, ${notIntegers} not`, findings, exchanges: refused.flatMap((g) => g.exchanges) };
  }
}
