import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { artilleryScript, type ArtilleryExportInput } from '../../src/load/artillery-export.ts';
import { resolveLoadOptions, type LoadOptionsInput } from '../../src/load/load-options.ts';
import { UsageError } from '../../src/errors.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBdummyCAcertificate\n-----END CERTIFICATE-----\n';

function input(options: LoadOptionsInput, overrides: Partial<ArtilleryExportInput> = {}): ArtilleryExportInput {
  return {
    options: resolveLoadOptions(options),
    origin: 'https://127.0.0.1:4443',
    apiPrefix: '/api/public',
    tokenEnv: 'CLOCKCHECK_TOKEN',
    tls: { caPem: CA, insecure: false },
    rateLimit: null,
    toolVersion: '0.0.0-test',
    file: 'load.yml',
    ...overrides,
  };
}

interface Script {
  config: {
    target: string;
    tls?: Record<string, unknown>;
    http: { timeout: number };
    phases: Record<string, number>[];
    plugins: { 'metrics-by-endpoint': Record<string, unknown>; ensure?: { thresholds?: Record<string, number>[]; conditions?: { expression: string }[] } };
  };
  scenarios: { name: string; flow: Record<string, unknown>[] }[];
}

function script(options: LoadOptionsInput, overrides: Partial<ArtilleryExportInput> = {}): Script {
  return parse(artilleryScript(input(options, overrides)).yaml) as Script;
}

describe('load --export artillery: the run\'s shape', () => {
  it('turns an unpaced --amount run into C virtual users, each sending its share in a row on its own connection', () => {
    const s = script({ amount: '200', connections: '4', endpoint: 'GET:/users?page_size=100' });
    expect(s.config.target).toBe('https://127.0.0.1:4443');
    expect(s.config.http).toEqual({ timeout: 10 });
    expect(s.config.phases).toEqual([{ duration: 1, arrivalCount: 4 }]);
    expect(s.scenarios).toHaveLength(1);
    expect(s.scenarios[0]?.flow).toEqual([
      {
        loop: [{ get: { url: '/api/public/users?page_size=100', name: 'GET:/users?page_size=100', headers: { Authorization: '{{ $env.CLOCKCHECK_TOKEN }}' } } }],
        count: 50,
      },
    ]);
    // No shared pool: Artillery 2.0.21 loses the time of the calls sent on one.
    expect(s.config).not.toHaveProperty('http.pool');
    expect(s.config.plugins['metrics-by-endpoint']).toEqual({ useOnlyRequestNames: true });
  });

  it('rounds an amount up to a multiple of the connections, and says so', () => {
    const exported = artilleryScript(input({ amount: '10', connections: '4' }));
    expect((parse(exported.yaml) as Script).scenarios[0]?.flow[0]).toMatchObject({ count: 3 });
    expect(exported.yaml).toContain('12 calls in all (10 rounded up to a multiple of 4)');
  });

  it('turns a paced timed run into an arrival rate, at most C calls in flight, one call a virtual user', () => {
    const s = script({ duration: '30s', rate: '50', connections: '8' });
    expect(s.config.phases).toEqual([{ duration: 30, arrivalRate: 50, maxVusers: 8 }]);
    expect(s.scenarios[0]?.flow).toEqual([{ get: { url: '/api/public/breaks', name: 'GET:/breaks', headers: { Authorization: '{{ $env.CLOCKCHECK_TOKEN }}' } } }]);
  });

  it('spreads a paced --amount over amount / rate seconds', () => {
    expect(script({ amount: '250', rate: '100', connections: '5' }).config.phases).toEqual([{ duration: 3, arrivalCount: 250, maxVusers: 5 }]);
  });

  it('refuses an unpaced timed run, which Artillery cannot bound without JavaScript, saying what to give', () => {
    expect(() => artilleryScript(input({ duration: '10s' }))).toThrow(UsageError);
    expect(() => artilleryScript(input({}))).toThrow(/an unpaced timed run \(10 s as fast as the target answers\) has no Artillery form: .*give --rate R .* or --amount N/);
  });
});

