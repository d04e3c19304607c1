import type { Document, LineCounter, Node } from 'yaml';
import { yamlPackage } from './yaml-package.ts';
import { ClockcheckError } from '../errors.ts';

/** A problem in a YAML file the user wrote (suite or profile): file, line, field path, and a hint. */
export class SourceError extends ClockcheckError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly fieldPath: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super('CLOCKCHECK_SOURCE', `${file}:${line}: ${fieldPath ? `${fieldPath}: ` : ''}${problem}${hint ? ` (${hint})` : ''}`);
  }
}

/** A parsed YAML document that can say on which line any path of its value stands. */
export interface YamlSource {
  readonly file: string;
  readonly value: unknown;
  /**
   * 1-based line of the node at `path`, or of its nearest existing ancestor. With `atKey`, the line
   * of the last key itself (for an unknown key, whose value may start on a later line).
   */
  lineOf(path: readonly PropertyKey[], atKey?: boolean): number;
}

/** Parses YAML keeping positions; a syntax error becomes a SourceError with its line. */
export function parseYamlSource(text: string, file: string): YamlSource {
  const { isMap, isSeq, LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  // Integers are read as BigInt, then back as numbers where that is exact: an ID beyond 2^53 stays exact.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, intAsBigInt: true });
  const first = doc.errors[0];
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line;
    throw new SourceError(file, line, '', first.message.split('\n')[0] ?? 'YAML syntax error');
  }
  const lineOf = (path: readonly PropertyKey[], atKey = false): number => {
    let node: unknown = doc.contents;
    let line = node && (node as Node).range ? lineCounter.linePos((node as Node).range![0]).line : 1;
    for (const [index, key] of path.entries()) {
      if (atKey && index === path.length - 1 && isMap(node)) {
        const keyNode = node.items.find((p) => (p.key as { value?: unknown })?.value === key)?.key as Node | undefined;
        if (keyNode?.range) return lineCounter.linePos(keyNode.range[0]).line;
      }
      let next: unknown;
      if (isMap(node)) next = node.items.find((pair) => (pair.key as { value?: unknown })?.value === key)?.value ?? undefined;
      else if (isSeq(node) && typeof key === 'number') next = node.items[key];
      if (next === undefined || next === null) {
        if (isMap(node)) {
          const pair = node.items.find((p) => (p.key as { value?: unknown })?.value === key);
          const keyNode = pair?.key as Node | undefined;
          if (keyNode?.range) line = lineCounter.linePos(keyNode.range[0]).line;
        }
        break;
      }
      node = next;
      const range = (node as Node).range;
      if (range) line = lineCounter.linePos(range[0]).line;
    }
    return line;
  };
  return { file, value: toValue(doc, file, lineCounter), lineOf };
}

/** A value read with `intAsBigInt`, each BigInt within ±(2^53 − 1) a number again (only an integer JSON cannot carry exactly stays a BigInt). */
function safeIntegersAsNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(safeIntegersAsNumbers);
  if (value instanceof Map || value instanceof Set) return value;
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = safeIntegersAsNumbers((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Aliases a document may expand to at most (the yaml package's count: an alias bomb stops here). */
export const MAX_ALIAS_COUNT = 100;

/**
 * The document's value. An alias bomb (aliases of aliases, each expanding many times) would take the
 * process's memory: past MAX_ALIAS_COUNT expansions it is a SourceError at the first alias's line.
 */
function toValue(doc: Document.Parsed, file: string, lineCounter: LineCounter): unknown {
  try {
    return safeIntegersAsNumbers(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw error;
    const { isAlias, visit } = yamlPackage();
    let line = 1;
    visit(doc, {
      Alias(_, node) {
        if (isAlias(node) && node.range) line = lineCounter.linePos(node.range[0]).line;
        return visit.BREAK;
      },
    });
    throw new SourceError(file, line, '', `its aliases expand past ${MAX_ALIAS_COUNT} (an alias bomb?); write the values out, or use fewer aliases`);
  }
}
