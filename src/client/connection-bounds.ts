/**
 * The bounds every connection a run opens holds the target's answers to — the harness's client, the
 * bursts and `load` (autocannon), `init`, the cleanup — so that no target can hold memory or a
 * connection by what it sends (issue 24). Deadlines are the profile's `timeouts`; these are the sizes.
 */

/** Bytes of one response head (status line and header lines): Node's own default for HTTP (16 KiB). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Header lines in one response head. A real API sends a few dozen; 16 KiB of `a:1` lines would be 4 000. */
export const MAX_HEADER_COUNT = 256;

/** Interim (1xx) responses before one final response: a `100 Continue` and a few `103 Early Hints` are honest; a flood is not. */
export const MAX_INTERIM_RESPONSES = 16;

/** Why a connection's answer broke a bound, in the words an exchange's error carries. */
export function boundBroken(what: 'header-bytes' | 'header-count' | 'interim' | 'body-bytes', limit: number): string {
  switch (what) {
    case 'header-bytes':
      return `the response head exceeded ${limit} bytes`;
    case 'header-count':
      return `the response head had more than ${limit} header lines`;
    case 'interim':
      return `more than ${limit} interim (1xx) responses came before a final one`;
    case 'body-bytes':
      return `the response body exceeded ${limit} bytes`;
  }
}
