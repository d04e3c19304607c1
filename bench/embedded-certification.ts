import { join } from 'node:path';
import { certify } from '../src/run/certify.ts';
import { embeddedProfile, startEmbeddedTarget } from '../src/run/embedded-target.ts';

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
  const server = await startEmbeddedTarget();
  try {
    const report = await certify({
      origin: server.origin,
      embedded: true,
      profile: embeddedProfile(server),
      token: server.token,
      caPem: server.tls.caPem,
      insecure: false,
      suitesDir: join(import.meta.dirname, '../suites'),
      suiteGlob: '**/*.yaml',
      only: [],
      readOnly: false,
      seed: 1,
      progress: null,
      replayBase: 'clockcheck run',
    });
    return {
      label: 'full embedded certification',
      wallMs: performance.now() - started,
      requests: report.requests.made,
      checks: report.checks.length,
      failed: report.summary.failed,
      rulesCovered: report.summary.rulesCovered,
      rulesTotal: report.summary.rulesTotal,
    };
  } finally {
    await server.close();
  }
}
