import type { Readable } from 'node:stream';

/** What was read of a response body. */
export interface BoundedBody {
  /** The first `keepBytes` bytes (or fewer). */
  readonly kept: Buffer;
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
 * Never rejects: a transport error ends the read and is returned.
 */
export async function readBoundedBody(
  body: Readable,
  announcedLength: number | undefined,
  keepBytes: number,
  abortBytes: number,
): Promise<BoundedBody> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  const result = (extra: Partial<BoundedBody>): BoundedBody => ({
    kept: Buffer.concat(chunks, kept),
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
        chunks.push(part);
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
