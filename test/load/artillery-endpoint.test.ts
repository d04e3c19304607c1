import { describe, expect, it } from 'vitest';
import { artilleryEndpoint, endpointNames, requestName } from '../../src/load/artillery-endpoint.ts';
import type { ArtilleryPeriod } from '../../src/load/artillery-report.ts';
import { parseEndpoint } from '../../src/load/load-options.ts';
import { artilleryFixture } from './support.ts';

function period(counters: Record<string, number>, summaries: string[] = []): ArtilleryPeriod {
  return { counters, rates: {}, summaries: Object.fromEntries(summaries.map((s) => [s, { count: 1 }])), firstMetricAt: 0, lastMetricAt: 1 };
}

describe('the endpoint an Artillery report names', () => {
  it('is the request name load --export artillery gives, the endpoint as --endpoint takes it', () => {
    const endpoint = parseEndpoint('GET:/users?page_size=100');
    expect(requestName(endpoint)).toBe('GET:/users?page_size=100');
    const a = period({ 'plugins.metrics-by-endpoint.GET:/users?page_size=100.codes.200': 3, 'plugins.metrics-by-endpoint.GET:/users?page_size=100.errors.ETIMEDOUT': 1 });
    expect(endpointNames(a)).toEqual(['GET:/users?page_size=100']);
    expect(artilleryEndpoint(a, undefined, '/api/public', 'r.json')).toEqual(endpoint);
  });

  it('is found in the committed reports of the exported scripts', () => {
    expect(artilleryEndpoint(artilleryFixture('limited').aggregate, undefined, '/api/public', 'r.json')).toEqual({ method: 'GET', path: '/breaks' });
    expect(artilleryEndpoint(artilleryFixture('refused').aggregate, undefined, '/api/public', 'r.json')).toEqual({ method: 'GET', path: '/breaks' });
  });

  it('reads the path of an unnamed request (the plugin\'s default) as a GET under the API prefix', () => {
    const a = period({}, ['plugins.metrics-by-endpoint.response_time./api/public/breaks']);
    expect(artilleryEndpoint(a, undefined, '/api/public', 'r.json')).toEqual({ method: 'GET', path: '/breaks' });
    // The plugin strips the query by default: --endpoint's query is kept.
    expect(artilleryEndpoint(a, parseEndpoint('GET:/breaks?page_size=5'), '/api/public', 'r.json')).toEqual({ method: 'GET', path: '/breaks?page_size=5' });
  });

  it('asks for --endpoint when the report names none it can read', () => {
    expect(() => artilleryEndpoint(period({ 'http.requests': 1 }), undefined, '/api/public', 'r.json')).toThrow(
      'load --from-artillery: r.json names no endpoint (its script did not use the metrics-by-endpoint plugin): give --endpoint METHOD:/path',
    );
    expect(() => artilleryEndpoint(artilleryFixture('http-pool').aggregate, undefined, '/api/public', 'p.json')).toThrow(/p\.json names "GET \/breaks", not an endpoint under \/api\/public: give --endpoint/);
    expect(artilleryEndpoint(artilleryFixture('http-pool').aggregate, parseEndpoint('GET:/breaks'), '/api/public', 'p.json')).toEqual({ method: 'GET', path: '/breaks' });
  });

  it('refuses a report of several endpoints, or of another than --endpoint', () => {
    const two = period({ 'plugins.metrics-by-endpoint.GET:/breaks.codes.200': 1, 'plugins.metrics-by-endpoint.GET:/users.codes.200': 1 });
    expect(() => artilleryEndpoint(two, undefined, '/api/public', 'r.json')).toThrow('r.json holds calls to 2 endpoints (GET:/breaks, GET:/users)');
    const one = period({ 'plugins.metrics-by-endpoint.GET:/breaks.codes.200': 1 });
    expect(() => artilleryEndpoint(one, parseEndpoint('GET:/users'), '/api/public', 'r.json')).toThrow('r.json holds calls to GET:/breaks, not to --endpoint GET:/users');
  });
});
