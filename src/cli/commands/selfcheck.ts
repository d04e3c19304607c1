import { startReferenceServer } from '../../reference/server.ts';
import { smokeCheck } from '../../reference/smoke.ts';
import { parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck selfcheck [--fault NAME]

Starts the embedded reference server on a free loopback port and exercises every operation once.
Exit 0 when every step answers as the reference server should, 1 otherwise.`;

export async function selfcheckCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('selfcheck', argv, {
    fault: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const started = Date.now();
  const server = await startReferenceServer({ faults: values.fault });
  console.log(`reference server ${server.origin}${server.faults.length ? ` with fault ${server.faults.join(', ')}` : ''}`);
  try {
    const results = await smokeCheck(server);
    for (const r of results) console.log(`${r.passed ? 'pass' : 'FAIL'}  ${r.name.padEnd(48)} ${r.detail}`);
    const failed = results.filter((r) => !r.passed).length;
    console.log(`\n${results.length - failed} passed, ${failed} failed (${Date.now() - started} ms)`);
    return failed === 0 ? 0 : 1;
  } finally {
    await server.close();
  }
}
