// The fast way to read a fixture file. js-yaml parses about six times faster than the `yaml`
// package, which matters for suites of thousands of fixtures, but it keeps no document to point
// at. So: js-yaml gives the data and, through its listener, the start of every node by path; the
// `yaml` document (which every error and warning position comes from) is parsed only if something
// asks for a position that is not known, which happens when the file has a problem to report.
// When js-yaml refuses the text, the caller takes the `yaml` path and its exact syntax errors.

import jsyaml from 'js-yaml';
import { readLines, type Closed } from './lines.js';
import { SUITE_SCHEMA } from './schema.js';
import { documentSource, type PathSegment, type Position, type SourceFile } from './source.js';

interface Frame {
  /** Offset where js-yaml opened the node. */
  start: number;
  children: Closed[];
}

/** js-yaml opens some nodes twice (a block-sequence item holding a flow mapping): the outer one has the inner one as its only child, with the same result. */
function unwrap(node: Closed): Closed {
  let n = node;
  while (n.children.length === 1 && n.children[0]?.result === n.result && n.children[0]?.kind === n.kind) n = n.children[0] as Closed;
  return n;
}

/** The node at `path` under `root`, or null. */
function nodeAtPath(root: Closed, path: readonly PathSegment[]): Closed | null {
  let node: Closed = root;
  for (const seg of path) {
    const n = unwrap(node);
    let next: Closed | undefined;
    if (n.kind === 'mapping') {
      const name = String(seg);
      for (let i = 0; i + 1 < n.children.length; i += 2) {
        const key = (n.children[i] as Closed).result;
        if (typeof key === 'string' ? key === name : typeof key === 'number' && String(key) === name) next = n.children[i + 1];
      }
    } else if (n.kind === 'sequence' && typeof seg === 'number') {
      // js-yaml opens no node for an empty item (a "-" and nothing after it): its children are
      // then not the list's items, and the document says where they are.
      if (!Array.isArray(n.result) || n.children.length !== n.result.length) return null;
      next = n.children[seg];
    }
    if (next === undefined) return null;
    node = next;
  }
  return node;
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

/** Why js-yaml refused a text: its reason (never the snippet of the file) and where. */
export interface FastRefusal {
  reason: string;
  position: Position;
  /** Where, as an offset into the text, when known. */
  offset?: number;
  /** The nesting exhausted the stack (`[[[[...`): no parser will do better, say so at once. */
  tooDeep?: true;
}

/**
 * Parses with js-yaml and the suite schema: the data and a source whose positions come from
 * js-yaml where it knows them. A refusal carries js-yaml's reason and position; the caller asks
 * the `yaml` document for its better-worded syntax errors first.
 */
export function fastSource(
  file: string,
  text: string,
  lastKeyWins = false,
  byLines = true,
): { src: SourceFile; data: unknown; byLines?: true; multiLineFlow?: true } | { refused: FastRefusal } {
  // The common file, read line by line (suite/yaml/lines.ts): the same data and node starts as js-yaml's.
  // Not again for a text read a second time with lastKeyWins: a key written twice is js-yaml's to read.
  const read = byLines && !lastKeyWins ? readLines(text) : null;
  // `byLines`: the line reader read it, so every value is on its key's line (no multi-line [ ] or { }).
  if (read !== null) return { src: sourceOf(file, text, read.root), data: read.data, byLines: true };
  const stack: Frame[] = [];
  let root: Closed | null = null;
  let data: unknown;
  /** A `[ ]` or `{ }` js-yaml read over more than one line: the only place a line can slip left of its key (flowIndentSlips). */
  let multiLineFlow = false;
  /** No bracket in the text: nothing to look at when a node closes. */
  const flowless = !/[[{]/.test(text);
  try {
    data = jsyaml.load(text, {
      schema: SUITE_SCHEMA,
      // js-yaml's JSON compatibility: a key written twice takes its last value instead of refusing.
      json: lastKeyWins,
      listener(event, state) {
        if (event === 'open') {
          stack.push({ start: state.position, children: [] });
          return;
        }
        const frame = stack.pop();
        if (!frame) return;
        if (!flowless && !multiLineFlow && (state.kind === 'sequence' || state.kind === 'mapping')) {
          const at = contentStart(text, frame.start);
          const c = text[at];
          if (c === '[' || c === '{') {
            const eol = text.indexOf('\n', at);
            multiLineFlow = eol !== -1 && eol < state.position;
          }
        }
        const closed: Closed = { start: frame.start, kind: state.kind, result: state.result, children: frame.children };
        const parent = stack[stack.length - 1];
        if (parent) parent.children.push(closed);
        else root = closed;
      },
    });
  } catch (e) {
    if (e instanceof RangeError) {
      return { refused: { reason: 'lists or mappings are nested too deeply to read', position: { line: null, column: null }, tooDeep: true } };
    }
    const err = e as { reason?: unknown; mark?: { line?: unknown; column?: unknown; position?: unknown } };
    const line = typeof err.mark?.line === 'number' ? err.mark.line + 1 : null;
    const column = typeof err.mark?.column === 'number' ? err.mark.column + 1 : null;
    const reason = typeof err.reason === 'string' ? err.reason : 'the YAML parser refused the file';
    // js-yaml stops at 100 levels; the `yaml` package would only overflow its stack on such a text.
    if (reason.startsWith('nesting exceeded maxDepth')) {
      return { refused: { reason: 'lists or mappings are nested more than 100 levels deep', position: { line, column }, tooDeep: true } };
    }
    const offset = typeof err.mark?.position === 'number' ? err.mark.position : undefined;
    return { refused: { reason, position: { line, column }, ...(offset === undefined ? {} : { offset }) } };
  }
  const src = sourceOf(file, text, root as Closed | null);
  return multiLineFlow ? { src, data, multiLineFlow } : { src, data };
}

/** The source of a file read by js-yaml or line by line: positions known from `tree`, the rest from the `yaml` document. */
function sourceOf(file: string, text: string, tree: Closed | null): SourceFile {
  let starts: number[] | null = null;
  const knownPosition = (path: readonly PathSegment[]): Position | null => {
    const node = tree === null ? null : nodeAtPath(tree, path);
    if (node === null) return null;
    const at = contentStart(text, node.start);
    // An empty value (`message:` then a new line): the next token is another key's; the document's key position says where it was written.
    // So too on a last line without a line break (as Notepad saves a file): the value "starts" at the text's end.
    if (node.result === null && (at === text.length || text.slice(node.start, at).includes('\n'))) return null;
    starts ??= lineStarts(text);
    return positionOf(starts, at);
  };
  const src = documentSource(file, text, {}, knownPosition);
  // A key the `yaml` document does not read where js-yaml does (a line of a multi-line `[ ]` left
  // of its key, read as written: flowIndentSlips): where js-yaml read it.
  const knownKey = (path: readonly PathSegment[], key: PathSegment): Position | null => {
    const node = tree === null ? null : nodeAtPath(tree, path);
    const map = node === null ? null : unwrap(node);
    if (map === null || map.kind !== 'mapping') return null;
    for (let i = 0; i + 1 < map.children.length; i += 2) {
      const k = map.children[i] as Closed;
      if ((typeof k.result === 'string' || typeof k.result === 'number') && String(k.result) === String(key)) {
        starts ??= lineStarts(text);
        return positionOf(starts, contentStart(text, k.start));
      }
    }
    return null;
  };
  return { ...src, keyAt: (path, key) => src.keyAt(path, key) ?? knownKey(path, key) };
}
