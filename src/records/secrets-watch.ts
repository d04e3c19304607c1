import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult, Finding } from '../report/model.ts';
import { passwordVerdicts, tokenVerdicts, type SecretVerdict } from './secrets-returned.ts';

/** The run-wide checks of the secrets an answer never carries: every exchange of the run, whichever check sent it. */
export const TOKENS_NOT_RETURNED_CHECK_ID = 'records/tokens-not-returned';
export const PASSWORDS_NOT_RETURNED_CHECK_ID = 'records/passwords-not-returned';

const CHECKS = {
  [TOKENS_NOT_RETURNED_CHECK_ID]: {
    rule: 'SEC-TOKEN-NOT-RETURNED',
    title: 'no answer of the target and no webhook notification carries the token, in any encoding (§1: tokens are highly sensitive)',
    none: 'no answer came back to judge',
  },
  [PASSWORDS_NOT_RETURNED_CHECK_ID]: {
    rule: 'SEC-PASSWORD-NOT-RETURNED',
    title: 'an accepted user write never sends its password back, and no user record carries a password (§2.2: the password is input only)',
    none: 'no accepted user write sent a password and no answer carried a user record',
  },
} as const;

type SecretsCheckId = keyof typeof CHECKS;

/** Findings a failed check lists at most (one per route and place), and the exchanges each cites. */
const MAX_FINDINGS = 10;
const EXCHANGES_PER_FINDING = 3;

interface Tally {
  judged: number;
  first: Exchange | null;
  readonly failed: Map<string, { readonly verdict: SecretVerdict; readonly exchanges: Exchange[]; count: number }>;
}

/**
 * Watches every exchange of a run (RunTransport.tap) and the webhook notifications its sink got, and
 * judges each with the one-exchange judges of secrets-returned.ts (grade's too): a token in any answer
 * or notification, the password an accepted user write sent back, a user record with a password.
 * Equal findings (the same route and place) are one, with their count and first exchanges.
 */
export class SecretsWatch {
  readonly #profile: Profile;
  readonly #tallies: Record<SecretsCheckId, Tally> = {
    [TOKENS_NOT_RETURNED_CHECK_ID]: { judged: 0, first: null, failed: new Map() },
    [PASSWORDS_NOT_RETURNED_CHECK_ID]: { judged: 0, first: null, failed: new Map() },
  };

  constructor(profile: Profile) {
    this.#profile = profile;
  }

  /** Judges one exchange of the run (or an inbound notification). */
  observe(exchange: Exchange): void {
    this.#tally(TOKENS_NOT_RETURNED_CHECK_ID, exchange, tokenVerdicts(exchange));
    this.#tally(PASSWORDS_NOT_RETURNED_CHECK_ID, exchange, passwordVerdicts(exchange, this.#profile));
  }

  /** The check's result over what the run's answers showed. */
  check(id: SecretsCheckId, replay: string): CheckResult {
    const { rule, title, none } = CHECKS[id];
    const base = { id, title, rules: [rule], source: { kind: 'builtin' as const, name: id }, replay, durationMs: 0 };
    const tally = this.#tallies[id];
    if (tally.judged === 0) return { ...base, status: 'skipped', reason: none, findings: [], exchanges: [] };
    const failed = [...tally.failed.values()];
    const broken = failed.reduce((n, g) => n + g.count, 0);
    const summary = `${tally.judged} verdict${tally.judged === 1 ? '' : 's'} on the run's answers`;
    if (failed.length === 0) return { ...base, status: 'passed', reason: `${summary}: none carried a secret`, findings: [], exchanges: tally.first ? [tally.first] : [] };
    const findings: Finding[] = failed.map((g) => ({
      ruleId: g.verdict.ruleId,
      expected: g.verdict.expected,
      actual: `${g.verdict.actual}${g.count > 1 ? `; ${g.count} times` : ''}`,
      exchangeIds: g.exchanges.map((e) => e.id),
    }));
    return { ...base, status: 'failed', reason: `${summary}: ${broken} showed a secret`, findings, exchanges: failed.flatMap((g) => g.exchanges) };
  }

  #tally(id: SecretsCheckId, exchange: Exchange, verdicts: readonly SecretVerdict[]): void {
    const tally = this.#tallies[id];
    for (const verdict of verdicts) {
      tally.judged++;
      if (verdict.ok) {
        tally.first ??= retainExchange(exchange);
        continue;
      }
      const group = tally.failed.get(verdict.cause) ?? (tally.failed.size < MAX_FINDINGS ? { verdict, exchanges: [], count: 0 } : undefined);
      if (group === undefined) continue;
      tally.failed.set(verdict.cause, group);
      group.count++;
      if (group.exchanges.length < EXCHANGES_PER_FINDING && !group.exchanges.some((e) => e.id === exchange.id)) group.exchanges.push(retainExchange(exchange));
    }
  }
}

export const SECRETS_CHECK_IDS = Object.keys(CHECKS) as SecretsCheckId[];
export type { SecretsCheckId };
/** The rule each of the secrets checks judges. */
export const SECRETS_CHECK_RULES: Readonly<Record<SecretsCheckId, readonly ['SEC-TOKEN-NOT-RETURNED'] | readonly ['SEC-PASSWORD-NOT-RETURNED']>> = {
  [TOKENS_NOT_RETURNED_CHECK_ID]: ['SEC-TOKEN-NOT-RETURNED'],
  [PASSWORDS_NOT_RETURNED_CHECK_ID]: ['SEC-PASSWORD-NOT-RETURNED'],
};