describe('load --export artillery: target, token and TLS', () => {
  it('reads the raw token from the profile\'s token_env when Artillery runs, never from the file', () => {
    const exported = artilleryScript(input({ amount: '10' }, { tokenEnv: 'STAGING_TOKEN' }));
    const s = parse(exported.yaml) as Script;
    expect(JSON.stringify(s.scenarios)).toContain('"Authorization":"{{ $env.STAGING_TOKEN }}"');
    expect(exported.yaml).toContain('Authorization: "{{ $env.STAGING_TOKEN }}"');
    expect(exported.yaml).toContain('Run: STAGING_TOKEN=<token> artillery run --output report.json load.yml');
  });

  it('trusts the --ca certificate in config.tls (got\'s certificateAuthority), or skips verification under --insecure', () => {
    expect(script({ amount: '10' }).config.tls).toEqual({ certificateAuthority: CA });
    expect(script({ amount: '10' }, { tls: { caPem: CA, insecure: true } }).config.tls).toEqual({ rejectUnauthorized: false });
    expect(script({ amount: '10' }, { tls: { insecure: false } }).config).not.toHaveProperty('tls');
    expect(script({ amount: '10' }, { origin: 'http://127.0.0.1:8080', tls: { caPem: CA, insecure: true } }).config).not.toHaveProperty('tls');
  });

  it('opens with a comment that explains the mapping and how to run and read it', () => {
    const doc = parseDocument(artilleryScript(input({ amount: '200', connections: '4' })).yaml);
    const comment = doc.commentBefore ?? '';
    expect(comment).toMatch(/^ clockcheck 0\.0\.0-test load --export artillery: GET https:\/\/127\.0\.0\.1:4443\/api\/public\/breaks over 4 connections for 200 requests, as fast as it answers\./);
    expect(comment).toContain('4 virtual users (arrivalCount 4 within the first second), each sending 50 calls in a row');
    expect(comment).toContain('artillery run-fargate --count N');
    expect(comment).toContain('clockcheck load --from-artillery report.json');
  });
});

describe('load --export artillery: --ensure and the default checks as ensure checks', () => {
  const ensure = (thresholds: string, overrides: Partial<ArtilleryExportInput> = {}) => {
    const exported = artilleryScript(input({ amount: '100', ensure: thresholds.split(',') }, overrides));
    return { ...(parse(exported.yaml) as Script).config.plugins.ensure, unmapped: exported.unmapped, yaml: exported.yaml };
  };

  it('judges latency on the served calls (http.response_time.2xx), `<` as Artillery\'s own threshold', () => {
    const e = ensure('p99<500ms,p95<=0.25s,p50>=1,max<2s,mean<=40,p90>3');
    expect(e.thresholds).toEqual([{ 'http.response_time.2xx.p99': 500 }, { 'http.response_time.2xx.max': 2000 }]);
    expect(e.conditions?.slice(0, 4)).toEqual([
      { expression: 'http.response_time.2xx.p95 <= 250' },
      { expression: 'http.response_time.2xx.p50 >= 1' },
      { expression: 'http.response_time.2xx.mean <= 40' },
      { expression: 'http.response_time.2xx.p90 > 3' },
    ]);
  });

  it('counts as Artillery counts, a missing counter as 0, a percent of http.requests', () => {
    const e = ensure('errors<=1%,timeouts<=0,unanswered<5,non2xx<=2%,limited>=50%');
    expect(e.conditions).toEqual([
      { expression: '(vusers.failed ? vusers.failed : 0) / http.requests * 100 <= 1' },
      { expression: '(errors.ETIMEDOUT ? errors.ETIMEDOUT : 0) <= 0' },
      { expression: '((http.requests ? http.requests : 0) - (http.responses ? http.responses : 0)) < 5' },
      { expression: '((http.responses ? http.responses : 0) - (http.response_time.2xx.count ? http.response_time.2xx.count : 0) - (http.codes.429 ? http.codes.429 : 0)) / http.requests * 100 <= 2' },
      { expression: '(http.codes.429 ? http.codes.429 : 0) / http.requests * 100 >= 50' },
    ]);
    // errors, unanswered and non2xx take the place of the default checks, as in load.
    expect(e.thresholds).toBeUndefined();
  });

  it('adds load\'s default checks no threshold replaces, so artillery run fails where load would', () => {
    expect(ensure('p99<=1s').conditions?.slice(1)).toEqual([
      { expression: '(http.response_time.5xx.count ? http.response_time.5xx.count : 0) == 0' },
      { expression: '(vusers.failed ? vusers.failed : 0) == 0' },
    ]);
    // With only timeouts bounded, the other failed calls still fail the run.
    expect(ensure('timeouts<=3').conditions?.at(-1)).toEqual({ expression: '(vusers.failed ? vusers.failed : 0) - (errors.ETIMEDOUT ? errors.ETIMEDOUT : 0) == 0' });
    expect(ensure('p99<=1s').yaml).toContain('no-5xx (load\'s default) → (http.response_time.5xx.count ? http.response_time.5xx.count : 0) == 0');
  });

  it('lists rps and the rate-limit reading as having no Artillery equivalent, in the comment and the result', () => {
    const e = ensure('rps>=100', { rateLimit: { limit: 60, windowMs: 60_000 } });
    expect(e.unmapped).toEqual([expect.stringMatching(/^rps>=100: Artillery's http.request_rate is the calls sent per second/), expect.stringMatching(/^within-rate-limit \(RATE-LIMIT-CAP\): /)]);
    expect(e.conditions?.map((c) => c.expression).join(' ')).not.toContain('rate');
    expect(e.yaml).toMatch(/# No Artillery equivalent \(not in this script\):\n# {3}- rps>=100: /);
    expect(ensure('p99<=1s').unmapped).toEqual([]);
  });
});
