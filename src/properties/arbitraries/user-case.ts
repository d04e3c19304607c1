import fc from 'fast-check';
import { USER_OPTION_FLAGS } from '../../contract/payloads/user.ts';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { defined } from './_internals/payload-edits.ts';
import { uniqueEmail } from './_internals/unique-email.ts';
import { password } from './password.ts';

export interface UserCaseOptions {
  /**
   * Edit only: send a random non-empty subset of the editable fields, which may leave out first_name,
   * last_name, email and password. Default false: those four are always sent, so the edit is valid
   * whichever way the target reads USR-EDIT-REQUIRED (spec §4.2 leaves it open).
   */
  readonly partial?: boolean;
  /** Always send role_id and billing_rate_type (default: sometimes). */
  readonly values?: boolean;
}

// Names in several scripts, as people have them: accents composed and decomposed (Rene\u0301e), CJK, apostrophes.
const FIRST = ['Ada', 'Max', 'Zoë', 'José', 'Łukasz', 'Mei', 'Olu', "D'Arcy", 'Rene\u0301e', '小龍'];
const LAST = ['Lovelace', 'Müller', 'García-López', "O'Brien", 'Nakamura', 'Smith', '李', 'Ørsted-Åberg'];
const REQUIRED = ['first_name', 'last_name', 'email', 'password'] as const;
const OPTIONAL = ['phone', 'company_employee_id', 'role_id', 'track_location', 'track_mileage', 'pay_rate', 'billing_rate_type'] as const;

/**
 * A valid user payload (spec §2.2, §4.2) for create or edit, as a GeneratedCase. A unique e-mail
 * `${ctx.uniqueTag}.${10 lowercase letters}@example.com` (the letters differ for every distinct
 * payload), a valid password, and sometimes phone, company_employee_id, role_id 1..3, the tracking
 * flags, pay_rate, billing_rate_type 0..1 and, on create, the *_option flags. Never employee_code (a
 * target may require it unique among users, and 4 digits leave too few codes to draw at random) and
 * never custom_fields (its keys are IDs of the target's own custom fields).
 */
export function userCase(ctx: GeneratorContext, operation: 'create' | 'update', options: UserCaseOptions = {}): fc.Arbitrary<GeneratedCase> {
  const always = options.values ? (['role_id', 'billing_rate_type'] as const) : [];
  const partial = operation === 'update' && options.partial === true;
  const keys = partial
    ? fc.subarray([...REQUIRED, ...OPTIONAL], { minLength: 1 })
    : fc.subarray([...OPTIONAL]).map((extra) => [...REQUIRED, ...extra]);
  return fc
    .record({
      keys,
      nonce: fc.noShrink(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 }))),
      first_name: fc.constantFrom(...FIRST),
      last_name: fc.constantFrom(...LAST),
      password: password(),
      phone: fc.constantFrom('+1 555 0100', '+44 20 7946 0000', '555-0199'),
      role_id: fc.integer({ min: 1, max: 3 }),
      track_location: fc.boolean(),
      track_mileage: fc.boolean(),
      pay_rate: fc.integer({ min: 0, max: 500 }),
      billing_rate_type: fc.integer({ min: 0, max: 1 }),
      options: fc.record(Object.fromEntries(USER_OPTION_FLAGS.map((f) => [f, fc.boolean()])) as Record<(typeof USER_OPTION_FLAGS)[number], fc.Arbitrary<boolean>>, { requiredKeys: [] }),
    })
    .map((g): GeneratedCase => {
      const sent = new Set<string>([...g.keys, ...always]);
      const pick = (name: string, value: unknown) => (sent.has(name) ? value : undefined);
      const rest = defined({
        first_name: pick('first_name', g.first_name),
        last_name: pick('last_name', g.last_name),
        phone: pick('phone', g.phone),
        password: pick('password', g.password),
        role_id: pick('role_id', g.role_id),
        track_location: pick('track_location', g.track_location),
        track_mileage: pick('track_mileage', g.track_mileage),
        pay_rate: pick('pay_rate', g.pay_rate),
        billing_rate_type: pick('billing_rate_type', g.billing_rate_type),
        ...(operation === 'create' ? g.options : {}),
      });
      const email = uniqueEmail(ctx.uniqueTag, g.nonce, rest);
      const payload = defined({
        first_name: rest.first_name,
        last_name: rest.last_name,
        email: pick('email', email),
        ...rest,
        company_employee_id: pick('company_employee_id', `emp-${email.slice(ctx.uniqueTag.length + 1, ctx.uniqueTag.length + 7)}`),
      });
      const fields = Object.keys(payload).filter((k) => !(REQUIRED as readonly string[]).includes(k));
      const label = operation === 'create' ? `valid create${fields.length ? ` with ${fields.join(', ')}` : ''}` : `valid edit of ${Object.keys(payload).join(', ')}`;
      return { payload, label };
    });
}
