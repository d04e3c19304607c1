import type { RuleId } from '../contract/rules.ts';

/** The run-wide check that judges every answer by the rules an answer shows alone. */
export const EVERY_ANSWER_CHECK_ID = 'records/every-answer';

/** The rules grade's answer judges can show (exchange-judges.ts `answerJudgements`): the check's rules in the plan. */
export const EVERY_ANSWER_RULES: readonly RuleId[] = [
  'JSON-RESPONSE',
  'HEAD-SUPPORTED',
  'ERR-SUCCESS-STATUS',
  'RATE-LIMIT-BODY',
  'PAG-BLOCK-FIELDS',
  'PAG-BLOCK-CONSISTENT',
  'PAG-LINKS',
  'PAG-PAGE-DEFAULT',
  'PAG-PAGE-SIZE-DEFAULT',
  'PAG-PAGE-SIZE-MAX',
  'ERR-NO-SERVER-ERROR',
  'SORT-ASCENDING',
  'SORT-DESCENDING',
  'SORT-MULTI',
  'USR-LIST-FILTER-ROLE',
  'BRK-LIST-RESPONSE',
  'BRK-LIST-SHAPE',
  'BRK-CREATE-RESPONSE',
  'BRK-CREATE-SHAPE',
  'BRK-DATETIME-FORMAT',
  'BRK-TIMESTAMP-FORMAT',
  'BRK-DURATION',
  'BRK-IDS-FILTER',
  'USR-ROLE-ID-DEFAULT',
  'USR-TRACK-LOCATION-DEFAULT',
  'USR-PAY-RATE-DEFAULT',
  'USR-BILLING-RATE-TYPE-DEFAULT',
];
