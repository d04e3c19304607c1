import type { Violation } from '../../contract/violation.ts';
import { ClockcheckError } from '../../errors.ts';

/** What a handler answers: a status, a JSON body, extra headers. Written out by the app. */
export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A refusal a handler throws; the app turns it into a JSON error response. The reference server's
 * own control flow (code `CLOCKCHECK_REFERENCE_ANSWER`), never an error of clockcheck's.
 */
export class ApiError extends ClockcheckError {
  constructor(
    readonly status: number,
    message: string,
    /** Field-level breaches, each with the spec rule it breaks (or a server-only reason). */
    readonly violations: readonly ServerViolation[] = [],
  ) {
    super('CLOCKCHECK_REFERENCE_ANSWER', message);
  }
}

/** A violation found by the server: a spec rule's, or a server-side check the spec does not name (rule null). */
export interface ServerViolation {
  readonly rule: Violation['ruleId'] | null;
  readonly field: string;
  readonly message: string;
}

/** 422 with the violations grouped by field (Laravel's shape) and listed with their rule IDs. */
export function validationError(violations: readonly ServerViolation[]): ApiError {
  return new ApiError(422, 'The given data was invalid.', violations);
}

/** Converts spec violations to server violations. */
export function fromSpec(violations: readonly Violation[]): ServerViolation[] {
  return violations.map((v) => ({ rule: v.ruleId, field: v.field, message: v.message }));
}

/** The JSON body of an ApiError. */
export function errorBody(error: ApiError): Record<string, unknown> {
  if (error.violations.length === 0) return { message: error.message };
  const errors: Record<string, string[]> = {};
  for (const v of error.violations) (errors[v.field || 'body'] ??= []).push(v.message);
  return { message: error.message, errors, violations: error.violations };
}

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
