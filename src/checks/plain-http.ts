import { connect } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { builtinCheck, definiteAnswer, describeAnswer } from './context.ts';

interface PlainAnswer {
  readonly status: number | null;
  readonly body: string;
}

/** Sends one plain-HTTP request (no token: a secret never travels in clear text) and reads the answer. */
function plainRequest(host: string, port: number, path: string, timeoutMs = 3000): Promise<PlainAnswer> {
  return new Promise((resolve) => {
    let data = '';
    const socket = connect({ host, port });
    const finish = () => {
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      const split = data.indexOf('\r\n\r\n');
      resolve({ status: status ? Number(status[1]) : null, body: split >= 0 ? data.slice(split + 4) : '' });
    };
    socket.setTimeout(timeoutMs, finish);
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (data.length > 65536) finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
  });
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * HTTPS-ONLY (§1, §5.6): plain HTTP to the target's host (on its port, and on port 80) yields no API
 * data. The same unauthenticated request is sent over HTTPS; a plain answer that is a 2xx, or that
 * repeats the HTTPS answer (same status, same JSON), means the API is served over plain HTTP.
 * Refusals, closed connections, redirects and "use HTTPS" pages all pass. A plain answer is judged
 * against the HTTPS one, so when plain HTTP answered but HTTPS gave no answer or a 5xx, there is
 * nothing to compare it with: errored, not passed. Closed plain ports pass on their own, once the
 * target has answered over HTTPS (a target that answers nothing shows nothing by a closed port).
 */
export const plainHttp = builtinCheck(z.strictObject({}), async (ctx) => {
  const url = new URL(ctx.origin);
  const port = Number(url.port || 443);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const path = `${ctx.profile.api_prefix}/users`;
  const https = await ctx.send({ method: 'GET', path: '/users', auth: 'none' });
  if (!https.response) ctx.precondition(`GET /users over HTTPS ${describeAnswer(https)}: a target that does not answer over HTTPS shows nothing by a silent plain-HTTP port`);
  const httpsJson = https.response?.json;
  const httpsShown = definiteAnswer(https);
  const unjudged: string[] = [];
  for (const probePort of [...new Set([port, 80])]) {
    const paced = await ctx.acquire();
    const answer = await plainRequest(host, probePort, path).finally(() => paced.done());
    if (answer.status === null) continue;
    const json = parseJson(answer.body);
    // A 2xx HTML page (another site on port 80) is not API data; JSON is.
    const served = json !== undefined && ((answer.status >= 200 && answer.status < 300) || (answer.status === https.response?.status && isDeepStrictEqual(json, httpsJson)));
    if (served) {
      ctx.fail('HTTPS-ONLY', `no API answer over plain HTTP on port ${probePort}`, `plain HTTP ${answer.status}: ${answer.body.slice(0, 120)}`, [https]);
    } else if (!httpsShown) unjudged.push(`plain HTTP on port ${probePort} answered ${answer.status}`);
  }
  if (unjudged.length > 0) {
    ctx.precondition(`${unjudged.join(', ')}, and GET /users over HTTPS ${describeAnswer(https)}: a plain answer is judged against an HTTPS answer that is neither a 5xx nor a 429`);
  }
});
