import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderJsonReport } from '../../src/report/json-reporter.ts';
import { REPORT_SCHEMA_VERSION, type RunReport } from '../../src/report/model.ts';
import { RULES } from '../../src/contract/rules.ts';
import { sampleReport, sampleReportOf, sampleReportWithDelivery } from './sample-report.ts';

const schema = JSON.parse(readFileSync(new URL('../../docs/report-schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

function errorsOf(value: unknown): string {
  return validate(value) ? '' : JSON.stringify(validate.errors, null, 2);
}

/** Every object schema's own properties, with their JSON pointer. */
function propertySchemas(node: unknown, pointer = '#'): [string, Record<string, unknown>][] {
  if (typeof node !== 'object' || node === null) return [];
  const entries = Object.entries(node as Record<string, unknown>);
  const own = entries
    .filter(([key]) => key === 'properties')
    .flatMap(([, props]) => Object.entries(props as Record<string, Record<string, unknown>>).map(([name, s]) => [`${pointer}/properties/${name}`, s] as [string, Record<string, unknown>]));
  return [...own, ...entries.flatMap(([key, child]) => propertySchemas(child, `${pointer}/${key}`))];
}

describe('report.json', () => {
  it('validates against docs/report-schema.json', () => {
    const json: unknown = JSON.parse(renderJsonReport(sampleReport()));
    expect(errorsOf(json)).toBe('');
  });

  it("keeps a check's notes", () => {
    const json = JSON.parse(renderJsonReport(sampleReport())) as RunReport;
    expect(json.checks.find((c) => c.id === 'users/list-filter-active')?.notes).toEqual(['first 429 (exchange 9): retry-after: 58 <b>']);
    expect(json.checks.find((c) => c.id === 'schedules/create-minimal')).not.toHaveProperty('notes');
  });

  it('is rejected by the schema when a field is missing, misspelt or of the wrong type', () => {
    const json = JSON.parse(renderJsonReport(sampleReport())) as Record<string, unknown>;
    const { summary: _summary, ...withoutSummary } = json;
    expect(validate(withoutSummary)).toBe(false);
    expect(validate({ ...json, exitcode: 1 })).toBe(false);
    expect(validate({ ...json, seed: 'forty-two' })).toBe(false);
    const checks = json.checks as Record<string, unknown>[];
    expect(validate({ ...json, checks: [{ ...checks[0], status: 'flaky' }] })).toBe(false);
  });

  it('is versioned: the schema $id and schemaVersion name REPORT_SCHEMA_VERSION', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(String(schema.$id)).toContain(REPORT_SCHEMA_VERSION);
    expect((schema.properties as Record<string, { const?: string }>).schemaVersion?.const).toBe(REPORT_SCHEMA_VERSION);
  });

  it('describes every field in the schema', () => {
    const undocumented = propertySchemas(schema).filter(([, s]) => typeof s.description !== 'string' || s.description === '');
    expect(undocumented.map(([pointer]) => pointer)).toEqual([]);
  });

  it('accepts every rule ID and family of the catalog', () => {
    const report = sampleReport();
    expect(report.coverage).toHaveLength(RULES.length);
    expect(errorsOf(JSON.parse(renderJsonReport(report)))).toBe('');
  });

  it('writes keys in model order whatever order the report was built in', () => {
    const report = sampleReport();
    const reversed = Object.fromEntries(Object.entries(report).reverse()) as unknown as RunReport;
    const check = report.checks[2];
    if (!check) throw new Error('sample has no third check');
    const shuffledCheck = Object.fromEntries(Object.entries(check).reverse());
    const shuffled = { ...reversed, checks: report.checks.map((c, i) => (i === 2 ? shuffledCheck : c)) } as unknown as RunReport;
    const text = renderJsonReport(shuffled);
    expect(text).toBe(renderJsonReport(report));
    expect(Object.keys(JSON.parse(text) as object).slice(0, 4)).toEqual(['schemaVersion', 'runId', 'tool', 'spec']);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('keeps and validates an exchange the sink received (direction inbound), right after its id', () => {
    const text = renderJsonReport(sampleReportWithDelivery());
    const json = JSON.parse(text) as { checks: { id: string; exchanges: Record<string, unknown>[] }[] };
    expect(errorsOf(json)).toBe('');
    const [sent, delivery] = json.checks.find((c) => c.id === 'webhooks/notifications-stop')?.exchanges ?? [];
    expect(sent).not.toHaveProperty('direction');
    expect(delivery).toMatchObject({ id: 9, direction: 'inbound', durationMs: 0, request: { method: 'POST', url: 'http://127.0.0.1:9411/hook' }, response: { status: 200 } });
    expect(Object.keys(delivery ?? {}).slice(0, 3)).toEqual(['id', 'direction', 'startedAt']);
    const withDirection = (direction: string) => ({
      ...json,
      checks: json.checks.map((c) => ({ ...c, exchanges: c.exchanges.map((e) => (e.id === 9 ? { ...e, direction } : e)) })),
    });
    expect(validate(withDirection('outbound'))).toBe(false);
    expect(validate(withDirection('inbound'))).toBe(true);
  });

  it('validates the 2.0.0 fields: a not-run check, the summary lists, --min-rules, exit 3 and an interrupted run', () => {
    const base = sampleReport().checks[0]!;
    const cut = { ...base, id: 'schedules/cut', status: 'not-run' as const, reason: 'not run: budget (--within 6m): a full run sends it', findings: [], exchanges: [] };
    const errored = { ...base, id: 'schedules/stuck', status: 'errored' as const, reason: 'no answer', findings: [], exchanges: [] };
    const report = sampleReportOf([base, cut, errored], { minRules: 2 });
    expect(report.exitCode).toBe(3);
    const json = JSON.parse(renderJsonReport(report)) as RunReport;
    expect(errorsOf(json)).toBe('');
    expect(json.options.minRules).toBe(2);
    expect(json.summary).toMatchObject({ notRun: 1, errored: 1, rulesCovered: 2, coveredRules: ['SCH-TIMES-UNLESS-ALL-DAY', 'ERR-SUCCESS-STATUS'] });
    expect(json.summary.unjudged).toEqual([
      { status: 'errored', reason: 'no answer', checkIds: ['schedules/stuck'] },
      { status: 'not-run', reason: 'not run: budget (--within 6m): a full run sends it', checkIds: ['schedules/cut'] },
    ]);
    expect(json.status).toBe('complete');
    expect(errorsOf({ ...json, status: 'interrupted', exitCode: 130 })).toBe('');
    expect(validate({ ...json, status: 'stopped' })).toBe(false);
    expect(validate({ ...json, exitCode: 4 })).toBe(false);
    const { notRun: _notRun, ...withoutNotRun } = json.summary;
    expect(validate({ ...json, summary: withoutNotRun })).toBe(false);
  });

  it('keeps optional fields out when absent and in when present', () => {
    const json = JSON.parse(renderJsonReport(sampleReport())) as { checks: Record<string, unknown>[] };
    const [passed] = json.checks;
    expect(passed).not.toHaveProperty('reason');
    expect(passed).not.toHaveProperty('waiver');
    expect(json.checks.find((c) => c.status === 'waived')).toHaveProperty('waiver.reason');
    expect(json.checks.find((c) => c.status === 'errored')).toHaveProperty('exchanges.0.error.code', 'CONNECTION_RESET');
  });
});
