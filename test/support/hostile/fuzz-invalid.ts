import fc from 'fast-check';
import {
  invalidBreakCase,
  invalidScheduleCase,
  invalidTimesheetCase,
  invalidUserCase,
} from '../../../src/properties/arbitraries/index.ts';
import type { GeneratedCase, GeneratorContext } from '../../../src/properties/family.ts';
import { seedContext } from '../../../src/properties/seed-context.ts';
import { PREFIX, type HostileRequest } from './hostile-request.ts';

/**
 * The operations of `clockcheck fuzz` (src/cli/commands/fuzz.ts) with their invalid generators and
 * the request each is sent with; the IDs in update paths are the reference seed's (user 1, schedule 1).
 */
const OPERATIONS: ReadonlyArray<{
  readonly name: string;
  readonly method: 'POST' | 'PUT';
  readonly path: string;
  readonly invalid: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;
}> = [
  { name: 'schedule', method: 'POST', path: '/schedules', invalid: (ctx) => invalidScheduleCase(ctx, 'create') },
  { name: 'schedule-update', method: 'PUT', path: '/schedules/1', invalid: (ctx) => invalidScheduleCase(ctx, 'update') },
  { name: 'user', method: 'POST', path: '/users', invalid: (ctx) => invalidUserCase(ctx, 'create') },
  { name: 'user-edit', method: 'PUT', path: '/users/1', invalid: (ctx) => invalidUserCase(ctx, 'update') },
  { name: 'timesheet', method: 'POST', path: '/timesheets', invalid: (ctx) => invalidTimesheetCase(ctx) },
  { name: 'break', method: 'POST', path: '/breaks', invalid: (ctx) => invalidBreakCase(ctx) },
];

/**
 * `count` invalid cases of the fuzz generators, spread evenly over every operation (the first ones
 * take the remainder), the same for the same seed. Each breaks exactly one rule of the spec.
 */
export function fuzzInvalidRequests(count: number, seed: number): HostileRequest[] {
  const ctx = seedContext('America/Chicago', 'hostile');
  return OPERATIONS.flatMap((operation, i) => {
    const share = Math.floor(count / OPERATIONS.length) + (i < count % OPERATIONS.length ? 1 : 0);
    if (share === 0) return [];
    return fc.sample(operation.invalid(ctx), { seed: seed + i, numRuns: share }).map(
      (c): HostileRequest => ({
        category: 'fuzz-invalid',
        label: `${operation.name} breaking ${c.breaks}: ${c.label}`,
        method: operation.method,
        path: `${PREFIX}${operation.path}`,
        body: JSON.stringify(c.payload),
      }),
    );
  });
}
