import fc from 'fast-check';
import type { RuleId } from '../../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../../family.ts';
import { ASCII_PUNCTUATION, ASTRAL_CHARACTER, NON_ASCII_LETTERS, passwordOf, type PasswordCharClass } from '../_internals/password-chars.ts';
import { reEmail } from '../_internals/re-email.ts';
import { userCase } from '../user-case.ts';
import type { EdgeClass } from '../../family.ts';

// The edges of the user families' domains, where §2.2 and §8 state them: a password of at least 6
// characters with a lowercase and an uppercase letter, a digit and a special character; an
// employee_code of exactly 4 digits; role_id 1 to 3; billing_rate_type 0 or 1.

type Operation = 'create' | 'update';
const ALL: readonly PasswordCharClass[] = ['lowercase', 'uppercase', 'digit', 'special'];

/** A valid user with `field` set to one of `values` (the seed picks); invalid when `breaks` is given. */
function userWith(name: string, field: string, values: fc.Arbitrary<unknown>, options: { operation?: Operation; breaks?: RuleId; pack?: string; mayBeHeld?: boolean } = {}): EdgeClass {
  const operation = options.operation ?? 'create';
  return {
    name,
    ...(options.breaks ? { breaks: options.breaks } : { fields: [field], pack: options.pack ?? operation }),
    ...(options.mayBeHeld ? { mayBeHeld: true } : {}),
    member: (ctx: GeneratorContext) =>
      fc.tuple(userCase(ctx, operation, { values: true }), values).map(([c, value]): GeneratedCase => ({
        payload: reEmail(ctx.uniqueTag, { ...c.payload, [field]: value }),
        label: `${field} ${JSON.stringify(value)}`,
        ...(options.breaks ? { breaks: options.breaks } : {}),
      })),
  };
}

/** 6 characters: one of each class and two more (a password of exactly the minimum length). */
const sixAscii = passwordOf(ALL, { min: 2, max: 2 });
/** 6 characters, two of them letters outside ASCII (more than 6 bytes: the length counts characters). */
const sixWide = fc.tuple(passwordOf(ALL, { min: 0, max: 0 }), fc.constantFrom(...NON_ASCII_LETTERS), fc.constantFrom(...NON_ASCII_LETTERS)).map(([p, x, y]) => `${p}${x}${y}`);
/** 8 characters whose only special character is one of `specials`. */
const onlySpecial = (specials: readonly string[]) => fc.tuple(passwordOf(['lowercase', 'uppercase', 'digit'], { min: 4, max: 4 }), fc.constantFrom(...specials)).map(([p, s]) => `${p.slice(0, 3)}${s}${p.slice(3)}`);
const QUOTES = ['"', "'", '`', '\\'];
const MARKUP = ['<', '>', '&', '%', '#', '+', '/', ';', '=', '?', ':', ','];
const REGEX = ['.', '*', '^', '$', '|', '(', ')', '[', ']', '{', '}', '-'];
const REST = ASCII_PUNCTUATION.filter((c) => ![...QUOTES, ...MARKUP, ...REGEX].includes(c));

const missing = (classes: PasswordCharClass) => passwordOf(ALL.filter((c) => c !== classes), { min: 3, max: 6 });
const fiveAscii = passwordOf(ALL, { min: 1, max: 1 });
const fiveWide = fc.constantFrom(...NON_ASCII_LETTERS).map((wide) => `Aa1!${wide}`);
const fiveAstral = fc.constant(`Aa1!${ASTRAL_CHARACTER}`);

/** A code of exactly 4 digits from `from` to `to`, zero-padded. */
const code = (from: number, to: number) => fc.integer({ min: from, max: to }).map((n) => String(n).padStart(4, '0'));

const passwordEdges = (operation: Operation): EdgeClass[] => [
  userWith('password of exactly 6 ASCII characters, one of each class', 'password', sixAscii, { operation }),
  userWith('password of exactly 6 characters, two of them letters outside ASCII', 'password', sixWide, { operation, pack: `${operation}, wide password` }),
  userWith('password of 5 ASCII characters with all four classes', 'password', fiveAscii, { operation, breaks: 'USR-PASSWORD-LENGTH' }),
  userWith('password of 5 characters, the fifth a letter outside ASCII (6 or more bytes)', 'password', fiveWide, { operation, breaks: 'USR-PASSWORD-LENGTH' }),
  userWith('password of 5 characters, the fifth outside the Basic Multilingual Plane (6 UTF-16 code units)', 'password', fiveAstral, { operation, breaks: 'USR-PASSWORD-LENGTH' }),
];
const classEdges = (operation: Operation): EdgeClass[] =>
  (['lowercase', 'uppercase', 'digit', 'special'] as const).map((c) => userWith(`password without ${c === 'special' ? 'a special character' : c === 'digit' ? 'a digit' : `an ${c} letter`.replace('an lowercase', 'a lowercase')}`, 'password', missing(c), { operation, breaks: 'USR-PASSWORD-CLASSES' }));

