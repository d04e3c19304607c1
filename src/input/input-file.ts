import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SourceError } from './yaml-source.ts';

/** The largest profile clockcheck reads: a profile is a page of settings. */
export const MAX_PROFILE_BYTES = 1024 * 1024;

/** The largest suite file clockcheck reads (a regressions.yaml of many failed cases fits many times over). */
export const MAX_SUITE_BYTES = 4 * 1024 * 1024;

/**
 * Reads a file the user wrote (a profile, a suite) as UTF-8, refusing one larger than `maxBytes`
 * before reading it: a YAML document holds many times its size in memory, so a 50 MB file would
 * take gigabytes. A file that cannot be read throws as `readFile` does (the CLI names it).
 * @throws SourceError naming the file, its size and the limit.
 */
export async function readInputFile(file: string, shown: string, maxBytes: number, what: string): Promise<string> {
  const { size } = await stat(file);
  if (size > maxBytes) throw new SourceError(shown, 1, '', `is ${megabytes(size)}; a ${what} is at most ${megabytes(maxBytes)} (a larger one is not a ${what} clockcheck can use)`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  // Read, not stat'ed: a device or a pipe (/dev/zero, <(…)) has no size until it is read.
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw new SourceError(shown, 1, '', `is over ${megabytes(maxBytes)}; a ${what} is at most that (a larger one is not a ${what} clockcheck can use)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
