// Where things are in one parsed suite file, without the parser: the position-lookup interface
// every checker uses, and its implementation over the `yaml` package's document (parsed on first
// use: a valid file read by js-yaml never needs it; the package itself is imported on first need,
// package.ts).

import type { Document, LineCounter, Node } from 'yaml';
import { yamlPackage } from './package.js';
import { YAML_DOC_OPTIONS } from './schema.js';
import { splitNumberAt, splitWritesKeyTwice } from './split-number.js';

/** A key of a mapping or the index of a list item. */
export type PathSegment = string | number;

/** How a path is named in an issue (`agent.headers.Authorization`, `judge.panel[1].baseUrl`, `fixtures[2].assert`). */
export function pathText(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${String(seg)}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

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
  /**
   * The entries of the list or mapping at `path` (`[]`: the whole file), for a file with syntax
   * errors: each with its key (an item's index) and whether it is sound, with its value when it is.
   * An entry is sound when neither its text nor the space between it and its neighbours holds a
   * problem (an error or a warning of the parser, or one of `problems`, offsets into the text), and
   * an alias in it refers to a sound entry's text: the parser read it as written, and fixing the
   * problems elsewhere does not change it (docs/configuration.md, "How YAML is read"). None is sound
   * when a problem comes before the collection. null when there is no list or mapping at `path`.
   */
  entriesAt(path: readonly PathSegment[], problems?: readonly number[]): SourceEntry[] | null;
}

/** One entry of a list or mapping (SourceFile.entriesAt). */
export interface SourceEntry {
  key: PathSegment;
  sound: boolean;
  /** The value as read, when sound. */
  value?: unknown;
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
    entriesAt(path, problems = []) {
      return entriesOf(full().doc, nodeAt(path), problems, (offset) => splitTwiceAt(text, offset));
    },
  };
}

/**
 * Whether the key at `offset` of `text` is the rest of a number split by commas that writes a key
 * twice (`max: 1,000,000`: 0 twice), the one slip of its entry, which the checker says with the
 * setting's range (split-number.ts).
 */
function splitTwiceAt(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const split = splitNumberAt(text.slice(start, end === -1 ? text.length : end).replace(/\r$/, ''), offset - start + 1);
  return split !== null && splitWritesKeyTwice(split);
}

/**
 * SourceFile.entriesAt over the `yaml` document; `collection` is the node at the path asked;
 * `splitTwice`, whether a key written twice at an offset is a number split by commas.
 */
function entriesOf(doc: Document.Parsed, collection: unknown, problems: readonly number[], splitTwice: (offset: number) => boolean): SourceEntry[] | null {
  const { isMap, isScalar, isSeq, visit } = yamlPackage();
  if (!isMap(collection) && !isSeq(collection)) return null;
  // A second document (a `---` line) is an error at its line, after the first document's last
  // entry: it leaves nothing of the first document unsure (docs/configuration.md, "How YAML is read").
  // A number split by commas into keys written twice (`max: 1,000,000`) is read as a file with only
  // such keys is: its entry is checked, and the number said with its setting's range.
  const spans: [number, number][] = [...doc.errors, ...doc.warnings]
    .filter((e) => e.code !== 'MULTIPLE_DOCS' && !(e.code === 'DUPLICATE_KEY' && splitTwice(e.pos[0])))
    .map((e) => [e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)]);
  for (const offset of problems) spans.push([offset, offset + 1]);
  const start = collection.range?.[0] ?? 0;
  const entries: { key: PathSegment | null; node: Node | null; from: number; to: number }[] = [];
  if (isMap(collection)) {
    for (const pair of collection.items) {
      const key = isScalar(pair.key) && (typeof pair.key.value === 'string' || typeof pair.key.value === 'number') ? pair.key.value : null;
      const keyRange = (pair.key as Node | null)?.range;
      const value = (pair.value as Node | null) ?? null;
      const from = keyRange?.[0] ?? value?.range?.[0] ?? start;
      entries.push({ key, node: value, from, to: value?.range?.[2] ?? keyRange?.[2] ?? from });
    }
  } else {
    collection.items.forEach((item, i) => {
      const node = (item as Node | null) ?? null;
      const from = node?.range?.[0] ?? start;
      entries.push({ key: i, node, from, to: node?.range?.[2] ?? from });
    });
  }
  const before = spans.some(([a]) => a < start);
  // An entry's zone: from the end of the entry before it to the start of the entry after it.
  const sound = entries.map((e, i) => {
    if (before || e.key === null) return false;
    const from = i === 0 ? start : (entries[i - 1] as { to: number }).to;
    const to = i === entries.length - 1 ? Infinity : (entries[i + 1] as { from: number }).from;
    return !spans.some(([a, b]) => a <= to && b > from);
  });
  const inSound = (offset: number): boolean => entries.some((e, i) => sound[i] === true && offset >= e.from && offset < e.to);
  return entries.flatMap((e, i): SourceEntry[] => {
    if (e.key === null) return [];
    if (!sound[i]) return [{ key: e.key, sound: false }];
    if (e.node === null) return [{ key: e.key, sound: true, value: null }];
    let aliasesSound = true;
    visit(e.node, {
      Alias(_k, alias) {
        const target = alias.resolve(doc);
        if (!target?.range || !inSound(target.range[0])) {
          aliasesSound = false;
          return visit.BREAK;
        }
        return undefined;
      },
    });
    if (!aliasesSound) return [{ key: e.key, sound: false }];
    try {
      // yaml's default guard against alias bombs (a ReferenceError) leaves the entry unread.
      const value: unknown = e.node.toJS(doc);
      return [{ key: e.key, sound: true, value }];
    } catch {
      return [{ key: e.key, sound: false }];
    }
  });
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
