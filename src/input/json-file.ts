import { createReadStream } from 'node:fs';
import type { z } from 'zod';
import { ClockcheckError, type ErrorCode } from '../errors.ts';
import { JsonScanner } from './_internals/json-scanner.ts';
import { JsonTextError, KeptTooLargeError } from './_internals/json-scan-errors.ts';
import { keepShapeOf } from './_internals/keep-shape.ts';

/** Who reads a JSON file and what it must be: the words of every error about it. */
export interface JsonFileRole {
  /** Starts every message: the command or flag that reads it (`diff`). */
  readonly reader: string;
  /** What the file must be: `a clockcheck report.json`. */
  readonly what: string;
  /** What to give instead, ending every message. */
  readonly hint: string;
  /** The code of an error about its content (a file that cannot be read is CLOCKCHECK_INPUT_FILE). */
  readonly code: ErrorCode;
  /** The most of it kept in memory, in bytes: the parts `schema` reads, whatever the file's size. */
  readonly maxKeptBytes: number;
}

/** Chunks of the file as it streams: large enough that reading costs little, small beside any bound. */
const CHUNK_BYTES = 1024 * 1024;

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MiB`;
}

function unreadable(path: string, error: NodeJS.ErrnoException, role: JsonFileRole): ClockcheckError {
  const why: Record<string, string> = { ENOENT: 'no such file', EISDIR: 'a directory, not a file', EACCES: 'permission denied', ENOTDIR: 'a part of the path is not a directory' };
  return new ClockcheckError('CLOCKCHECK_INPUT_FILE', `${role.reader}: cannot read ${path}: ${why[error.code ?? ''] ?? error.code ?? error.message}; ${role.hint}`, { cause: error });
}

function notJson(path: string, error: JsonTextError | KeptTooLargeError, role: JsonFileRole): ClockcheckError {
  if (error instanceof KeptTooLargeError) {
    return new ClockcheckError(role.code, `${role.reader}: ${path} is not ${role.what}: the parts ${role.reader} reads of it pass ${mebibytes(error.maxKeptBytes)} at byte ${error.offset}; ${role.hint}`);
  }
  return new ClockcheckError(role.code, `${role.reader}: ${path} is not JSON: ${error.message}; ${role.hint}`);
}

/**
 * Reads a JSON file that may be gigabytes (a report whose exchanges hold large bodies) as a
 * stream, keeping only what `schema` reads (its objects' named fields, its arrays' items; see
 * keep-shape.ts), then validates that with `schema`. Memory is the kept part, at most
 * `role.maxKeptBytes`, whatever the file's size; the whole text is still checked as JSON. Any
 * readable stream will do (a pipe: `diff <(gunzip -c old.json.gz) new.json`).
 * @throws ClockcheckError, one line naming the file, what is wrong and `role.hint`: CLOCKCHECK_INPUT_FILE
 * when it cannot be read, `role.code` when it is not JSON, keeps more than the bound, or does not fit `schema`.
 */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, role: JsonFileRole): Promise<T> {
  const scanner = new JsonScanner(keepShapeOf(schema), role.maxKeptBytes);
  let kept: unknown;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) scanner.write(chunk as Buffer);
    kept = scanner.end();
  } catch (error) {
    if (error instanceof JsonTextError || error instanceof KeptTooLargeError) throw notJson(path, error, role);
    // The system's refusal (no such file, permission denied, an I/O error); anything else is a bug of ours.
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') throw unreadable(path, error as NodeJS.ErrnoException, role);
    throw error;
  }
  const parsed = schema.safeParse(kept);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClockcheckError(role.code, `${role.reader}: ${path} is not ${role.what} (${issue?.path.join('.') || 'its top level'}: ${issue?.message ?? ''}); ${role.hint}`);
  }
  return parsed.data;
}
