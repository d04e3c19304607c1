import fc from 'fast-check';
import { WEEKDAY_NAMES } from '../../contract/formats/index.ts';
import type { LabelledValue } from './_internals/labelled-value.ts';

const days = fc.shuffledSubarray([...WEEKDAY_NAMES], { minLength: 1, maxLength: 3 });
const capitalize = (d: string) => d[0]!.toUpperCase() + d.slice(1);

/**
 * A string that is not comma-separated lowercase weekday names (spec §2.1 `weeks`), labelled:
 * capitalized names, three-letter abbreviations, semicolons for commas, a name that is not a
 * weekday, empty. A space after a comma or a trailing comma are left out: a server may trim them away.
 */
export function invalidWeekdayList(): fc.Arbitrary<LabelledValue> {
  return fc.oneof(
    days.map((d) => ({ value: d.map(capitalize).join(','), label: 'capitalized weekday names' })),
    days.map((d) => ({ value: d.map((x) => x.slice(0, 3)).join(','), label: 'three-letter abbreviations' })),
    days.filter((d) => d.length > 1).map((d) => ({ value: d.join(';'), label: 'semicolons instead of commas' })),
    fc.constantFrom('funday', 'weekend', 'everyday', 'mon-fri').map((value) => ({ value, label: 'not a weekday name' })),
    fc.constant({ value: '', label: 'empty weeks' }),
  );
}
