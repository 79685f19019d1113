// A seeded generator of YAML documents for the differential test of the one YAML reading:
// scalars in every style, block and flow collections, anchors and aliases, comments.

import { prng } from '../support/prng.js';

export { prng };

/** Plain scalars that resolve differently in YAML 1.1, YAML 1.2 core, JSON and js-yaml's default schema. */
export const TRICKY_PLAIN = [
  '0b101', '0B101', 'yes', 'Yes', 'YES', 'no', 'No', 'on', 'On', 'off', 'OFF', 'y', 'Y', 'n', 'N',
  '1e3', '1E3', '1e+3', '1.5e-3', '.5e2', '.inf', '-.inf', '+.inf', '.Inf', '-.INF', '.nan', '.NaN', '.NAN', '-.nan', '.iNf',
  '2026-11-30', '2026-11-30T10:00:00Z', '2001-12-14 21:59:43.10 -5', '12:30:45', '1:30', '190:20:30',
  '0', '-0', '+0', '00', '007', '08', '09.5', '0x1F', '0x1f', '0X1F', '0o17', '0o8', '-0x1F', '+0o7', '0x', '0o',
  '1_000', '1_000.5', '1.5', '.5', '-.5', '+1.', '1.', '-1.', '0.0', '-0.0', '1.50', '1.2.3', '1e', 'e3', '1e400', '-1e400',
  '123456789012345678901234567890', '9007199254740993', '0xffffffffffffffffffff', '0o777777777777777777777777',
  'Infinity', 'NaN', 'inf', 'nan', 'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'FALSE', 'fAlse',
  '~', 'null', 'Null', 'NULL', 'nULL', '<<', '=', 'hello world', 'Grüße', '👋', 'a.b', '-a', '+a', '.a', 'x_y',
];

const PLAIN_ALPHABET = '0123456789.eE+-xobXOB_aAfFnNlLtTrRuUsSyY~=';

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

function randomPlain(r: () => number): string {
  for (;;) {
    let s = '';
    const n = 1 + Math.floor(r() * 6);
    for (let i = 0; i < n; i++) s += pick(r, PLAIN_ALPHABET.split(''));
    // A plain scalar may not start with `-` or `~`-sequences that are structure; `-` alone, `- x`,
    // and `--`/`...` document markers are not scalars.
    if (/^(?:-|--|---|\.\.\.)$/.test(s) || s.startsWith('- ')) continue;
    return s;
  }
}

function randomText(r: () => number): string {
  const chars = ['a', 'b', ' ', '"', "'", '\\', '\n', '\t', 'é', '😀', ':', '#', ',', '[', '}', '&', '*', '!', '%', '1', '.', '-'];
  let s = '';
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n; i++) s += pick(r, chars);
  return s;
}

function plainToken(r: () => number, inFlow: boolean): string {
  const t = r() < 0.6 ? pick(r, TRICKY_PLAIN) : randomPlain(r);
  // Inside flow collections a colon or a space-separated word changes the structure.
  if (inFlow && /[:\s]/.test(t)) return 'word';
  return t;
}

function scalar(r: () => number, inFlow: boolean): string {
  const x = r();
  if (x < 0.65) return plainToken(r, inFlow);
  if (x < 0.8) return JSON.stringify(randomText(r));
  if (x < 0.9) return `'${randomText(r).replace(/\n/g, ' ').replace(/'/g, "''")}'`;
  const tag = pick(r, ['!!str', '!!int', '!!float', '!!bool', '!!null']);
  return `${tag} ${plainToken(r, inFlow)}`;
}

const KEY_WORDS = ['label', 'message', 'assert', 'a', 'b', 'c', 'key-1', 'k_2', 'x.y', '<<', '1', '2.5', '0x10', 'true', 'yes', 'on', '1e3'];

function key(r: () => number, used: Set<string>): string {
  for (;;) {
    const k = r() < 0.8 ? pick(r, KEY_WORDS) : JSON.stringify(randomText(r).replace(/\n/g, ' '));
    if (!used.has(k)) {
      used.add(k);
      return k;
    }
    if (used.size >= KEY_WORDS.length) return JSON.stringify(`k${used.size}-${Math.floor(r() * 1e9)}`);
  }
}

interface Ctx {
  r: () => number;
  anchors: string[];
}

