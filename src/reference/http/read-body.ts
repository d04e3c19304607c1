import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-response.ts';

/** Requests larger than this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads the whole request body as text (empty string when there is none); a 413 ApiError when it is
 * larger than MAX_BODY_BYTES, thrown only once the body has been read to its end: leaving the loop
 * early destroys the request mid-body, which resets the connection or leaves a keep-alive client's
 * next request, queued behind the unread rest, without an answer. (Node's requestTimeout bounds a
 * body that never ends.)
 */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk); // past the limit: read on, keep nothing
  }
  if (size > MAX_BODY_BYTES) throw new ApiError(413, `Request body larger than ${MAX_BODY_BYTES} bytes.`);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON request body (with `parse`, JSON.parse by default); undefined for an empty body; a 400 ApiError for malformed JSON. */
export function parseJsonBody(text: string, parse: (text: string) => unknown = JSON.parse): unknown {
  if (text.trim() === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    throw new ApiError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}
