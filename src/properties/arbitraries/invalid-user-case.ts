import fc from 'fast-check';
import { USER_FIELDS } from '../../contract/payloads/user.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { omit, requiredFields } from './_internals/payload-edits.ts';
import { reEmail } from './_internals/re-email.ts';
import { invalidEmployeeCode } from './invalid-employee-code.ts';
import { invalidPassword } from './invalid-password.ts';
import { userCase } from './user-case.ts';
import { InternalError } from '../../errors.ts';

type Operation = 'create' | 'update';
type Breaker = (ctx: GeneratorContext, operation: Operation) => fc.Arbitrary<GeneratedCase>;

const base = (ctx: GeneratorContext, operation: Operation) => userCase(ctx, operation).map((c) => c.payload);

/** One field set to a bad value, the e-mail renewed so the case has an address of its own. */
const setting =
  (rule: RuleId, field: string, bad: () => fc.Arbitrary<{ value: unknown; label: string }>): Breaker =>
  (ctx, op) =>
    fc.tuple(base(ctx, op), bad()).map(([p, b]) => ({ payload: reEmail(ctx.uniqueTag, { ...p, [field]: b.value }), breaks: rule, label: b.label }));

const BREAKERS: Partial<Record<RuleId, Breaker>> = {
  'USR-PASSWORD-LENGTH': setting('USR-PASSWORD-LENGTH', 'password', () => invalidPassword('USR-PASSWORD-LENGTH').map((b) => ({ value: b.value, label: `${b.label}: ${b.value}` }))),
  'USR-PASSWORD-CLASSES': setting('USR-PASSWORD-CLASSES', 'password', () => invalidPassword('USR-PASSWORD-CLASSES').map((b) => ({ value: b.value, label: `${b.label}: ${b.value}` }))),
  'USR-EMPLOYEE-CODE': setting('USR-EMPLOYEE-CODE', 'employee_code', () => invalidEmployeeCode().map((b) => ({ value: b.value, label: `${b.label}: "${b.value}"` }))),
  'USR-ROLE-ID-VALUES': setting('USR-ROLE-ID-VALUES', 'role_id', () =>
    fc.oneof(fc.constantFrom(0, 4, 5, -1), fc.integer({ min: 6, max: 1000 })).map((value) => ({ value, label: `role_id ${value} (1, 2 or 3)` })),
  ),
  'USR-BILLING-RATE-TYPE-VALUES': setting('USR-BILLING-RATE-TYPE-VALUES', 'billing_rate_type', () =>
    fc.oneof(fc.constantFrom(2, 3, -1), fc.integer({ min: 4, max: 1000 })).map((value) => ({ value, label: `billing_rate_type ${value} (0 or 1)` })),
  ),
};

/** Create only: one of the four required fields left out (spec §4.2); edit is partial, so it has none. */
const requiredBreaker: Breaker = (ctx, op) =>
  fc
    .tuple(base(ctx, op), fc.constantFrom(...requiredFields(USER_FIELDS, 'create')))
    .map(([p, { field, rule }]) => ({ payload: reEmail(ctx.uniqueTag, omit(p, field)), breaks: rule, label: `create without ${field}` }));

function breakersFor(operation: Operation): Partial<Record<RuleId, Breaker>> {
  return operation === 'create' ? { ...BREAKERS, 'USR-CREATE-REQUIRED': requiredBreaker } : BREAKERS;
}

/** The rules an invalid user payload can break, per operation. */
export const USER_BREAKABLE_RULES: Readonly<Record<Operation, readonly RuleId[]>> = {
  create: Object.keys(breakersFor('create')) as RuleId[],
  update: Object.keys(breakersFor('update')) as RuleId[],
};

/**
 * A user payload that breaks exactly one rule (its `breaks`): a valid payload (with the four create
 * fields, on edit too) with one bad password, employee_code, role_id or billing_rate_type, or, on
 * create, one required field left out. `rules` restricts the rules broken (default: all of
 * USER_BREAKABLE_RULES[operation], equally likely).
 */
export function invalidUserCase(ctx: GeneratorContext, operation: Operation, rules?: readonly RuleId[]): fc.Arbitrary<GeneratedCase> {
  const breakers = breakersFor(operation);
  const chosen = rules ?? USER_BREAKABLE_RULES[operation];
  if (chosen.length === 0) throw new InternalError('invalidUserCase needs at least one rule');
  return fc.oneof(
    ...chosen.map((rule) => {
      const breaker = breakers[rule];
      if (!breaker) throw new InternalError(`a user ${operation} payload cannot be made to break ${rule}; it can break ${USER_BREAKABLE_RULES[operation].join(', ')}`);
      return breaker(ctx, operation);
    }),
  );
}
