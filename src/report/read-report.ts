import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../errors.ts';
import { REPORT_FILES } from './write-reports.ts';

/** A report.json this clockcheck wrote, read back and checked against `schema` (the part the reader needs). */
export interface ReadReport<T> {
  readonly path: string;
  readonly report: T;
}

/**
 * Reads `given`, a report.json or the run directory that holds one, and parses the part `schema`
 * describes. `command` prefixes the errors (`--last-failed`, `diff`).
 * @throws UsageError when there is no such file, it is not JSON, or not a clockcheck report.json.
 */
export async function readReportFile<T>(given: string, schema: z.ZodType<T>, command: string): Promise<ReadReport<T>> {
  const info = await stat(given).catch(() => null);
  if (info === null) throw new UsageError(`${command}: no report at ${given}`);
  return readReportJson(info.isDirectory() ? join(given, REPORT_FILES.json) : given, schema, command);
}

/** As readReportFile, for a path known to be the report.json itself. */
export async function readReportJson<T>(path: string, schema: z.ZodType<T>, command: string): Promise<ReadReport<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`${command}: cannot read ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${command}: ${path} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${command}: ${path} is not a clockcheck report.json (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`);
  }
  return { path, report: parsed.data };
}
