/**
 * Writes the JSON Schemas of the files a user writes into docs/ (docs/profile-schema.json,
 * docs/suite-schema.json, docs/workload-schema.json), each generated from the zod schema that
 * validates the file: `npm run schemas` after changing one. `npm run schemas -- --check` writes
 * nothing and exits 1 when a committed schema differs from its zod schema (the quick tier checks
 * the same: test/input/input-schemas.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputJsonSchema, type JsonSchema } from '../src/input/input-json-schema.ts';
import { INPUT_SCHEMA_FILES, type InputFileKind } from '../src/input/schema-modeline.ts';
import { profileSchema } from '../src/profile/profile.ts';
import { suiteSchema } from '../src/scenarios/format.ts';
import { workloadSchema } from '../src/workload/workload-file.ts';

const DOCS = join(import.meta.dirname, '..', 'docs');

/** Each kind of file a user writes, and its JSON Schema as generated now. */
export const INPUT_SCHEMAS: Readonly<Record<InputFileKind, () => JsonSchema>> = {
  profile: () => inputJsonSchema(profileSchema, 'profile'),
  suite: () => inputJsonSchema(suiteSchema, 'suite'),
  workload: () => inputJsonSchema(workloadSchema, 'workload'),
};

/** The path of a kind's schema in the repository (and in the package: docs/ ships). */
export function schemaPath(kind: InputFileKind): string {
  return join(DOCS, INPUT_SCHEMA_FILES[kind]);
}

/** A schema as the file holds it. */
export function schemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  let stale = 0;
  for (const kind of Object.keys(INPUT_SCHEMAS) as InputFileKind[]) {
    const text = schemaText(INPUT_SCHEMAS[kind]());
    const path = schemaPath(kind);
    let committed: string | null = null;
    try {
      committed = readFileSync(path, 'utf8');
    } catch {
      // Not written yet.
    }
    if (committed === text) continue;
    if (check) {
      console.error(`docs/${INPUT_SCHEMA_FILES[kind]} differs from its zod schema: run npm run schemas`);
      stale++;
    } else {
      writeFileSync(path, text);
      console.log(`written docs/${INPUT_SCHEMA_FILES[kind]}`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
