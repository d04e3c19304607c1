import { describe, expect, it } from 'vitest';
import { ClockcheckError } from '../../src/errors.ts';
import { ApiError, errorBody, validationError } from '../../src/reference/http/api-response.ts';

describe('ApiError', () => {
  it('is a ClockcheckError with code CLOCKCHECK_REFERENCE_ANSWER, its status and message as thrown', () => {
    const error = new ApiError(404, 'No API route at /x.');
    expect(error).toBeInstanceOf(ClockcheckError);
    expect(error).toMatchObject({ code: 'CLOCKCHECK_REFERENCE_ANSWER', name: 'ApiError', status: 404, message: 'No API route at /x.', violations: [] });
    expect(errorBody(error)).toEqual({ message: 'No API route at /x.' });
  });

  it('carries a validation error\'s violations into the 422 body, grouped by field', () => {
    const error = validationError([{ rule: 'SCH-TITLE-REQUIRED', field: 'title', message: 'The title field is required.' }]);
    expect(error).toMatchObject({ code: 'CLOCKCHECK_REFERENCE_ANSWER', status: 422 });
    expect(errorBody(error)).toEqual({
      message: 'The given data was invalid.',
      errors: { title: ['The title field is required.'] },
      violations: [{ rule: 'SCH-TITLE-REQUIRED', field: 'title', message: 'The title field is required.' }],
    });
  });
});
