import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { plainHttp } from '../../src/checks/plain-http.ts';
import { runCheck, type Reply } from '../scenarios/support.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A plain-TCP server on 127.0.0.1 that answers each connection with `answer` (raw HTTP text), or closes it. */
async function plainServer(answer: string | null): Promise<{ origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket: Socket) => {
    socket.once('data', (chunk) => {
      requests.push(chunk.toString('latin1'));
      if (answer === null) socket.destroy();
      else socket.end(answer);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const httpsAnswer = (): Reply => ({ status: 401, json: { message: 'Unauthenticated.' } });
const http = (status: string, body: string, type = 'application/json') => `HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

// Port 80 of 127.0.0.1 is probed too; where nothing listens there it is refused and passes.
describe('plain-http', () => {
  it('fails HTTPS-ONLY when plain HTTP serves API data with a 2xx', async () => {
    const { origin, requests } = await plainServer(http('200 OK', '{"items":[]}'));
    const outcome = await runCheck(plainHttp, {}, httpsAnswer, { origin });
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'HTTPS-ONLY', actual: 'plain HTTP 200: {"items":[]}' })]);
    expect(requests[0]).toMatch(/^GET \/api\/public\/users HTTP\/1\.1\r\n/);
    expect(requests[0]).not.toMatch(/authorization/i);
  });

  it('fails HTTPS-ONLY when plain HTTP repeats the HTTPS answer', async () => {
    const { origin } = await plainServer(http('401 Unauthorized', '{"message":"Unauthenticated."}'));
    const outcome = await runCheck(plainHttp, {}, httpsAnswer, { origin });
    expect(outcome.findings.map((f) => f.ruleId)).toEqual(['HTTPS-ONLY']);
  });

  it('passes a redirect, an HTML page, a different error and a closed connection', async () => {
    for (const answer of [http('301 Moved Permanently', '', 'text/plain'), http('200 OK', '<html>use https</html>', 'text/html'), http('400 Bad Request', '{"message":"use https"}'), null]) {
      const { origin } = await plainServer(answer);
      expect((await runCheck(plainHttp, {}, httpsAnswer, { origin })).findings, String(answer)).toEqual([]);
    }
  });

  it('is errored, never passed, when plain HTTP answers but HTTPS answered 500 or nothing (nothing to compare with)', async () => {
    const { origin } = await plainServer(http('500 Internal Server Error', '{"message":"Server Error"}'));
    const crashed = await runCheck(plainHttp, {}, () => ({ status: 503, json: { message: 'Server Error' } }), { origin });
    expect(crashed.status).toBe('errored');
    expect(crashed.findings).toEqual([]);
    expect(crashed.reason).toMatch(/^plain HTTP on port \d+ answered 500.*, and GET \/users over HTTPS answered 503: a plain answer is judged against an HTTPS answer that is neither a 5xx nor a 429$/);
    const down = await runCheck(plainHttp, {}, () => ({ error: 'CONNECTION_REFUSED' as const }), { origin });
    expect(down.status).toBe('errored');
  });

  it('passes closed plain ports whatever HTTPS answered (they serve nothing)', async () => {
    const { origin } = await plainServer(null);
    expect((await runCheck(plainHttp, {}, () => ({ status: 500, json: {} }), { origin })).status).toBe('passed');
  });

  it('sends the HTTPS request without a token', async () => {
    const { origin } = await plainServer(null);
    const outcome = await runCheck(plainHttp, {}, httpsAnswer, { origin });
    expect(outcome.requests).toEqual([{ method: 'GET', path: '/users', auth: 'none' }]);
  });
});
