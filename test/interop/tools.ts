import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The peer tools scripts/install-interop-tools.sh installs into the interop cache (never into
 * node_modules): where each one's command is, or null when it is not installed here. The tests
 * that drive a tool run only where it is installed (`describe.skipIf(tool(...) === null)`);
 * `.ci/run` installs them all, so CI runs every one.
 */
export type InteropTool = 'prism' | 'portman' | 'newman' | 'artillery';

const BINARIES: Record<InteropTool, string> = { prism: 'prism', portman: 'portman', newman: 'newman', artillery: 'artillery' };

/** The interop cache: CLOCKCHECK_INTEROP_DIR, else .cache/interop in the repository. */
export function interopDir(): string {
  return process.env.CLOCKCHECK_INTEROP_DIR ?? resolve(import.meta.dirname, '../../.cache/interop');
}

/** The path of the tool's command, or null when it is not installed. */
export function tool(name: InteropTool): string | null {
  const dir = join(interopDir(), name);
  const bin = join(dir, 'node_modules', '.bin', BINARIES[name]);
  return existsSync(join(dir, '.installed')) && existsSync(bin) ? bin : null;
}
