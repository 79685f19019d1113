// Where things are in one parsed suite file, without the parser: the position-lookup interface
// every checker uses, and its implementation over the `yaml` package's document (parsed on first
// use: a valid file read by js-yaml never needs it; the package itself is imported on first need,
// package.ts).

import type { Document, LineCounter, Node } from 'yaml';
import { yamlPackage } from './package.js';
import { YAML_DOC_OPTIONS } from './schema.js';

/** A key of a mapping or the index of a list item. */
export type PathSegment = string | number;

export interface Position {
  /** 1-based; null when unknown. */
  line: number | null;
  column: number | null;
}

/** A syntax problem the `yaml` parser reported: its code, its words and where it starts. */
export interface YamlSyntaxError {
  code: string;
  message: string;
  offset: number;
  /** Where the text the error is about ends (the parser's range). */
  end: number;
}

/**
 * One parsed file as the checkers see it: its display path, its text and where its parts are. A
 * path names a value by keys and item indexes (`['fixtures', 2, 'label']`); `[]` is the whole file.
 */
export interface SourceFile {
  readonly file: string;
  /** The file's text, to quote a line in a fix. */
  readonly text: string;
  /** Where the value at `path` starts (a list item: a path ending in its index); else the nearest existing ancestor. */
  valueAt(path: readonly PathSegment[]): Position;
  /** Where the key `key` of the mapping at `path` is written, or null. */
  keyAt(path: readonly PathSegment[], key: PathSegment): Position | null;
  /** The scalar at `path` exactly as written (null when there is none, or it is empty). */
  writtenAt(path: readonly PathSegment[]): string | null;
  /** The line and column of a character offset into the text. */
  offsetAt(offset: number): Position;
  /** The `yaml` parser's syntax errors, in order. */
  syntaxErrors(): readonly YamlSyntaxError[];
  /** `*name` and its offset: the first alias of the file, or null. */
  firstAlias(): { source: string; offset: number } | null;
}

const NO_POSITION: Position = { line: null, column: null };

/** How many `yaml` documents the sources parsed (observable, for tests and diagnostics). */
export const lazyParses = { count: 0 };

/**
 * A SourceFile whose positions come from the `yaml` document, parsed on first use. `knownPosition`
 * (from the fast reading) is asked first for a value's position, so that a valid file never needs
 * the document; null from it means not known, ask the document.
 */
export function documentSource(
  file: string,
  text: string,
  options: { uniqueKeys?: boolean } = {},
  knownPosition?: (path: readonly PathSegment[]) => Position | null,
): SourceFile {
  let parsed: { doc: Document.Parsed; lineCounter: LineCounter } | null = null;
  const full = (): { doc: Document.Parsed; lineCounter: LineCounter } => {
    if (parsed === null) {
      const yaml = yamlPackage();
      lazyParses.count += 1;
      const lineCounter = new yaml.LineCounter();
      parsed = { doc: yaml.parseDocument(text, { ...YAML_DOC_OPTIONS, lineCounter, ...options }), lineCounter };
    }
    return parsed;
  };

  const offsetAt = (offset: number): Position => {
    const { line, col } = full().lineCounter.linePos(offset);
    return { line, column: col };
  };

  const nodePosition = (node: unknown): Position | null => {
    if (node && typeof node === 'object' && 'range' in node) {
      const range = (node as Node).range;
      if (range) return offsetAt(range[0]);
    }
    return null;
  };

  /** The YAML node at `path`, or null when some segment does not exist. */
  const nodeAt = (path: readonly PathSegment[]): unknown => {
    let node: unknown = full().doc.contents;
    const { isMap, isScalar, isSeq } = yamlPackage();
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        if (!pair) return null;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg];
      } else {
        return null;
      }
      if (node === undefined || node === null) return null;
    }
    return node;
  };

  const keyAt = (path: readonly PathSegment[], key: PathSegment): Position | null => {
    const parent = nodeAt(path);
    const { isMap, isPair, isScalar } = yamlPackage();
    if (!isMap(parent)) return null;
    const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
    return pair ? nodePosition(pair.key) : null;
  };

  return {
    file,
    text,
    valueAt(path) {
      const known = knownPosition?.(path);
      if (known) return known;
      for (let n = path.length; n >= 0; n--) {
        const node = nodeAt(path.slice(0, n));
        // An empty value (`message:` then nothing) is a scalar whose range starts at the next
        // token, lines further on: the key is where it was written.
        const empty = n > 0 && yamlPackage().isScalar(node) && node.value === null && !node.source;
        // An empty list item (a "-" and nothing after it) starts on its line: said at its "-".
        if (empty && typeof path[n - 1] === 'number') {
          const range = (node as Node).range;
          const dash = range ? text.lastIndexOf('-', range[0]) : -1;
          if (dash !== -1 && /^[ \t]*$/.test(text.slice(dash + 1, range?.[0]))) return offsetAt(dash);
        }
        const pos = empty ? null : nodePosition(node);
        if (pos) return pos;
        // A key whose value is empty (`label:`) has no value node: use the key.
        if (n > 0) {
          const keyPos = keyAt(path.slice(0, n - 1), path[n - 1] as PathSegment);
          if (keyPos) return keyPos;
        }
      }
      return NO_POSITION;
    },
    keyAt,
    writtenAt(path) {
      const node = nodeAt(path);
      if (!yamlPackage().isScalar(node) || typeof node.source !== 'string' || node.source === '') return null;
      return node.source;
    },
    offsetAt,
    syntaxErrors() {
      return full().doc.errors.map((e) => ({ code: e.code, message: e.message, offset: e.pos[0], end: e.pos[1] }));
    },
    firstAlias() {
      return firstAliasOf(full().doc);
    },
  };
}

/** `*name` and its offset: the first alias of a `yaml` document, to point at. */
function firstAliasOf(doc: Document.Parsed): { source: string; offset: number } | null {
  let found: { source: string; offset: number } | null = null;
  const { visit } = yamlPackage();
  visit(doc, {
    Alias(_key, node) {
      found = { source: node.source, offset: node.range?.[0] ?? 0 };
      return visit.BREAK;
    },
  });
  return found;
}
