import type { BuiltinCheck } from './context.ts';
import type { BuiltinCheckName } from './names.ts';
import { durationMatches } from './duration-matches.ts';
import { headParity } from './head-parity.ts';
import { listMembership } from './list-membership.ts';
import { pageSizeLimit } from './page-size-limit.ts';
import { paginationWalk } from './pagination-walk.ts';
import { plainHttp } from './plain-http.ts';
import { sorted } from './sorted.ts';

/** The built-in checks by name (the names scenarios use). */
export const BUILTIN_CHECKS: Readonly<Record<BuiltinCheckName, BuiltinCheck>> = {
  'plain-http': plainHttp,
  'pagination-walk': paginationWalk,
  'page-size-limit': pageSizeLimit,
  sorted,
  'head-parity': headParity,
  'duration-matches': durationMatches,
  'list-membership': listMembership,
};

/** Requests a built-in check is expected to make, for the run's plan. */
export function estimateCheckRequests(name: string, args: Readonly<Record<string, unknown>>): number {
  switch (name) {
    case 'plain-http':
      return 3;
    case 'pagination-walk':
      return 6;
    case 'page-size-limit':
      return Array.isArray(args.sizes) ? args.sizes.length : 2;
    case 'head-parity':
      return 2;
    case 'list-membership':
      return 2;
    case 'sorted':
      return 1;
    default:
      return 0;
  }
}
