import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * The size of the house's rooms (STYLE.md, "Where it grows next"; ARCHITECTURE.md): a top-level
 * folder of src/ is one room, with its subfolders, and holds a tenth of the project at most; a file
 * a reader takes in at one sitting; a folder whose list of files a newcomer reads at a glance.
 */
const MAX_ROOM_SHARE = 0.1;
const MAX_FILE_LINES = 350;
const MAX_OWN_FILES = 25;

/**
 * Folders of one-definition files by design, exempt from MAX_OWN_FILES: each file is one small
 * definition named after it, as fast-check's arbitraries are (STYLE.md, "Models already in this
 * codebase"), so their number grows with the domain, not with a folder's jobs.
 */
const ONE_DEFINITION_FOLDERS: Readonly<Record<string, string>> = {
  'src/properties/arbitraries': 'one arbitrary a file, helpers in _internals/',
};

/** The house: the project's source files (src/, bench/, scripts/, bin/), its tests, fixtures and docs left out. */
const HOUSE_DIRS = ['src', 'bench', 'scripts', 'bin'];
const SOURCE = /\.(ts|mts|mjs|cjs|js|sh)$/;

function filesUnder(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** Lines of a text file: its newline-ended lines, and a last line without one. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Each room of src/ (its top-level folders, and its top-level files each a room of its own) with its lines, and the house's lines. */
function roomShares(files: readonly { path: string; lines: number }[]): { house: number; rooms: Map<string, number> } {
  const rooms = new Map<string, number>();
  let house = 0;
  for (const { path, lines } of files) {
    house += lines;
    const parts = path.split('/');
    if (parts[0] !== 'src') continue;
    const room = parts.length > 2 ? `src/${parts[1]}/` : path;
    rooms.set(room, (rooms.get(room) ?? 0) + lines);
  }
  return { house, rooms };
}

/** Folders (any depth) and the files directly in each. */
function ownFiles(paths: readonly string[]): Map<string, number> {
  const folders = new Map<string, number>();
  for (const path of paths) {
    const folder = path.slice(0, path.lastIndexOf('/'));
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  return folders;
}

const houseFiles = () => HOUSE_DIRS.flatMap(filesUnder).map((path) => ({ path, lines: lineCount(readFileSync(join(ROOT, path), 'utf8')) }));

describe('the size of the rooms', () => {
  it(`no folder of src/ holds over ${MAX_ROOM_SHARE * 100} % of the house's lines`, () => {
    const { house, rooms } = roomShares(houseFiles());
    const over = [...rooms].filter(([, lines]) => lines > house * MAX_ROOM_SHARE).map(([room, lines]) => `${room} ${lines} of ${house} lines (${((100 * lines) / house).toFixed(1)} %)`);
    expect(over).toEqual([]);
  });

  it(`no file of src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = houseFiles().filter((f) => f.path.startsWith('src/') && f.lines > MAX_FILE_LINES).map((f) => `${f.path} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`no folder of src/ has over ${MAX_OWN_FILES} files of its own, but the folders of one-definition files`, () => {
    const crowded = [...ownFiles(filesUnder('src'))].filter(([folder, n]) => n > MAX_OWN_FILES && ONE_DEFINITION_FOLDERS[folder] === undefined).map(([folder, n]) => `${folder} (${n} files)`);
    expect(crowded).toEqual([]);
    for (const folder of Object.keys(ONE_DEFINITION_FOLDERS)) expect(ownFiles(filesUnder('src')).has(folder), `${folder} is exempt: it must exist`).toBe(true);
  });

  it('no module of src/ throws a plain Error: every error is a ClockcheckError with its code (src/errors.ts)', () => {
    const plain = filesUnder('src').filter((path) => /\bthrow new Error\(/.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(plain).toEqual([]);
  });

  it('measures what it holds to: rooms with their subfolders, lines with or without a last newline, files of a folder itself', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n')]).toEqual([0, 1, 1, 2, 2]);
    const { house, rooms } = roomShares([
      { path: 'src/run/certify.ts', lines: 10 },
      { path: 'src/run/deep/step.ts', lines: 5 },
      { path: 'src/errors.ts', lines: 3 },
      { path: 'bench/index.ts', lines: 82 },
    ]);
    expect(house).toBe(100);
    expect(Object.fromEntries(rooms)).toEqual({ 'src/run/': 15, 'src/errors.ts': 3 });
    expect(Object.fromEntries(ownFiles(['src/a/x.ts', 'src/a/y.ts', 'src/a/b/z.ts']))).toEqual({ 'src/a': 2, 'src/a/b': 1 });
  });
});
