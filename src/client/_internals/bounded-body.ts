import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** What was read of a response body. */
export interface BoundedBody {
  /** The first `keepBytes` bytes (or fewer), decoded as UTF-8. */
  readonly text: string;
  /** How many bytes `text` was decoded from. */
  readonly keptBytes: number;
  /** Bytes received in all. */
  readonly bytes: number;
  /** Stopped before the end: past `abortBytes`, or the transport failed (see `error`). */
  readonly incomplete: boolean;
  /** More than `abortBytes` arrived (or were announced), so reading stopped and the stream was destroyed. */
  readonly tooLarge: boolean;
  /** The error that ended reading early (a timeout, a reset). */
  readonly error?: unknown;
}

/**
 * Reads a body keeping at most `keepBytes` and stopping (destroying the stream, which aborts the
 * connection) once more than `abortBytes` arrived, so a huge body costs at most `keepBytes` of memory.
 * The kept bytes are decoded chunk by chunk, never joined into one buffer: a megabyte buffer per body
 * would come from malloc, and freed ones stay in its arenas (a run against a target sending 1 MB
 * bodies grew 30 MB outside the JavaScript heap that way).
 * Never rejects: a transport error ends the read and is returned.
 */
export async function readBoundedBody(
  body: Readable,
  announcedLength: number | undefined,
  keepBytes: number,
  abortBytes: number,
): Promise<BoundedBody> {
  const decoder = new StringDecoder('utf8');
  const pieces: string[] = [];
  let kept = 0;
  let bytes = 0;
  const result = (extra: Partial<BoundedBody>): BoundedBody => ({
    text: pieces.join('') + decoder.end(),
    keptBytes: kept,
    bytes,
    incomplete: false,
    tooLarge: false,
    ...extra,
  });
  if (announcedLength !== undefined && announcedLength > abortBytes) {
    body.destroy();
    return result({ incomplete: true, tooLarge: true });
  }
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (kept < keepBytes) {
        const part = chunk.length <= keepBytes - kept ? chunk : chunk.subarray(0, keepBytes - kept);
        pieces.push(decoder.write(part));
        kept += part.length;
      }
      if (bytes > abortBytes) {
        body.destroy();
        return result({ incomplete: true, tooLarge: true });
      }
    }
  } catch (error) {
    return result({ incomplete: true, error });
  }
  return result({});
}
