import { z } from 'zod';
import type { BuiltinCheck } from './context.ts';
import { parseArgs, pathArg, queryArg, queryOf } from './args.ts';

const Args = z.strictObject({ path: pathArg, query: queryArg });
const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim().toLowerCase();

/** HEAD-SUPPORTED, HEAD-PARITY (§1): HEAD answers GET's status and content type, without a body. */
export const headParity: BuiltinCheck = async (ctx, raw) => {
  const args = parseArgs('head-parity', Args, raw);
  const query = queryOf(args.query);
  const get = await ctx.send({ method: 'GET', path: args.path, query });
  const head = await ctx.send({ method: 'HEAD', path: args.path, query });
  if (!get.response || !head.response) {
    ctx.fail('HEAD-SUPPORTED', 'answers to GET and HEAD', `no response: ${(get.error ?? head.error)?.code}`, [get, head]);
    return;
  }
  const [g, h] = [get.response, head.response];
  if (g.status < 400 && (h.status === 405 || h.status === 501)) {
    ctx.fail('HEAD-SUPPORTED', `HEAD answered like GET (${g.status})`, `HEAD ${h.status}`, [get, head]);
    return;
  }
  if (h.bodyBytes > 0) ctx.fail('HEAD-SUPPORTED', 'HEAD without a body', `${h.bodyBytes} bytes of body`, [head]);
  if (h.status !== g.status) ctx.fail('HEAD-PARITY', `HEAD status ${g.status}, as GET`, `HEAD status ${h.status}`, [get, head]);
  else if (mediaType(h.headers['content-type']) !== mediaType(g.headers['content-type'])) {
    ctx.fail('HEAD-PARITY', `HEAD content-type ${g.headers['content-type']}, as GET`, `HEAD content-type ${h.headers['content-type'] ?? 'absent'}`, [get, head]);
  }
};
