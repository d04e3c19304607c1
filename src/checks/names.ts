/** The built-in checks a scenario step can call (`check: NAME`); see docs/scenario-format.md. */
export const BUILTIN_CHECK_NAMES = [
  'plain-http',
  'pagination-walk',
  'page-size-limit',
  'sorted',
  'head-parity',
  'duration-matches',
  'list-membership',
  'webhook-notifications',
] as const;
export type BuiltinCheckName = (typeof BUILTIN_CHECK_NAMES)[number];
