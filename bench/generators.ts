import { seedContext } from '../src/properties/seed-context.ts';
import fc from 'fast-check';
import { PROPERTY_FAMILIES } from '../src/properties/families.ts';

export interface GeneratorFigures {
  readonly label: string;
  readonly payloads: number;
  readonly seconds: number;
  readonly payloadsPerSecond: number;
  /** Share of the payloads that were valid. */
  readonly validShare: number;
}


/**
 * Generated payloads per second for each property family's `cases()`: fc.sample in batches of 200
 * (fresh seeds), for `secondsPerFamily` after a warm-up batch (which also fills the transition cache).
 * Payloads are serialized with JSON.stringify, as a run would send them.
 */
export function generatorThroughput(options: { readonly secondsPerFamily: number }): GeneratorFigures[] {
  const ctx = seedContext('America/Chicago', 'bench');
  return PROPERTY_FAMILIES.map((family) => {
    const arbitrary = family.cases(ctx);
    fc.sample(arbitrary, { seed: 0, numRuns: 200 });
    const started = performance.now();
    const deadline = started + options.secondsPerFamily * 1000;
    let payloads = 0;
    let valid = 0;
    let bytes = 0;
    for (let seed = 1; performance.now() < deadline; seed++) {
      for (const c of fc.sample(arbitrary, { seed, numRuns: 200 })) {
        bytes += JSON.stringify(c.payload).length;
        payloads++;
        if (!c.breaks) valid++;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    if (bytes === 0) throw new Error('no payloads generated');
    return { label: `properties/${family.name}`, payloads, seconds, payloadsPerSecond: payloads / seconds, validShare: valid / payloads };
  });
}
