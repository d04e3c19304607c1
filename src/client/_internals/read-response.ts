import type { Dispatcher } from 'undici';
import { boundBroken, MAX_HEADER_COUNT } from '../connection-bounds.ts';
import type { ExchangeResponse, TransportError } from '../exchange.ts';
import { LARGE_BODIES } from '../large-body-collector.ts';
import { transportFailure } from '../transport-error.ts';
import { readBoundedBody } from './bounded-body.ts';

/** What an exchange keeps of a response: the response as read, and the error that cut it short. */
export interface ReadResponse {
  readonly response?: ExchangeResponse;
  readonly error?: TransportError;
}

/**
 * A response as an exchange keeps it: its head, and its body up to `keepBytes`, read no further than
 * `abortBytes`. A head of more than MAX_HEADER_COUNT headers is no response, only the bound it broke
 * (its body is not read); a body cut short (too large, a timeout, a reset) keeps what arrived, with
 * the error.
 */
export async function readResponse(response: Pick<Dispatcher.ResponseData, 'statusCode' | 'headers' | 'body'>, keepBytes: number, abortBytes: number): Promise<ReadResponse> {
  if (Object.keys(response.headers).length > MAX_HEADER_COUNT) {
    response.body.destroy();
    return { error: { code: 'RESPONSE_TOO_LARGE', message: boundBroken('header-count', MAX_HEADER_COUNT) } };
  }
  const headers = flatHeaders(response.headers);
  const announced = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const read = await readBoundedBody(response.body, announced, keepBytes, abortBytes);
  LARGE_BODIES.note(read.keptBytes);
  const text = read.text;
  const truncated = read.incomplete || read.bytes > read.keptBytes;
  const kept: ExchangeResponse = {
    status: response.statusCode,
    headers,
    body: text,
    bodyBytes: read.bytes,
    bodyTruncated: truncated,
  };
  const error: TransportError | undefined = read.tooLarge
    ? { code: 'RESPONSE_TOO_LARGE', message: `the response body exceeded ${abortBytes} bytes; reading stopped after ${read.bytes}` }
    : read.error === undefined
      ? undefined
      : transportFailure(read.error);
  return { response: kept, ...(error === undefined ? {} : { error }) };
}

/** Header names are lower-case already (undici); repeated headers are joined with `, `. */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
