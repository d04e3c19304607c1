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

/**
 * The company's record named by a path parameter (requireRecord), as the tenant faults look it up:
 * under `byIdAlone` the shared table's (a lookup by ID alone: another company's record is found and
 * changed); under `foreignForbidden` another company's record is refused 403 while an ID that never
 * existed is 404 (an existence oracle: the answer tells which IDs other companies have).
 */
export function requireOwnRecord<T extends StoredRecord>(scope: { get(id: number): T | undefined; readonly shared: { get(id: number): T | undefined } }, rawId: string | undefined, kind: string, faults: { readonly byIdAlone: boolean; readonly foreignForbidden: boolean }): T {
  if (faults.byIdAlone) return requireRecord(scope.shared, rawId, kind);
  const id = /^\d+$/.test(rawId ?? '') ? Number(rawId) : NaN;
  if (faults.foreignForbidden && Number.isSafeInteger(id) && scope.get(id) === undefined && scope.shared.get(id) !== undefined) throw new ApiError(403, 'This action is unauthorized.');
  return requireRecord(scope, rawId, kind);
}

/** The JSON body as an object, or a 422 when the body is absent, an array or a scalar. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(422, 'The request body must be a JSON object.', [{ rule: null, field: '', message: 'expected a JSON object' }]);
  }
  return body as Record<string, unknown>;
}
