import { describe, expect, it } from 'vitest';
import { headParity } from '../../src/checks/head-parity.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { runCheck, type Reply } from '../scenarios/support.ts';

/** GET answers `get`; HEAD answers `head`. */
const target = (get: Reply, head: Reply) => (request: TargetRequest): Reply => (request.method === 'HEAD' ? head : get);
const GET_OK: Reply = { status: 200, body: '{"items":[]}', headers: { 'content-type': 'application/json; charset=utf-8' } };

describe('head-parity', () => {
  it('passes when HEAD has the status and media type of GET and no body', async () => {
    const outcome = await runCheck(headParity, { path: '/users', query: { page: 2 } }, target(GET_OK, { status: 200, headers: { 'content-type': 'Application/JSON' } }));
    expect(outcome.findings).toEqual([]);
    expect(outcome.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/users', { page: 2 }],
      ['HEAD', '/users', { page: 2 }],
    ]);
  });

  it('passes when both refuse alike, where GET is asked to answer without a 5xx (parity on errors)', async () => {
    const refused: Reply = { status: 404, headers: { 'content-type': 'application/json' } };
    expect(await runCheck(headParity, { path: '/nothing', get: 'not-5xx' }, target({ ...refused, body: '{}' }, refused))).toMatchObject({ status: 'passed', findings: [] });
  });

  it('is errored, never passed, when GET and HEAD both answer 500: parity needs a GET that succeeds', async () => {
    const crashed: Reply = { status: 500, headers: { 'content-type': 'application/json' } };
    const outcome = await runCheck(headParity, { path: '/users' }, target({ ...crashed, body: '{}' }, crashed));
    expect(outcome).toMatchObject({
      status: 'errored',
      findings: [],
      reason: 'GET /users answered 500 and HEAD answered 500: HEAD parity needs a GET that succeeds (2xx)',
    });
    expect((await runCheck(headParity, { path: '/nothing', get: 'not-5xx' }, target({ ...crashed, body: '{}' }, crashed))).reason).toBe(
      'GET /nothing answered 500 and HEAD answered 500: HEAD parity needs a GET answered without a 5xx',
    );
  });

  it('is errored when GET gets no answer, or (for the lists) a 4xx where a 2xx was needed', async () => {
    const down = await runCheck(headParity, { path: '/users' }, target({ error: 'CONNECTION_RESET' }, { status: 200 }));
    expect(down).toMatchObject({ status: 'errored', reason: 'GET /users got no response (CONNECTION_RESET) and HEAD answered 200: HEAD parity needs a GET that succeeds (2xx)' });
    const refused: Reply = { status: 401, headers: { 'content-type': 'application/json' } };
    expect((await runCheck(headParity, { path: '/users' }, target({ ...refused, body: '{}' }, refused))).status).toBe('errored');
  });

  it('fails HEAD-SUPPORTED when HEAD answers 405 or 501 where GET succeeds', async () => {
    for (const status of [405, 501]) {
      const outcome = await runCheck(headParity, { path: '/users' }, target(GET_OK, { status }));
      expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-SUPPORTED', expected: 'HEAD answered like GET (200)', actual: `HEAD ${status}` })]);
      expect(outcome.findings[0]!.exchangeIds).toHaveLength(2);
    }
  });

  it('fails HEAD-SUPPORTED when HEAD sends a body', async () => {
    const outcome = await runCheck(headParity, { path: '/users' }, target(GET_OK, { ...GET_OK }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-SUPPORTED', expected: 'HEAD without a body', actual: '12 bytes of body' })]);
  });

  it('fails HEAD-PARITY when the status differs', async () => {
    const outcome = await runCheck(headParity, { path: '/users' }, target(GET_OK, { status: 404, headers: { 'content-type': 'application/json' } }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-PARITY', expected: 'HEAD status 200, as GET', actual: 'HEAD status 404' })]);
  });

  it('fails HEAD-PARITY when the media type differs or is absent', async () => {
    const html = await runCheck(headParity, { path: '/users' }, target(GET_OK, { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(html.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-PARITY', actual: 'HEAD content-type text/html' })]);
    const none = await runCheck(headParity, { path: '/users' }, target(GET_OK, { status: 200 }));
    expect(none.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-PARITY', actual: 'HEAD content-type absent' })]);
  });

  it('fails HEAD-SUPPORTED with the transport error when HEAD gets no response to a GET that succeeds', async () => {
    const outcome = await runCheck(headParity, { path: '/users' }, target(GET_OK, { error: 'CONNECTION_RESET' }));
    expect(outcome.findings).toEqual([expect.objectContaining({ ruleId: 'HEAD-SUPPORTED', expected: 'answers to GET and HEAD', actual: 'no response: CONNECTION_RESET' })]);
  });
});
