import { jsonText } from '../contract/json-text.ts';
import type { Exchange, ExchangeRequest, ExchangeResponse } from '../client/exchange.ts';
import type { CheckResult, CheckSource, CreatedResource, Finding, RuleCoverage, RunReport } from './model.ts';
import type { Rule } from '../contract/rules.ts';

/**
 * report.json: the RunReport as pretty JSON (two-space indent, trailing newline), its keys in the
 * order the model declares them, whatever order the report object was built in. The shape is
 * documented in docs/report-schema.json.
 */
export function renderJsonReport(report: RunReport): string {
  return `${jsonText(inModelOrder(report), 2)}\n`;
}

/** The report rebuilt key by key in declaration order; undefined optional fields are left out by JSON. */
function inModelOrder(r: RunReport): RunReport {
  return {
    schemaVersion: r.schemaVersion,
    runId: r.runId,
    tool: { name: r.tool.name, version: r.tool.version },
    spec: { title: r.spec.title, sha256: r.spec.sha256 },
    target: {
      baseUrl: r.target.baseUrl,
      apiPrefix: r.target.apiPrefix,
      tlsFingerprint256: r.target.tlsFingerprint256,
      embedded: r.target.embedded,
    },
    profile: r.profile,
    seed: r.seed,
    options: { only: r.options.only, skip: r.options.skip, readOnly: r.options.readOnly, suites: r.options.suites, budget: r.options.budget, maxTimeMs: r.options.maxTimeMs, rerunOf: r.options.rerunOf, withinMs: r.options.withinMs, maxRequests: r.options.maxRequests, minRules: r.options.minRules },
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.durationMs,
    plannedEtaMs: r.plannedEtaMs,
    requests: { planned: r.requests.planned, made: r.requests.made, unintended429: r.requests.unintended429, resent: r.requests.resent },
    tokenForm: r.tokenForm,
    notes: [...r.notes],
    checks: r.checks.map(check),
    coverage: r.coverage.map(coverage),
    createdResources: r.createdResources.map(createdResource),
    summary: {
      passed: r.summary.passed,
      failed: r.summary.failed,
      errored: r.summary.errored,
      skipped: r.summary.skipped,
      notRun: r.summary.notRun,
      waived: r.summary.waived,
      rulesCovered: r.summary.rulesCovered,
      rulesTotal: r.summary.rulesTotal,
      coveredRules: [...r.summary.coveredRules],
      unjudged: r.summary.unjudged.map((g) => ({ status: g.status, reason: g.reason, checkIds: [...g.checkIds] })),
    },
    runError: r.runError,
    stopped: r.stopped && { by: r.stopped.by, reason: r.stopped.reason },
    internalError: r.internalError,
    cleanup: r.cleanup && { outcome: r.cleanup.outcome, detail: r.cleanup.detail, exchanges: r.cleanup.exchanges.map(exchange) },
    status: r.status,
    exitCode: r.exitCode,
  };
}

function check(c: CheckResult): CheckResult {
  return {
    id: c.id,
    title: c.title,
    rules: c.rules,
    source: source(c.source),
    status: c.status,
    findings: c.findings.map(finding),
    reason: c.reason,
    waiver: c.waiver && { rule: c.waiver.rule, reason: c.waiver.reason },
    notes: c.notes && [...c.notes],
    exchanges: c.exchanges.map(exchange),
    durationMs: c.durationMs,
    replay: c.replay,
  };
}

function source(s: CheckSource): CheckSource {
  switch (s.kind) {
    case 'scenario':
      return { kind: s.kind, file: s.file, line: s.line };
    case 'property':
      return {
        kind: s.kind,
        generator: s.generator,
        seed: s.seed,
        path: s.path,
        counterexample: s.counterexample && { label: s.counterexample.label, breaks: s.counterexample.breaks, exchangeId: s.counterexample.exchangeId },
        baselineExchangeId: s.baselineExchangeId,
        setupExchangeId: s.setupExchangeId,
      } as CheckSource;
    case 'builtin':
      return { kind: s.kind, name: s.name };
  }
}

function finding(f: Finding): Finding {
  return { ruleId: f.ruleId, expected: f.expected, actual: f.actual, exchangeIds: f.exchangeIds };
}

function exchange(e: Exchange): Exchange {
  return {
    id: e.id,
    direction: e.direction,
    startedAt: e.startedAt,
    sentAtMs: e.sentAtMs,
    durationMs: e.durationMs,
    request: request(e.request),
    response: e.response && response(e.response),
    error: e.error && { code: e.error.code, message: e.error.message },
  };
}

function request(q: ExchangeRequest): ExchangeRequest {
  return { method: q.method, url: q.url, headers: q.headers, body: q.body };
}

function response(s: ExchangeResponse): ExchangeResponse {
  return {
    status: s.status,
    headers: s.headers,
    body: s.body,
    bodyBytes: s.bodyBytes,
    bodyTruncated: s.bodyTruncated,
  };
}

function coverage(c: RuleCoverage): RuleCoverage {
  return { rule: rule(c.rule), outcome: c.outcome, checkIds: c.checkIds };
}

function rule(r: Rule): Rule {
  return { id: r.id, section: r.section, family: r.family, basis: r.basis, statement: r.statement };
}

function createdResource(c: CreatedResource): CreatedResource {
  return { kind: c.kind, id: c.id, checkId: c.checkId };
}
