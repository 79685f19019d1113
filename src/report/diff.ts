// Word-level diff of two replies: longest common subsequence over word tokens, with a size guard.
// When the word table would be too large it falls back to lines, and then to "too large to diff".

export type DiffOpKind = 'equal' | 'delete' | 'insert';

export interface DiffOp {
  kind: DiffOpKind;
  text: string;
}

export type WordDiff =
  | { mode: 'words' | 'lines'; ops: DiffOp[] }
  | { mode: 'too_large'; aTokens: number; bTokens: number };

export interface WordDiffOptions {
  /** Largest LCS table (tokens of a x tokens of b, after trimming common ends). Default 2,000,000. */
  maxCells?: number;
}

const DEFAULT_MAX_CELLS = 2_000_000;

/** Words, single punctuation characters and whitespace runs; concatenating them gives the text back. */
export function wordTokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu) ?? [];
}

/** Lines including their newline; concatenating them gives the text back. */
export function lineTokens(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

/**
 * Diffs `a` (baseline) against `b` (new). The ops concatenate back to `a` (equal + delete) and to
 * `b` (equal + insert). Within each changed region deletions come before insertions.
 */
export function wordDiff(a: string, b: string, options: WordDiffOptions = {}): WordDiff {
  const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
  if (a === b) return { mode: 'words', ops: a === '' ? [] : [{ kind: 'equal', text: a }] };
  const aw = wordTokens(a);
  const bw = wordTokens(b);
  const words = diffTokens(aw, bw, maxCells);
  if (words) return { mode: 'words', ops: cleanup(words) };
  const al = lineTokens(a);
  const bl = lineTokens(b);
  const lines = diffTokens(al, bl, maxCells);
  if (lines) return { mode: 'lines', ops: groupChanges(merge(lines)) };
  return { mode: 'too_large', aTokens: aw.length, bTokens: bw.length };
}

/** LCS diff of two token lists, or null when the table would exceed `maxCells`. */
function diffTokens(a: readonly string[], b: readonly string[], maxCells: number): DiffOp[] | null {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n * m > maxCells) return null;

  const ops: DiffOp[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: 'equal', text: a[i] as string });

  // Intern tokens so the inner loop compares integers.
  const ids = new Map<string, number>();
  const intern = (t: string): number => {
    let id = ids.get(t);
    if (id === undefined) {
      id = ids.size;
      ids.set(t, id);
    }
    return id;
  };
  const ai = Int32Array.from({ length: n }, (_, i) => intern(a[start + i] as string));
  const bi = Int32Array.from({ length: m }, (_, j) => intern(b[start + j] as string));

  // table[i][j] = LCS length of ai[i..] and bi[j..]
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] =
        ai[i] === bi[j]
          ? (table[(i + 1) * w + j + 1] as number) + 1
          : Math.max(table[(i + 1) * w + j] as number, table[i * w + j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (ai[i] === bi[j]) {
      ops.push({ kind: 'equal', text: a[start + i] as string });
      i++;
      j++;
    } else if ((table[(i + 1) * w + j] as number) >= (table[i * w + j + 1] as number)) {
      ops.push({ kind: 'delete', text: a[start + i] as string });
      i++;
    } else {
      ops.push({ kind: 'insert', text: b[start + j] as string });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ kind: 'delete', text: a[start + i] as string });
  for (; j < m; j++) ops.push({ kind: 'insert', text: b[start + j] as string });
  for (let k = endA; k < a.length; k++) ops.push({ kind: 'equal', text: a[k] as string });
  return ops;
}

/** Joins adjacent ops of the same kind. */
function merge(ops: readonly DiffOp[]): DiffOp[] {
  const out: DiffOp[] = [];
  for (const op of ops) {
    const last = out[out.length - 1];
    if (last && last.kind === op.kind) out[out.length - 1] = { kind: op.kind, text: last.text + op.text };
    else out.push({ ...op });
  }
  return out;
}

/** Within each run of changes, all deletions first, then all insertions. */
function groupChanges(ops: readonly DiffOp[]): DiffOp[] {
  const out: DiffOp[] = [];
  let del = '';
  let ins = '';
  const flush = (): void => {
    if (del) out.push({ kind: 'delete', text: del });
    if (ins) out.push({ kind: 'insert', text: ins });
    del = '';
    ins = '';
  };
  for (const op of ops) {
    if (op.kind === 'delete') del += op.text;
    else if (op.kind === 'insert') ins += op.text;
    else {
      flush();
      const last = out[out.length - 1];
      if (last && last.kind === 'equal') out[out.length - 1] = { kind: 'equal', text: last.text + op.text };
      else out.push({ kind: 'equal', text: op.text });
    }
  }
  flush();
  return out;
}

/**
 * Readability: a short run of whitespace or punctuation between two changes joins them, so
 * "[-a b c-]{+x y z+}" instead of "[-a-]{+x+} [-b-]{+y+} [-c-]{+z+}".
 */
function cleanup(tokens: readonly DiffOp[]): DiffOp[] {
  const ops = merge(tokens);
  const out: DiffOp[] = [];
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as DiffOp;
    const prev = ops[k - 1];
    const next = ops[k + 1];
    if (
      op.kind === 'equal' &&
      prev !== undefined &&
      next !== undefined &&
      prev.kind !== 'equal' &&
      next.kind !== 'equal' &&
      op.text.length <= 3 &&
      /^[\s\p{P}]*$/u.test(op.text)
    ) {
      out.push({ kind: 'delete', text: op.text }, { kind: 'insert', text: op.text });
    } else out.push(op);
  }
  return groupChanges(out);
}
