import { createHash, timingSafeEqual } from 'node:crypto';
import type { Company } from './companies/company.ts';
import type { ServerContext } from './context.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** A company's access token (§5.3: its administrator generates it). */
export interface CompanyToken {
  readonly token: string;
  readonly company: Company;
}

/**
 * Spec §5.2: `Authorization: <ACCESS_TOKEN>`, the raw token, which names the company the request
 * works within. Compared in constant time (over SHA-256 digests, so the token's length does not
 * leak either). The auth faults act as they always did for the first company: a request they let
 * through without a token of its own works within the first company; a revoked token (§5.4) is
 * refused like any wrong one, each company's on its own.
 */
export class TokenCheck {
  private readonly expected: ReadonlyArray<{ readonly digest: Buffer; readonly company: Company }>;

  constructor(
    tokens: readonly CompanyToken[],
    private readonly ctx: ServerContext,
  ) {
    this.expected = tokens.map(({ token, company }) => ({ digest: digest(token), company }));
  }

  /** The company whose token this is (every token compared, in constant time each), or null. */
  private owner(value: string): Company | null {
    const given = digest(value);
    let found: Company | null = null;
    for (const { digest: expected, company } of this.expected) if (timingSafeEqual(given, expected) && found === null) found = company;
    return found;
  }

  /** The company the Authorization header value authenticates the request for, or null when it authenticates none. */
  companyOf(header: string | undefined): Company | null {
    const first = this.ctx.firstCompany;
    if (header === undefined || header === '') return this.ctx.fault('auth-missing-accepted') ? first : null;
    const bare = this.ctx.fault('auth-bearer-only') ? (header.startsWith('Bearer ') ? header.slice(7) : null) : header;
    const owner = bare === null ? null : this.owner(bare);
    if (owner !== null && owner !== first && !owner.tokenRevoked) return owner;
    if (first.tokenRevoked) return null;
    if (this.ctx.fault('auth-any-token')) return first;
    return owner === first ? first : null;
  }
}
