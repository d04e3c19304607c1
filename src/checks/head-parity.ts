import { z } from 'zod';
import { builtinCheck, describeAnswer, served } from './context.ts';
import { pathArg, queryArg, queryOf } from './args.ts';
import type { Exchange } from '../client/exchange.ts';

const Args = z.strictObject({
  path: pathArg,
  query: queryArg,
  /**
   * What GET must answer for HEAD to be compared with it: `success` (a 2xx, the default), or
   * `not-5xx` for parity on errors (a 4xx other than 429, or a 2xx where the target ignores the query).
   */
  get: z.enum(['success', 'not-5xx']).default('success'),
});
const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim().toLowerCase();

/**
 * HEAD-SUPPORTED, HEAD-PARITY (§1): HEAD answers GET's status and content type, without a body.
 * GET is the baseline: one that is not answered as `get` asks (a 5xx, no response) shows nothing to
 * be on par with, so the check ends errored (two 500s are no parity), never passed.
 */
export const headParity = builtinCheck(Args, async (ctx, args) => {
  const query = queryOf(args.query);
  const get = await ctx.send({ method: 'GET', path: args.path, query });
  const head = await ctx.send({ method: 'HEAD', path: args.path, query });
  const shown = get.response !== undefined && !get.error && (args.get === 'success' ? served(get) : get.response.status < 500 && get.response.status !== 429);
  if (!shown) {
    const wanted = args.get === 'success' ? 'a GET that succeeds (2xx)' : 'a GET answered without a 5xx';
    ctx.precondition(`GET ${args.path} ${describeAnswer(get)} and HEAD ${describeAnswer(head)}: HEAD parity needs ${wanted}`);
  }
  if (!head.response) {
    ctx.fail('HEAD-SUPPORTED', 'answers to GET and HEAD', `no response: ${head.error?.code}`, [get, head]);
    return;
  }
  const [g, h] = [get.response!, head.response];
  if (g.status < 400 && (h.status === 405 || h.status === 501)) {
    ctx.fail('HEAD-SUPPORTED', `HEAD answered like GET (${g.status})`, `HEAD ${h.status}`, [get, head]);
    return;
  }
  if (h.bodyBytes > 0) ctx.fail('HEAD-SUPPORTED', 'HEAD without a body', `${h.bodyBytes} bytes of body`, [head]);
  if (h.status !== g.status) ctx.fail('HEAD-PARITY', `HEAD status ${g.status}, as GET`, `HEAD status ${h.status}`, [get, head]);
  else if (mediaType(h.headers['content-type']) !== mediaType(g.headers['content-type'])) {
    ctx.fail('HEAD-PARITY', `HEAD content-type ${g.headers['content-type']}, as GET`, `HEAD content-type ${h.headers['content-type'] ?? 'absent'}`, [get, head]);
  } else await judgeContentLength(ctx, args.path, query, get, head);
});

/**
 * HEAD-CONTENT-LENGTH (RFC 9110 §9.3.2, §8.6): a Content-Length on HEAD is the length GET's body has.
 * GET is asked again before a mismatch is judged: a body that changed between the two GETs (a list
 * written to meanwhile) proves nothing, and the check says so instead.
 */
async function judgeContentLength(ctx: Parameters<Parameters<typeof builtinCheck>[1]>[0], path: string, query: Readonly<Record<string, string | number>>, get: Exchange, head: Exchange): Promise<void> {
  const said = lengthOf(head.response?.headers['content-length']);
  const length = bodyLength(get);
  if (said === null || length === null || said === length) return;
  const again = await ctx.send({ method: 'GET', path, query });
  if (bodyLength(again) !== length) {
    ctx.note(`HEAD's Content-Length (${said}) is not GET's body length (${length}), but a second GET answered ${bodyLength(again) ?? 'no complete body'}: not judged`);
    return;
  }
  ctx.fail('HEAD-CONTENT-LENGTH', `HEAD's Content-Length ${length}, the length of GET's body (or none)`, `Content-Length: ${said}`, [get, head, again]);
}

/** A Content-Length header's value, or null. */
function lengthOf(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** The length of a GET's body: its Content-Length, else the bytes read when the body was read whole; null when unknown. */
function bodyLength(exchange: Exchange): number | null {
  const response = exchange.response;
  if (!response) return null;
  return lengthOf(response.headers['content-length']) ?? (response.bodyTruncated ? null : response.bodyBytes);
}
