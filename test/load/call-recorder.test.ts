import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/client/redaction.ts';
import { CallRecorder } from '../../src/load/_internals/call-recorder.ts';

/** One autocannon connection's client, as the recorder listens to it. */
function fakeClient(): EventEmitter {
  return new EventEmitter();
}

function recorder(keepExchanges: boolean, latencies: number[]): CallRecorder {
  return new CallRecorder({
    requests: [{ method: 'GET', url: 'https://127.0.0.1:1/api/public/users' }],
    requestHeaders: { authorization: 'cc-recorder-token-0a1b2c3d' },
    redactor: new Redactor('cc-recorder-token-0a1b2c3d'),
    keepExchanges,
    maxBodyBytes: 1024,
    collectWhileRunning: false,
    onResponse: (_status, latencyMs) => void latencies.push(latencyMs),
    firstExchangeId: 0,
  });
}

describe('CallRecorder', () => {
  it.each([
    ['counting calls (load)', false],
    ['keeping exchanges (bursts)', true],
  ])('%s: a lost connection drops the calls in flight on it, so an answer on the new one is timed from its own call', async (_, keep) => {
    const latencies: number[] = [];
    const calls = recorder(keep, latencies);
    const client = fakeClient();
    calls.watch(client as never);
    client.emit('request');
    client.emit('request');
    await delay(60);
    client.emit('connError');
    client.emit('request'); // sent afresh on the new connection
    client.emit('headers', { statusCode: 200, headers: [] });
    client.emit('response');
    expect(latencies).toHaveLength(1);
    expect(latencies[0]).toBeLessThan(50); // paired with the first call, it would be 60 ms and more
    expect([calls.sent, calls.answered]).toEqual([3, 1]); // the two dropped calls stay sent and unanswered
  });
});
