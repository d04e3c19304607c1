import { readFile, stat } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { z } from 'zod';
import { ClockcheckError } from '../errors.ts';

/** The largest HAR file `grade` reads (bytes): a recording beyond this is cut into several first. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

/** The largest body `grade` keeps of one entry, decoded and decompressed (bytes); a larger one is judged as left out. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

const header = z.looseObject({ name: z.string(), value: z.string() });
const headers = z.array(z.unknown()).default([]).transform((list) => list.flatMap((h) => { const parsed = header.safeParse(h); return parsed.success ? [parsed.data] : []; }));

/** One HAR 1.2 entry as `grade` reads it: tolerant of what real recorders leave out or add. */
const harEntry = z.looseObject({
  startedDateTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'),
  time: z.number().nonnegative().optional(),
  request: z.looseObject({
    method: z.string().min(1),
    url: z.string().refine((s) => URL.canParse(s), 'not an absolute URL'),
    headers,
    postData: z.looseObject({ mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() }).optional(),
  }),
  response: z.looseObject({
    status: z.number().int().min(0).max(999),
    headers,
    content: z.looseObject({ size: z.number().optional(), mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() }).optional(),
    _error: z.string().nullish(),
  }),
});
export type HarEntry = z.infer<typeof harEntry>;

const harLog = z.looseObject({ log: z.looseObject({ version: z.string().optional(), entries: z.array(z.unknown()) }) });

/** A body as recorded: its text (decoded, decompressed) or why it is not known. */
export type RecordedBody = { readonly known: true; readonly text: string; readonly bytes: number } | { readonly known: false; readonly why: string };

/** A HAR file as `grade` reads it: the entries it could read, in time order, and how many it could not. */
export interface HarRecording {
  readonly entries: readonly HarEntry[];
  /** Entries that are not HAR entries (no request URL, no status, no start time), left out. */
  readonly unreadable: number;
}

function trafficError(file: string, why: string): ClockcheckError {
  return new ClockcheckError('CLOCKCHECK_TRAFFIC', `${file}: ${why}`);
}

/**
 * Reads a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/): `log.entries`, each with
 * its request and response. A file that is not JSON, or has no `log.entries`, is an input error
 * (CLOCKCHECK_TRAFFIC, exit 2); an entry that cannot be read is counted and left out, as real
 * recordings hold odd entries (a blocked request, a browser's internal URL).
 * @throws ClockcheckError `CLOCKCHECK_INPUT_FILE` when the file cannot be read, `CLOCKCHECK_TRAFFIC` when it is not a HAR
 */
export async function readHar(file: string): Promise<HarRecording> {
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_HAR_BYTES) throw trafficError(file, `${size} bytes, more than grade reads (${MAX_HAR_BYTES}); split the recording`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ClockcheckError) throw error;
    throw new ClockcheckError('CLOCKCHECK_INPUT_FILE', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw trafficError(file, `not JSON (${(error as Error).message}); a HAR file is the JSON a browser's "Save all as HAR" writes`);
  }
  const log = harLog.safeParse(json);
  if (!log.success) throw trafficError(file, 'not a HAR file: no log.entries array (HAR 1.2)');
  const entries: HarEntry[] = [];
  let unreadable = 0;
  for (const raw of log.data.log.entries) {
    const entry = harEntry.safeParse(raw);
    if (entry.success) entries.push(entry.data);
    else unreadable++;
  }
  entries.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  return { entries, unreadable };
}

/** The value of a header (names in any case; several joined with ", "), or undefined. */
export function headerValue(list: readonly { name: string; value: string }[], name: string): string | undefined {
  const values = list.filter((h) => h.name.toLowerCase() === name.toLowerCase()).map((h) => h.value);
  return values.length === 0 ? undefined : values.join(', ');
}

/** The bytes of a recorded text: base64 when the recorder says so, else the text as UTF-8. */
function recordedBytes(text: string, encoding: string | undefined): Buffer {
  return encoding?.toLowerCase() === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

/**
 * The bytes as the server meant them: a body still compressed as its Content-Encoding says (some
 * recorders keep it so) is decompressed, within MAX_BODY_BYTES; one already decoded is kept.
 */
function decompressed(bytes: Buffer, contentEncoding: string | undefined): Buffer {
  const coding = contentEncoding?.toLowerCase().trim();
  const options = { maxOutputLength: MAX_BODY_BYTES };
  try {
    if ((coding === 'gzip' || coding === 'x-gzip') && bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzipSync(bytes, options);
    if (coding === 'deflate' && bytes[0] === 0x78) return inflateSync(bytes, options);
    if (coding === 'br' && !isMostlyText(bytes)) return brotliDecompressSync(bytes, options);
  } catch {
    return bytes;
  }
  return bytes;
}

function isMostlyText(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 256);
  let printable = 0;
  for (const b of sample) if (b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127) || b >= 0xc2) printable++;
  return sample.length === 0 || printable / sample.length > 0.95;
}

/** The response body of an entry, or why it is not known (left out by the recorder, too large). */
export function responseBody(entry: HarEntry): RecordedBody {
  const content = entry.response.content;
  if (content?.text === undefined) {
    // A size of 0 is an empty body (a HEAD, a 204); no size, or a size without the text, is a body left out.
    return content?.size === 0 ? { known: true, text: '', bytes: 0 } : { known: false, why: 'the recording left the response body out' };
  }
  const bytes = decompressed(recordedBytes(content.text, content.encoding), headerValue(entry.response.headers, 'content-encoding'));
  if (bytes.length > MAX_BODY_BYTES) return { known: false, why: `the response body is over ${MAX_BODY_BYTES} bytes` };
  // A recorder that keeps only the start of a body (clockcheck's own HAR past its keeping cap) says the whole size.
  if (typeof content.size === 'number' && content.size > bytes.length) return { known: false, why: `the recording kept ${bytes.length} of the body's ${content.size} bytes` };
  return { known: true, text: bytes.toString('utf8'), bytes: bytes.length };
}

/** The request body of an entry (none: known and empty), or why it is not known. */
export function requestBody(entry: HarEntry): RecordedBody {
  const post = entry.request.postData;
  if (post === undefined) {
    const length = Number(headerValue(entry.request.headers, 'content-length') ?? '0');
    return length > 0 ? { known: false, why: 'the recording left the request body out' } : { known: true, text: '', bytes: 0 };
  }
  if (post.text === undefined) return { known: false, why: 'the recording left the request body out' };
  const bytes = recordedBytes(post.text, post.encoding);
  if (bytes.length > MAX_BODY_BYTES) return { known: false, why: `the request body is over ${MAX_BODY_BYTES} bytes` };
  return { known: true, text: bytes.toString('utf8'), bytes: bytes.length };
}
