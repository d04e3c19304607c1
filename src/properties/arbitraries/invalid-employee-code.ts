import fc from 'fast-check';
import type { LabelledValue } from './_internals/labelled-value.ts';

const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));

/**
 * A string that is not exactly 4 ASCII digits (spec §2.2, §8), labelled: 3 digits, 5 digits, a
 * letter among 4 characters, a space inside; among them the neighbours of the codes that start with 0
 * (`012`, `00000`). No leading or trailing spaces: a server may trim them.
 */
export function invalidEmployeeCode(): fc.Arbitrary<LabelledValue> {
  return fc.oneof(
    // The first invalid neighbours of a code that starts with 0: its 0 lost (a number column), one 0 too many.
    { weight: 1, arbitrary: fc.constantFrom<LabelledValue>({ value: '012', label: 'employee_code of 3 digits, a code starting with 0 that lost it' }, { value: '00000', label: 'employee_code of 5 digits, all 0' }) },
    digits(3).map((value) => ({ value, label: 'employee_code of 3 digits' })),
    digits(5).map((value) => ({ value, label: 'employee_code of 5 digits' })),
    fc
      .tuple(digits(3), fc.constantFrom(...'abcxyzABCXYZ'), fc.integer({ min: 0, max: 3 }))
      .map(([d, letter, at]) => ({ value: `${d.slice(0, at)}${letter}${d.slice(at)}`, label: 'employee_code with a letter among 4 characters' })),
    fc
      .tuple(digits(4), fc.integer({ min: 1, max: 3 }))
      .map(([d, at]) => ({ value: `${d.slice(0, at)} ${d.slice(at)}`, label: 'employee_code with a space inside' })),
  );
}
