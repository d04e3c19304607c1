/**
 * clockcheck's programmatic API, the package's main export. The command line (`clockcheck`) is the
 * tool; these are for a server's own test suite: start the reference server beside it, read the
 * rule catalog, type a report.json, or run a clockcheck command in-process.
 */
export { main as runClockcheck } from './cli/main.ts';
export { toolVersion } from './version.ts';
export { startReferenceServer, DEFAULT_RATE_LIMIT, type ReferenceServer, type ReferenceServerOptions } from './reference/server.ts';
export type { RateLimitSetting } from './contract/rate-limit.ts';
export { FAULTS, isFaultName, type Fault, type FaultName } from './reference/faults.ts';
export { RULES, ruleById, isRuleId, type Rule, type RuleId, type RuleBasis, type RuleFamily } from './contract/rules.ts';
export {
  REPORT_SCHEMA_VERSION,
  RUN_EXIT_CODES,
  type RunExitCode,
  type RunReport,
  type RunSummary,
  type UnjudgedGroup,
  type RuleOutcome,
  type CheckResult,
  type CheckStatus,
  type CheckSource,
  type Finding,
  type RuleCoverage,
  type CreatedResource,
} from './report/model.ts';
