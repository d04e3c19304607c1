import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The spec document clockcheck certifies against, vendored at spec/. */
export const SPEC_PATH = fileURLToPath(new URL('../../spec/time-tracking-public-api.md', import.meta.url));

/** Title and SHA-256 of the vendored spec document. */
export function specIdentity(): { title: string; sha256: string } {
  const text = readFileSync(SPEC_PATH, 'utf8');
  const title = /^# (.+)$/m.exec(text)?.[1] ?? 'spec';
  return { title, sha256: createHash('sha256').update(text).digest('hex') };
}

