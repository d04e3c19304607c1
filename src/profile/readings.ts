/**
 * Readings the spec leaves open, which a profile may declare (src/profile/profile.ts) and a
 * scenario may be conditional on (`when:` in docs/scenario-format.md). `either` declares none:
 * both readings pass, and the scenarios that certify one reading are skipped.
 */

/** USR-EMAIL-FORMAT (§2.2: not shown): is a malformed e-mail rejected? */
export const USER_EMAIL_READINGS = ['validated', 'not-validated'] as const;
/** USR-EDIT-REQUIRED (§4.2: not shown which statement governs): does edit require first_name, last_name, email and password? */
export const USER_EDIT_READINGS = ['all-four', 'none'] as const;

/** DATE-RANGE (§4.6: items "between the two dates"): do the two end dates themselves count? */
export const DATE_RANGE_END_READINGS = ['inclusive', 'exclusive'] as const;

/** What a profile may declare: one reading, or `either`. */
export const USER_EMAIL_FORMATS = [...USER_EMAIL_READINGS, 'either'] as const;
export const USER_EDIT_REQUIRED = [...USER_EDIT_READINGS, 'either'] as const;
export const DATE_RANGE_ENDS = [...DATE_RANGE_END_READINGS, 'either'] as const;
export type DateRangeEnds = (typeof DATE_RANGE_ENDS)[number];
