// dependency-cruiser's configuration: the layering of scripts/layering.cjs as rules (ARCHITECTURE.md,
// "Layers"). `npm run layers` checks src/; test/architecture/layers.test.ts does in `npm test`.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { BASE, LAYERS, REFERENCE_EXCEPTIONS } = require('./scripts/layering.cjs');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const folderPattern = (folders) => `^src/(${folders.map(escape).join('|')})/`;
const basePattern = `^src/(${BASE.map((b) => escape(b) + (b.endsWith('/') ? '' : '$')).join('|')})`;
const files = (list) => list.split(', ').map((f) => (f === '*' ? '.+' : escape(f)));

function internalsFolders(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (!statSync(path).isDirectory()) continue;
    if (entry === '_internals') found.push(relative(process.cwd(), dir));
    else found.push(...internalsFolders(path));
  }
  return found;
}

const forbidden = [
  { name: 'no-circular', comment: 'no module imports itself through others', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
  {
    name: 'base-imports-nothing',
    comment: `${BASE.join(', ')} import nothing of ours but each other`,
    severity: 'error',
    from: { path: basePattern },
    to: { path: '^src/', pathNot: basePattern },
  },
  ...LAYERS.map(({ folder, imports }) => ({
    name: `${folder}-layer`,
    comment: `${folder}/ imports ${imports.length ? imports.map((f) => `${f}/`).join(', ') : 'nothing of ours'} and the base only`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    // reference/ is governed by the two rules below (the same for every folder).
    to: { path: '^src/', pathNot: `${folderPattern([folder, ...imports, ...(folder === 'reference' ? [] : ['reference'])])}|${basePattern}` },
  })),
  {
    name: 'reference-is-apart',
    comment: 'only the places that start or describe the reference server import it',
    severity: 'error',
    from: { path: '^src/', pathNot: ['^src/reference/', ...REFERENCE_EXCEPTIONS.map((e) => `^src/${escape(e.from)}$`)] },
    to: { path: '^src/reference/' },
  },
  ...REFERENCE_EXCEPTIONS.map((e) => ({
    name: `reference-exception-${e.from.replace(/[/.]/g, '-')}`,
    comment: `${e.from} imports reference/${e.to} only (${e.why})`,
    severity: 'error',
    from: { path: `^src/${escape(e.from)}$` },
    to: { path: '^src/reference/', pathNot: `^src/reference/(${files(e.to).join('|')})$` },
  })),
  {
    name: 'top-is-top',
    comment: 'nothing imports the entry points (index.ts, bin/)',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^src/(index\\.ts$|bin/)' },
  },
];

function internalsRules(root) {
  return internalsFolders(join(root, 'src')).map((owner) => ({
    name: `internals-of-${owner.replace(/^src\//, '').replace(/\//g, '-')}`,
    comment: `${owner}/_internals/ is private to ${owner}/`,
    severity: 'error',
    from: { pathNot: `^${escape(owner)}/` },
    to: { path: `^${escape(owner)}/_internals/` },
  }));
}

module.exports = {
  forbidden: [...forbidden, ...internalsRules(process.cwd())],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
