import { toolVersion } from '../version.ts';

/**
 * The files a user writes and the JSON Schema of each, as the package ships it in docs/ (generated
 * from the zod schema that validates the file: `npm run schemas`, scripts/input-schemas.ts).
 */
export const INPUT_SCHEMA_FILES = {
  profile: 'profile-schema.json',
  suite: 'suite-schema.json',
  workload: 'workload-schema.json',
} as const;

/** A kind of file a user writes: a target profile, a suite of scenarios, a workload. */
export type InputFileKind = keyof typeof INPUT_SCHEMA_FILES;

/**
 * Where a schema of this version of clockcheck is published: jsDelivr's copy of the npm package's
 * docs/<file>. The one address that resolves wherever the profile sits, for a project that
 * installed clockcheck and for one that runs it with npx (which leaves no node_modules/clockcheck
 * to point at); pinned to the version, so the editor checks the file against the rules of the
 * clockcheck that reads it, not the latest.
 */
export function schemaUrl(kind: InputFileKind, version: string = toolVersion()): string {
  return `https://cdn.jsdelivr.net/npm/clockcheck@${version}/docs/${INPUT_SCHEMA_FILES[kind]}`;
}

/**
 * The comment that names a file's schema to the YAML language server (VS Code's YAML extension and
 * other editors), so it completes and checks the keys as the user types. A comment: it changes
 * nothing of what clockcheck reads.
 */
export function schemaModeline(kind: InputFileKind, version: string = toolVersion()): string {
  return `# yaml-language-server: $schema=${schemaUrl(kind, version)}`;
}
