import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../errors.ts';
import { readJsonFile } from '../input/json-file.ts';
import { REPORT_FILES } from '../report/write-reports.ts';

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

/** The most of a report kept in memory: the parts a reader's schema names (check IDs, statuses, rules), whatever the report's size. */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * As readReportFile, for a path known to be the report.json itself: read as a stream, keeping only
 * what `schema` reads, so a report of gigabytes (large bodies kept) costs its checks' IDs, not its size.
 */
export async function readReportJson<T>(path: string, schema: z.ZodType<T>, command: string): Promise<ReadReport<T>> {
  const report = await readJsonFile(path, schema, {
    reader: command,
    what: 'a clockcheck report.json',
    hint: 'give the report.json a clockcheck run wrote, or the run directory that holds it',
    code: 'CLOCKCHECK_USAGE',
    maxKeptBytes: MAX_KEPT_BYTES,
  });
  return { path, report };
}
