import { describe, expect, it } from 'vitest';
import { PreconditionFailed, SkipCheck } from '../../src/checks/context.ts';
import { EXIT_CODE_OF_ERROR, EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { ClockcheckError } from '../../src/errors.ts';

describe('the signals a check throws', () => {
  it('are ClockcheckErrors with their own codes and the reason as the message', () => {
    const skipped = new SkipCheck('the profile has no webhook.sink');
    expect(skipped).toBeInstanceOf(ClockcheckError);
    expect(skipped).toMatchObject({ name: 'SkipCheck', code: 'CLOCKCHECK_CHECK_SKIPPED', message: 'the profile has no webhook.sink' });
    const unmet = new PreconditionFailed('GET /users answered 500');
    expect(unmet).toBeInstanceOf(ClockcheckError);
    expect(unmet).toMatchObject({ name: 'PreconditionFailed', code: 'CLOCKCHECK_PRECONDITION', message: 'GET /users answered 500' });
  });

  it('exit as a bug of clockcheck when one escapes the scenario runner that handles them', () => {
    expect(EXIT_CODE_OF_ERROR[new SkipCheck('x').code]).toBe(EXIT_CODES.internal);
    expect(EXIT_CODE_OF_ERROR[new PreconditionFailed('x').code]).toBe(EXIT_CODES.internal);
  });
});
