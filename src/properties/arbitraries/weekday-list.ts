import fc from 'fast-check';
import { WEEKDAY_NAMES } from '../../contract/formats/index.ts';

/** A valid `weeks` value (spec §2.1): 1 to 7 distinct lowercase weekday names joined by commas, in any order. */
export function weekdayList(): fc.Arbitrary<string> {
  return fc.shuffledSubarray([...WEEKDAY_NAMES], { minLength: 1 }).map((days) => days.join(','));
}
