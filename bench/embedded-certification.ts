import { join } from 'node:path';
import { certifyEmbedded } from '../src/run/embedded-target.ts';
import { DEFAULT_BUDGET } from '../src/cli/commands/run.ts';

export interface CertificationFigures {
  readonly label: string;
  readonly wallMs: number;
  readonly requests: number;
  readonly checks: number;
  readonly failed: number;
  readonly rulesCovered: number;
  readonly rulesTotal: number;
}

/** Wall time of a full certification of the embedded reference server (what `npm start` runs), without report writing. */
export async function embeddedCertification(): Promise<CertificationFigures> {
  const started = performance.now();
  const report = await certifyEmbedded([], { suitesDir: join(import.meta.dirname, '../suites'), suiteGlob: '**/*.yaml', seed: 1, budget: DEFAULT_BUDGET.embedded });
  return {
    label: 'full embedded certification',
    wallMs: performance.now() - started,
    requests: report.requests.made,
    checks: report.checks.length,
    failed: report.summary.failed,
    rulesCovered: report.summary.rulesCovered,
    rulesTotal: report.summary.rulesTotal,
  };
}
