import { createReadStream } from 'node:fs';
import { ClockcheckError } from '../errors.ts';

/** The largest PEM file clockcheck reads (`--ca`, a certificate, a key): a whole public CA bundle is about 220 KiB. */
export const MAX_PEM_BYTES = 1024 * 1024;

/**
 * Reads a PEM file the user named, at most MAX_PEM_BYTES: read as a stream, not stat'ed, so that a
 * device or a pipe (`--ca /dev/zero`) is refused once it passes the bound, not read into memory whole.
 * @throws ClockcheckError `CLOCKCHECK_INPUT_FILE` naming the file and the bound; a file that cannot be read throws as `fs` does.
 */
export async function readPemFile(file: string): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_PEM_BYTES) throw new ClockcheckError('CLOCKCHECK_INPUT_FILE', `${file}: over ${MAX_PEM_BYTES / 2 ** 20} MiB, not a PEM file clockcheck can use (a whole CA bundle is about 220 KiB)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
