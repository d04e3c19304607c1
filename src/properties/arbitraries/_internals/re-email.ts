import { stableHash } from './stable-hash.ts';
import { uniqueEmail } from './unique-email.ts';
import { omit } from './payload-edits.ts';

/**
 * After an edit to a user payload: a fresh unique e-mail derived from the old one and the edited
 * payload, in the same place, so a case derived from another never shares its address.
 */
export function reEmail(tag: string, payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (typeof payload.email !== 'string') return { ...payload };
  const email = uniqueEmail(tag, stableHash(payload.email), omit(payload, 'email'));
  return Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, k === 'email' ? email : v]));
}
