import { parseJsonExact } from '../../contract/json-text.ts';
import type { IncomingMessage } from 'node:http';

/** Refuses a request: answers `status` with `why`, closing the connection when `close`. */
export type Refuse = (status: number, why: string, close?: boolean) => void;

/**
 * Reads a request's body as JSON, at most `maxBody` bytes: a larger one (by its content-length or
 * as it arrives) is refused with 413 and not read further, text that is not JSON with 400.
 * Calls `then` with the body and its JSON once it is whole.
 */
export function readBoundedJson(req: IncomingMessage, maxBody: number, refuse: Refuse, then: (body: string, json: unknown) => void): void {
  if (Number(req.headers['content-length'] ?? 0) > maxBody) return refuse(413, 'body too large', true);
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBody) {
      if (!over) refuse(413, 'body too large', true);
      over = true;
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return;
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = parseJsonExact(body);
    } catch {
      return refuse(400, 'not JSON');
    }
    then(body, json);
  });
}