function anchorOrAlias(ctx: Ctx): { prefix: string; alias: string | null } {
  const x = ctx.r();
  if (x < 0.08 && ctx.anchors.length > 0) return { prefix: '', alias: `*${pick(ctx.r, ctx.anchors)}` };
  if (x < 0.16) {
    const name = `a${ctx.anchors.length}`;
    ctx.anchors.push(name);
    return { prefix: `&${name} `, alias: null };
  }
  return { prefix: '', alias: null };
}

/**
 * How a flow collection's items are laid out over lines: each after a line break and `items`, the
 * closing bracket after one and `close` (null: all on one line).
 */
interface FlowLayout {
  items: string;
  close: string;
}

function flowValue(ctx: Ctx, depth: number, layout: FlowLayout | null = null): string {
  const x = ctx.r();
  if (depth > 2 || x < 0.6) return scalar(ctx.r, true);
  const n = Math.floor(ctx.r() * 4);
  const join = (parts: string[]): string => (layout === null ? parts.join(', ') : parts.map((p) => `\n${layout.items}${p}`).join(',') + `\n${layout.close}`);
  if (x < 0.8) return `[${join(Array.from({ length: n }, () => flowValue(ctx, depth + 1)))}]`;
  const used = new Set<string>();
  const keys = Array.from({ length: n }, () => key(ctx.r, used)).filter((k) => !/[:\s]/.test(k) || k.startsWith('"'));
  return `{${join(keys.map((k) => `${k}: ${flowValue(ctx, depth + 1)}`))}}`;
}

/**
 * A flow value after a key (or "-") at column `edge`: one in three over several lines, its items
 * and closing bracket each on a line indented deeper than the key, at its column or (one in three)
 * left of it, where YAML 1.2 ends the collection and js-yaml reads on.
 */
function flowLayout(ctx: Ctx, edge: number): FlowLayout | null {
  if (edge < 0 || ctx.r() < 0.67) return null;
  const at = (deep: number): string => ' '.repeat(ctx.r() < 0.33 ? Math.floor(ctx.r() * (edge + 1)) : deep);
  return { items: at(edge + 2), close: at(edge) };
}

/** Lines of a block node at `indent`, or a one-line value (flow or scalar). */
type Rendered = { inline: string } | { lines: string[] };

function blockValue(ctx: Ctx, depth: number, indent: number): Rendered {
  const x = ctx.r();
  const pad = ' '.repeat(indent);
  if (depth > 3 || x < 0.45) {
    const { prefix, alias } = anchorOrAlias(ctx);
    if (alias) return { inline: alias };
    const comment = ctx.r() < 0.1 ? ' # note' : '';
    return { inline: `${prefix}${scalar(ctx.r, false)}${comment}` };
  }
  if (x < 0.55) return { inline: flowValue(ctx, 0, flowLayout(ctx, indent - 2)) };
  if (x < 0.62) {
    const lines = ['hello', '  indented', '', 'é 😀 "q"'].slice(0, 1 + Math.floor(ctx.r() * 4));
    return { inline: `${pick(ctx.r, ['|', '>', '|-', '>+'])}\n${lines.map((l) => (l === '' ? '' : pad + l)).join('\n')}` };
  }
  const n = 1 + Math.floor(ctx.r() * 4);
  const out: string[] = [];
  if (x < 0.8) {
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      const k = key(ctx.r, used);
      const v = blockValue(ctx, depth + 1, indent + 2);
      if ('inline' in v) out.push(`${pad}${k}: ${v.inline}`);
      else out.push(`${pad}${k}:`, ...v.lines);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const v = blockValue(ctx, depth + 1, indent + 2);
      if ('inline' in v) out.push(`${pad}- ${v.inline}`);
      else out.push(`${pad}-`, ...v.lines);
    }
  }
  return { lines: out };
}

/** One document; about one in five starts with `---` or a directive. */
export function generateDocument(seed: number): string {
  const r = prng(seed);
  let ctx: Ctx = { r, anchors: [] };
  let v = blockValue(ctx, 0, 0);
  if (r() < 0.7 && 'inline' in v) {
    ctx = { r, anchors: [] };
    v = blockValue(ctx, 0, 0);
  }
  const body = 'inline' in v ? `${v.inline}\n` : `${v.lines.join('\n')}\n`;
  const x = r();
  return x < 0.1 ? `---\n${body}` : x < 0.15 ? `%YAML 1.2\n---\n${body}` : body;
}
