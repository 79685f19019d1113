// The fast way to read a fixture file. js-yaml parses about six times faster than the `yaml`
// package, which matters for suites of thousands of fixtures, but it keeps no document to point
// at. So: js-yaml gives the data and, through its listener, the start of every node by path; the
// `yaml` document (which every error and warning position comes from) is parsed only if something
// asks for a position that is not known, which happens when the file has a problem to report.
// When js-yaml refuses the text, the caller takes the `yaml` path and its exact syntax errors.

import jsyaml from 'js-yaml';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { pathKey, type PathSegment, type Position, type SourceFile } from './issues.js';

interface Frame {
  /** Offset where js-yaml opened the node. */
  start: number;
  children: Closed[];
}

interface Closed {
  start: number;
  kind: string | null;
  result: unknown;
  children: Closed[];
}

/** Fills `positions` with the start of every node under `node`, by path. */
function walk(node: Closed, path: PathSegment[], at: (offset: number) => Position, positions: Map<string, Position>): void {
  positions.set(pathKey(path), at(node.start));
  // js-yaml opens a node twice for some values (a block-sequence item holding a flow mapping):
  // the outer one has the inner one as its only child, with the same result.
  while (node.children.length === 1 && node.children[0]?.result === node.result && node.children[0]?.kind === node.kind) {
    node = node.children[0] as Closed;
  }
  if (node.kind === 'mapping') {
    for (let i = 0; i + 1 < node.children.length; i += 2) {
      const key = node.children[i] as Closed;
      const value = node.children[i + 1] as Closed;
      if (typeof key.result === 'string' || typeof key.result === 'number') walk(value, [...path, String(key.result)], at, positions);
    }
  } else if (node.kind === 'sequence') {
    node.children.forEach((child, i) => walk(child, [...path, i], at, positions));
  }
}

/**
 * A SourceFile whose `yaml` document is parsed on first use: most files are valid and never need
 * it; an error or a warning asks for a position and gets the exact one.
 */
/** How many yaml documents the lazy sources parsed (observable, for tests and diagnostics). */
export const lazyParses = { count: 0 };

export function lazyYamlSource(
  file: string,
  text: string,
  options: { uniqueKeys?: boolean } = {},
  positions?: ReadonlyMap<string, Position>,
): SourceFile {
  let parsed: { doc: Document.Parsed; lineCounter: LineCounter } | null = null;
  const full = (): { doc: Document.Parsed; lineCounter: LineCounter } => {
    if (parsed === null) {
      lazyParses.count += 1;
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(text, { lineCounter, prettyErrors: false, ...options }), lineCounter };
    }
    return parsed;
  };
  return {
    file,
    ...(positions ? { positions } : {}),
    get doc() {
      return full().doc;
    },
    get lineCounter() {
      return full().lineCounter;
    },
  };
}

/** Offsets at which each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Where the node that js-yaml opened at `offset` really starts: js-yaml opens a value before the
 * separating spaces, comments, line breaks, tags and anchors that `yaml` puts outside the node.
 */
function contentStart(text: string, offset: number): number {
  let i = offset;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') i++;
    else if (c === '!' || c === '&') {
      // A tag or an anchor: `yaml` starts the node at its content.
      while (i < text.length && !/\s/.test(text[i] as string)) i++;
    }
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else return i;
  }
}

function positionOf(starts: number[], offset: number): Position {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
}

/** Parses with js-yaml; null when it refuses the text (then the `yaml` path reports why). */
export function fastSource(file: string, text: string): { src: SourceFile; data: unknown } | null {
  const stack: Frame[] = [];
  let root: Closed | null = null;
  let data: unknown;
  try {
    data = jsyaml.load(text, {
      schema: jsyaml.CORE_SCHEMA,
      json: false,
      listener(event, state) {
        if (event === 'open') {
          stack.push({ start: state.position, children: [] });
          return;
        }
        const frame = stack.pop();
        if (!frame) return;
        const closed: Closed = { start: frame.start, kind: state.kind, result: state.result, children: frame.children };
        const parent = stack[stack.length - 1];
        if (parent) parent.children.push(closed);
        else root = closed;
      },
    });
  } catch {
    return null;
  }
  const positions = new Map<string, Position>();
  if (root !== null) {
    const starts = lineStarts(text);
    walk(root, [], (offset) => positionOf(starts, contentStart(text, offset)), positions);
  }

  // (Not a spread of lazyYamlSource's result: spreading would call its getters and parse.)
  const src = lazyYamlSource(file, text, {}, positions);
  return { src, data };
}
