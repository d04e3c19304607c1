import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_MODES, startHostileTarget, type HostileMode } from '../test/support/hostile-target.ts';
import { filesUnder, runMeasured } from '../test/support/cli.ts';
import { cliBin } from './cli-bin.ts';

export interface HostileRunFigures {
  readonly label: string;
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly killed: boolean;
  readonly peakRssBytes: number;
  readonly reportWritten: boolean;
  readonly tokenInArtifacts: boolean;
  readonly requestsReceived: number | null;
}

const TOKEN = 'hostile-bench-token-5c2e9a';

/**
 * A full `clockcheck run` (default profile, limit raised to 600 per second) against each hostile
 * target of test/support/hostile-target.ts, and one against the embedded reference server: wall
 * time, exit code, peak RSS, whether a report was written and whether the token reached any file.
 * `CLOCKCHECK_BIN` picks another checkout or build (bench/cli-bin.ts; to measure before a change); a run
 * still going after `deadlineSeconds` is killed and reported so.
 */
/** The modes run: issue 10's, and issue 24's stalls (every other call held, every call after the first held), where the default deadlines and stall budget decide the wall time (within 120 s). */
const BENCHED_MODES: readonly HostileMode[] = [...HOSTILE_MODES, 'stalls-alternate', 'held-open'];

export async function hostileRuns(deadlineSeconds: number, modes: readonly HostileMode[] = BENCHED_MODES): Promise<HostileRunFigures[]> {
  const bin = cliBin();
  const figures: HostileRunFigures[] = [];
  const measure = async (label: string, args: string[], work: string, received: () => number | null) => {
    const reportDir = join(work, 'reports');
    const run = await runMeasured(process.execPath, [bin, 'run', '--report-dir', reportDir, '--quiet', '--seed', '1', ...args], { ...process.env, CLOCKCHECK_TOKEN: TOKEN }, deadlineSeconds * 1000);
    const files = await filesUnder(reportDir).catch(() => []);
    let tokenInArtifacts = run.stdout.includes(TOKEN) || run.stderr.includes(TOKEN);
    for (const file of files) if ((await readFile(file, 'utf8')).includes(TOKEN)) tokenInArtifacts = true;
    figures.push({
      label,
      wallMs: run.wallMs,
      exitCode: run.code,
      killed: run.killed,
      peakRssBytes: run.peakRssBytes,
      reportWritten: files.some((f) => f.endsWith('report.json')),
      tokenInArtifacts,
      requestsReceived: received(),
    });
  };
  for (const mode of modes) {
    const work = await mkdtemp(join(tmpdir(), `clockcheck-hostile-${mode}-`));
    const target = await startHostileTarget({ mode, token: TOKEN });
    try {
      await writeFile(join(work, 'ca.pem'), target.tls.caPem);
      await measure(`hostile ${mode}`, ['--target', target.origin, '--ca', join(work, 'ca.pem'), '--rate-limit', '600/1s'], work, () => target.received.length);
    } finally {
      await target.close();
      await rm(work, { recursive: true, force: true });
    }
  }
  const work = await mkdtemp(join(tmpdir(), 'clockcheck-hostile-embedded-'));
  try {
    await measure('embedded reference server (npm start)', [], work, () => null);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return figures;
}