/** USR-PASSWORD-LENGTH, USR-PASSWORD-CLASSES: the minimum length in characters, one under it, each class missing. */
export const USER_PASSWORD_EDGES: readonly EdgeClass[] = [...passwordEdges('create'), ...classEdges('create')];

/** USR-EMPLOYEE-CODE: codes that start with 0 (a server that stores a number loses it), and the first invalid lengths. */
export const USER_EMPLOYEE_CODE_EDGES: readonly EdgeClass[] = [
  userWith('employee_code that starts with 0', 'employee_code', code(1, 999), { mayBeHeld: true }),
  userWith('password whose only special character is a quote or a backslash', 'password', onlySpecial(QUOTES)),
  userWith('employee_code that starts with 00', 'employee_code', code(0, 99), { mayBeHeld: true, pack: 'create, 00' }),
  userWith('password whose only special character is one HTML or URLs treat apart', 'password', onlySpecial(MARKUP), { pack: 'create, 00' }),
  userWith('employee_code of 3 digits (a code that lost its leading 0)', 'employee_code', code(0, 999).map((c) => c.slice(1)), { breaks: 'USR-EMPLOYEE-CODE' }),
  userWith('employee_code of 5 digits', 'employee_code', fc.integer({ min: 0, max: 99_999 }).map((n) => String(n).padStart(5, '0')), { breaks: 'USR-EMPLOYEE-CODE' }),
  userWith('employee_code with a letter among 4 characters', 'employee_code', fc.tuple(code(0, 999), fc.constantFrom(...'aZx'), fc.integer({ min: 0, max: 3 })).map(([c, l, at]) => `${c.slice(0, at)}${l}${c.slice(at + 1)}`), { breaks: 'USR-EMPLOYEE-CODE' }),
  userWith('employee_code with a space inside', 'employee_code', fc.tuple(code(0, 9999), fc.integer({ min: 1, max: 3 })).map(([c, at]) => `${c.slice(0, at)} ${c.slice(at)}`), { breaks: 'USR-EMPLOYEE-CODE' }),
];

/** USR-ROLE-ID-VALUES, USR-BILLING-RATE-TYPE-VALUES: the first and last values of each range and one past each. */
export const USER_VALUE_EDGES: readonly EdgeClass[] = [
  userWith('role_id 1 (the first)', 'role_id', fc.constant(1)),
  userWith('billing_rate_type 0 (the first)', 'billing_rate_type', fc.constant(0)),
  userWith('password whose only special character is a regex metacharacter', 'password', onlySpecial(REGEX)),
  userWith('role_id 3 (the last)', 'role_id', fc.constant(3), { pack: 'create, last' }),
  userWith('billing_rate_type 1 (the last)', 'billing_rate_type', fc.constant(1), { pack: 'create, last' }),
  userWith('password whose only special character is another ASCII punctuation character', 'password', onlySpecial(REST), { pack: 'create, last' }),
  userWith('role_id 0 (one below the first)', 'role_id', fc.constant(0), { breaks: 'USR-ROLE-ID-VALUES' }),
  userWith('role_id 4 (one past the last)', 'role_id', fc.constant(4), { breaks: 'USR-ROLE-ID-VALUES' }),
  userWith('billing_rate_type -1 (one below the first)', 'billing_rate_type', fc.constant(-1), { breaks: 'USR-BILLING-RATE-TYPE-VALUES' }),
  userWith('billing_rate_type 2 (one past the last)', 'billing_rate_type', fc.constant(2), { breaks: 'USR-BILLING-RATE-TYPE-VALUES' }),
];

/** On edit (PUT): the password and employee_code edges. */
export const USER_EDIT_EDGES: readonly EdgeClass[] = [
  userWith('password of exactly 6 ASCII characters, one of each class', 'password', sixAscii, { operation: 'update' }),
  userWith('employee_code that starts with 0', 'employee_code', code(1, 999), { operation: 'update', mayBeHeld: true }),
  userWith('password of 5 ASCII characters with all four classes', 'password', fiveAscii, { operation: 'update', breaks: 'USR-PASSWORD-LENGTH' }),
  userWith('password without one of the four classes', 'password', fc.constantFrom(...ALL).chain(missing), { operation: 'update', breaks: 'USR-PASSWORD-CLASSES' }),
  userWith('employee_code of 3 digits (a code that lost its leading 0)', 'employee_code', code(0, 999).map((c) => c.slice(1)), { operation: 'update', breaks: 'USR-EMPLOYEE-CODE' }),
  userWith('employee_code of 5 digits', 'employee_code', fc.integer({ min: 0, max: 99_999 }).map((n) => String(n).padStart(5, '0')), { operation: 'update', breaks: 'USR-EMPLOYEE-CODE' }),
];
