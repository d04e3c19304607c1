import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET } from '../../src/cli/commands/run.ts';
import { edgeCaseCount, edgeCases } from '../../src/properties/arbitraries/edges/edge-class.ts';
import { PROPERTY_FAMILIES } from '../../src/properties/families.ts';
import type { GeneratedCase, GeneratorContext, PropertyFamily } from '../../src/properties/family.ts';
import { sendCases } from '../../src/properties/_internals/case-verdicts.ts';
import { casesPerFamily } from '../../src/properties/run-properties.ts';
import { runPropertyFamily } from '../../src/properties/runner.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { CONTEXTS, expectedRules, sameSet, violatedRules } from './support.ts';

const SEEDS = [1, 2, 3, 4, 5];
const FULL = casesPerFamily(DEFAULT_BUDGET.external, PROPERTY_FAMILIES.length);

/** A fake target that accepts what the spec model finds valid and refuses the rest, recording what it was sent. */
function target(family: PropertyFamily, ctx: GeneratorContext) {
  const sent: Array<Readonly<Record<string, unknown>>> = [];
  let id = 0;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const body = request.json as Record<string, unknown>;
    sent.push(body);
    const status = violatedRules(family.request, body, ctx).size === 0 ? 201 : 422;
    return {
      id: ++id,
      startedAt: new Date(0).toISOString(),
      sentAtMs: 0,
      durationMs: 1,
      request: { method: request.method, url: `https://t${request.path}`, headers: {}, body: JSON.stringify(request.json) },
      response: { status, headers: {}, body: '{}', truncated: false },
    } as unknown as Exchange;
  };
  return { send, sent };
}

describe('edge classes', () => {
  for (const family of PROPERTY_FAMILIES) {
    describe(family.name, () => {
      it('has edge classes, named once each, whose cases fit in a full run\'s share of generated cases', () => {
        expect(family.edges.length).toBeGreaterThan(0);
        const names = family.edges.map((c) => c.name);
        expect(new Set(names).size).toBe(names.length);
        expect(edgeCaseCount(family.edges)).toBeLessThanOrEqual(FULL);
        for (const c of family.edges) if (c.breaks) expect(family.rules).toContain(c.breaks);
      });

      it('makes cases whose members are valid or break exactly their rule (spec model), alternates too, in every context and seed', () => {
        for (const ctx of CONTEXTS) {
          for (const seed of SEEDS) {
            const cases = edgeCases(family.edges, ctx, seed);
            expect(cases.length).toBe(edgeCaseCount(family.edges));
            for (const c of cases.flatMap((x): GeneratedCase[] => (x.alternate ? [x, x.alternate] : [x]))) {
              const found = violatedRules(family.request, c.payload, ctx);
              expect(sameSet(found, expectedRules(c)), `${ctx.companyTimezone} seed ${seed}: ${c.label}: ${JSON.stringify(c.payload)} violates {${[...found].join(', ')}}`).toBe(true);
            }
          }
        }
      });

      it('sends one member of every edge class in a full run, for five seeds (no HTTP: a fake target)', async () => {
        for (const seed of SEEDS) {
          const ctx = CONTEXTS[seed % CONTEXTS.length]!;
          const { send, sent } = target(family, ctx);
          const result = await sendCases({ family, context: ctx, profile: defaultProfile(), send, path: family.request.path.replace('{id}', '7'), numRuns: FULL, shrinkBudget: 0, seed });
          const classes = new Set([...result.verdicts.values()].flatMap((v) => v.sent.edges ?? []));
          expect([...classes].sort(), `seed ${seed}`).toEqual(family.edges.map((c) => c.name).sort());
          expect(sent.length).toBe(FULL);
        }
      });
    });
  }

  it('lets the seed pick the member: the same for a seed, another for some other seed', () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'user-employee-code')!;
    const of = (seed: number) => JSON.stringify(edgeCases(family.edges, CONTEXTS[0]!, seed).map((c) => c.payload));
    expect(of(7)).toBe(of(7));
    expect(new Set(SEEDS.map(of)).size).toBeGreaterThan(1);
  });

  it('packs the valid classes of one base whose fields differ into one case', () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'user-values')!;
    const valid = edgeCases(family.edges, CONTEXTS[0]!, 1).filter((c) => !c.breaks);
    expect(valid).toHaveLength(2);
    expect(valid[0]!.payload).toMatchObject({ role_id: 1, billing_rate_type: 0 });
    expect(valid[1]!.payload).toMatchObject({ role_id: 3, billing_rate_type: 1 });
    expect(valid[0]!.edges).toHaveLength(3);
  });

  it('sends the second member of a class the target may hold only when the first is refused, and passes when it is accepted', async () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'user-employee-code')!;
    const first = edgeCases(family.edges, CONTEXTS[0]!, 3)[0]!;
    expect(first.alternate).toBeDefined();
    const held = String(first.payload.employee_code);
    const sent: string[] = [];
    let id = 0;
    const send = async (request: TargetRequest): Promise<Exchange> => {
      const body = request.json as Record<string, unknown>;
      sent.push(String(body.employee_code));
      const refused = body.employee_code === held || (typeof body.password === 'string' && body.password.length < 6) || (body.employee_code !== undefined && !/^\d{4}$/.test(String(body.employee_code)));
      return { id: ++id, startedAt: '', sentAtMs: 0, durationMs: 1, request: { method: 'POST', url: 'https://t/users', headers: {}, body: '' }, response: { status: refused ? 422 : 201, headers: {}, body: '{}', truncated: false } } as unknown as Exchange;
    };
    const result = await sendCases({ family, context: CONTEXTS[0]!, profile: defaultProfile(), send, path: '/users', numRuns: FULL, shrinkBudget: 5, seed: 3 });
    expect(sent.filter((c) => c === held)).toHaveLength(1);
    expect(sent).toContain(String(first.alternate!.payload.employee_code));
    expect(result.details.failed).toBe(false);
  });
});

describe('a refused packed edge case', () => {
  it('is narrowed to the field the refusal follows, its alternate refused too (user-edit: a code that starts with 0 beside a 6-character password)', async () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'user-edit')!;
    let id = 0;
    const send = async (request: TargetRequest): Promise<Exchange> => {
      const body = request.json as Record<string, unknown>;
      const refused = typeof body.employee_code === 'string' && body.employee_code.startsWith('0');
      return { id: ++id, startedAt: '', sentAtMs: 0, durationMs: 1, request: { method: 'PUT', url: 'https://t/users/7', headers: {}, body: JSON.stringify(body) }, response: { status: refused ? 422 : 200, headers: {}, body: '{}', truncated: false } } as unknown as Exchange;
    };
    const result = await runPropertyFamily({ family, context: CONTEXTS[0]!, numRuns: FULL, shrinkBudget: 15, seed: 4, send, profile: defaultProfile(), replay: () => '', resourceId: 7 });
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.ruleId)).toEqual(['USR-EMPLOYEE-CODE']);
    expect(result.findings[0]!.actual).toMatch(/employee_code absent instead was accepted/);
  });
});

describe('fast-check examples', () => {
  it('count toward numRuns, come first, and replay by path', () => {
    const seen: number[] = [];
    const details = fc.check(fc.property(fc.integer({ min: 0, max: 1000 }), (x) => (seen.push(x), x !== -2)), { numRuns: 5, seed: 3, examples: [[-1], [-2], [-3]] });
    expect(seen.slice(0, 2)).toEqual([-1, -2]);
    expect(details.counterexamplePath).toBe('1');
  });
});
