import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.ts';
import { describeLoad, parseEndpoint, resolveLoadOptions } from '../../src/load/load-options.ts';

describe('parseEndpoint', () => {
  it('reads METHOD:/path with its query string, the method in any case', () => {
    expect(parseEndpoint('GET:/breaks')).toEqual({ method: 'GET', path: '/breaks' });
    expect(parseEndpoint('get:/users?page_size=100&sort=firstName')).toEqual({ method: 'GET', path: '/users?page_size=100&sort=firstName' });
  });

  it.each(['/breaks', 'GET /breaks', 'GET:breaks', 'GET:', ':/breaks', 'GET:/a b'])('refuses "%s" with a UsageError naming --endpoint and showing the expected form', (text) => {
    expect(() => parseEndpoint(text)).toThrow(UsageError);
    expect(() => parseEndpoint(text)).toThrow(/^--endpoint .*METHOD:\/path, e\.g\. GET:\/breaks/);
  });

  it('offers only GET: a load run sends no body and changes nothing (and autocannon hangs on HEAD)', () => {
    expect(() => parseEndpoint('POST:/breaks')).toThrow(/POST is not offered.*calls GET only/);
    expect(() => parseEndpoint('DELETE:/breaks/1')).toThrow(/DELETE is not offered/);
    expect(() => parseEndpoint('HEAD:/breaks')).toThrow(/HEAD is not offered/);
    expect(() => parseEndpoint('POST:/breaks')).toThrow(UsageError);
  });

  it('says the path is relative to /api/public when it repeats the prefix', () => {
    expect(() => parseEndpoint('GET:/api/public/breaks?page=2')).toThrow('use GET:/breaks?page=2');
    expect(() => parseEndpoint('GET:/api/public/breaks?page=2')).toThrow(UsageError);
  });
});

describe('resolveLoadOptions', () => {
  it('fills the defaults: GET /breaks, 10 connections, 10 s, unpaced', () => {
    expect(resolveLoadOptions({})).toEqual({ endpoint: { method: 'GET', path: '/breaks' }, connections: 10, stop: { kind: 'duration', seconds: 10 }, rate: null, ensure: [] });
  });

  it('reads --ensure thresholds, and names each malformed one with the other options\' issues in one UsageError', () => {
    expect(resolveLoadOptions({ ensure: ['p99<=500ms', 'errors<=1%'] }).ensure.map((t) => t.text)).toEqual(['p99<=500ms', 'errors<=1%']);
    const attempt = () => resolveLoadOptions({ ensure: ['p98<=1s', 'rps>=10', 'errors<=5ms'], connections: '0' });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/^load: --connections must be .*; --ensure "p98<=1s": no quantity "p98" \(did you mean p99\?\).*; --ensure "errors<=5ms": errors is a number of requests, not a time/);
  });

  it('reads durations as 30s, 2m, 1500ms or bare seconds', () => {
    expect(resolveLoadOptions({ duration: '30s' }).stop).toEqual({ kind: 'duration', seconds: 30 });
    expect(resolveLoadOptions({ duration: '2m' }).stop).toEqual({ kind: 'duration', seconds: 120 });
    expect(resolveLoadOptions({ duration: '1500ms' }).stop).toEqual({ kind: 'duration', seconds: 1.5 });
    expect(resolveLoadOptions({ duration: '45' }).stop).toEqual({ kind: 'duration', seconds: 45 });
  });

  it('takes an amount instead of a duration, and a rate', () => {
    expect(resolveLoadOptions({ amount: '200', connections: '4', rate: '50' })).toMatchObject({ connections: 4, stop: { kind: 'amount', requests: 200 }, rate: 50 });
  });

  it('caps the duration at 300 s and the amount at 1 000 000', () => {
    expect(resolveLoadOptions({ duration: '300s' }).stop).toEqual({ kind: 'duration', seconds: 300 });
    expect(() => resolveLoadOptions({ duration: '301s' })).toThrow(/--duration must be from 1s to 300s/);
    expect(() => resolveLoadOptions({ duration: '6m' })).toThrow(/--duration must be from 1s to 300s/);
    expect(resolveLoadOptions({ amount: '1000000' }).stop).toEqual({ kind: 'amount', requests: 1_000_000 });
    expect(() => resolveLoadOptions({ amount: '1000001' })).toThrow(/--amount must be an integer from 1 to 1000000/);
  });

  it('keeps connections within 1..256', () => {
    expect(resolveLoadOptions({ connections: '256' }).connections).toBe(256);
    for (const bad of ['0', '257', '-1', '2.5', 'ten']) expect(() => resolveLoadOptions({ connections: bad }), bad).toThrow(/--connections must be an integer from 1 to 256/);
  });

  it('wants a positive whole rate', () => {
    for (const bad of ['0', '-5', '1.5', 'fast']) expect(() => resolveLoadOptions({ rate: bad }), bad).toThrow(/--rate must be an integer from 1/);
  });

  it.each([['0s'], ['0.5s'], ['ten'], ['10x'], ['']])('refuses the duration "%s"', (duration) => {
    expect(() => resolveLoadOptions({ duration })).toThrow(/--duration must be/);
  });

  it('refuses --duration with --amount, as a UsageError', () => {
    const attempt = () => resolveLoadOptions({ duration: '10s', amount: '100' });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow('--duration and --amount exclude each other');
  });

  it('names every bad option at once, --endpoint\'s too, in one UsageError', () => {
    const attempt = () => resolveLoadOptions({ endpoint: 'POST:/x', connections: '0' });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/^load: --endpoint POST is not offered.*; --connections must be/);
  });
});

describe('describeLoad', () => {
  it('says what a run would send, in one phrase', () => {
    expect(describeLoad(resolveLoadOptions({}))).toBe('GET /breaks over 10 connections for 10 s, as fast as it answers');
    expect(describeLoad(resolveLoadOptions({ amount: '500', connections: '1', rate: '20' }))).toBe('GET /breaks over 1 connection for 500 requests, at 20 requests/s');
  });
});
