import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerContext } from './context.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Spec §5.2: `Authorization: <ACCESS_TOKEN>`, the raw token. Compared in constant time
 * (over SHA-256 digests, so the token's length does not leak either).
 */
export class TokenCheck {
  private readonly expected: Buffer;

  constructor(
    token: string,
    private readonly ctx: ServerContext,
  ) {
    this.expected = digest(token);
  }

  private matches(value: string): boolean {
    return timingSafeEqual(digest(value), this.expected);
  }

  /** True when the Authorization header value authenticates the request. */
  authenticates(header: string | undefined): boolean {
    if (header === undefined || header === '') return this.ctx.fault('auth-missing-accepted');
    if (this.ctx.tokenRevoked) return false;
    if (this.ctx.fault('auth-any-token')) return true;
    if (this.ctx.fault('auth-bearer-only')) return header.startsWith('Bearer ') && this.matches(header.slice(7));
    return this.matches(header);
  }
}
