import { ApiError } from '../http/api-response.ts';
import type { StoredRecord } from '../store.ts';

/**
 * The record named by a path parameter, or a 404 ApiError. Non-numeric IDs are 404 too. `repo` is a
 * company's scope (company-scope.ts): another company's record is answered as one that never existed.
 */
export function requireRecord<T extends StoredRecord>(repo: { get(id: number): T | undefined }, rawId: string | undefined, kind: string): T {
  const id = /^\d+$/.test(rawId ?? '') ? Number(rawId) : NaN;
  const record = Number.isSafeInteger(id) ? repo.get(id) : undefined;
  if (!record) throw new ApiError(404, `${kind} ${rawId} not found.`);
  return record;
}

/** The JSON body as an object, or a 422 when the body is absent, an array or a scalar. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(422, 'The request body must be a JSON object.', [{ rule: null, field: '', message: 'expected a JSON object' }]);
  }
  return body as Record<string, unknown>;
}
