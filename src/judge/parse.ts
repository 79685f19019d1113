// Reading a score out of what a judge model wrote. Pure: text in, JudgeResult out.
//
// Models asked for "only JSON" still wrap it in code fences or in a sentence. We read, in order:
// the whole text as JSON (then that object alone decides); else the content of its ``` fences
// and the balanced {...} of the prose around them, outermost only, the first that parses and
// carries a score. An object's own score decides: `{"score": 1.5, "example": {"score": 0.9}}`
// is a score of 1.5 (outside the scale), not 0.9; only an object without one is looked into
// (`{"result": {"score": 0.65}}`). A score must be a number (or a numeric string) in [0, 1]: it is
// never clamped, because a model that answers 1.4 did not follow the scale and its number means
// nothing on ours. An answer that gives more than one score is not read at all: two objects (or
// fences, or nested objects) with different scores, or one object that names `score` twice (JSON
// keeps the last). A judge that quotes the reply's "{"score": 1}" before its own answer must not
// pass it (docs/judges.md, "What the judge reads").

import type { JudgeResult } from '../types.js';
import { headOf, shownJson } from '../words.js';

const MAX_RATIONALE_CHARS = 200;
const NO_RATIONALE = '(no rationale given)';
const SNIPPET_CHARS = 80;
const MAX_SCANNED_CHARS = 20_000;

type Candidate = Record<string, unknown>;

function isObject(value: unknown): value is Candidate {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Every outermost balanced `{...}` in `text`, in order, respecting JSON strings (one inside another is part of it). */
function balancedObjects(input: string): string[] {
  // Judge replies are short; the bound keeps the quadratic worst case small.
  const text = input.slice(0, MAX_SCANNED_CHARS);
  const found: string[] = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) {
          found.push(text.slice(start, i + 1));
          // The next object starts after this one: none nested in it is read on its own.
          start = i;
          break;
        }
      }
    }
  }
  return found;
}

/** An object the text may mean, and the JSON text it was read from. */
interface Read {
  value: Candidate;
  json: string;
}

function candidates(text: string): Read[] {
  // The whole answer is one object: it alone is what the model said.
  const whole = tryJson(text);
  if (isObject(whole)) return [{ value: whole, json: text }];
  const out: Read[] = [];
  const push = (json: string): void => {
    const value = tryJson(json);
    if (isObject(value)) out.push({ value, json });
  };
  // Fenced JSON first, then the objects of the prose around the fences: a judge that quotes the
  // reply's fenced `{"score": 1}` and answers in prose gives two scores, not the quoted one
  // (docs/judges.md, "What the judge reads"). A fence that holds no object stays in the prose.
  const prose = text.replace(/```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g, (fence, inner: string) => {
    const before = out.length;
    push(inner.trim());
    return out.length > before ? '\n' : fence;
  });
  for (const chunk of balancedObjects(prose)) push(chunk);
  return out;
}

/** Whether one object of the JSON text `json` names `key` (any case) more than once: JSON.parse keeps only the last. */
function repeatsKey(json: string, key: string): boolean {
  // One entry per open container: whether an object has named `key` yet; null for an array.
  const open: (boolean | null)[] = [];
  const colon = /\s*:/y;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (ch === '{') open.push(false);
    else if (ch === '[') open.push(null);
    else if (ch === '}' || ch === ']') open.pop();
    else if (ch === '"') {
      let end = i + 1;
      while (end < json.length && json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      colon.lastIndex = end + 1;
      const top = open.length - 1;
      if (open[top] !== null && open[top] !== undefined && colon.test(json) && String(tryJson(json.slice(i, end + 1)) ?? '').toLowerCase() === key) {
        if (open[top]) return true;
        open[top] = true;
      }
      i = end;
    }
  }
  return false;
}

/** A reasoning model's thinking tag, opening or closing: `<think>` (DeepSeek-R1, Qwen3, QwQ) or `<thinking>`, any case. */
const THINK_OPEN = /^\s*<(think|thinking)>/i;
const THINK_CLOSE = /<\/(think|thinking)>/i;

/**
 * A reasoning model's answer apart from its thinking, as vLLM's reasoning parsers split them: the
 * thinking ends at its first closing tag (`</think>`), opened by the answer's first characters or
 * by the model's chat template (no opening tag written), and the answer is what follows. An opening
 * tag never closed is thinking only: the model never answered. `headless`: the thinking had no
 * opening tag; an answer that opens with its JSON (`{`, a fence) has none (docs/judges.md, "What the judge reads").
 */
export function splitThinking(text: string): { answer: string; thinking: string | null; headless: boolean } {
  const open = THINK_OPEN.exec(text);
  const close = THINK_CLOSE.exec(text);
  if (open !== null && (close === null || close.index < open[0].length)) return { answer: '', thinking: text, headless: false };
  // An answer that opens with its JSON is no thinking: a "</think>" after it is the reply's, quoted.
  if (close === null || (open === null && /^\s*(?:\{|```)/.test(text))) return { answer: text, thinking: null, headless: false };
  return { answer: text.slice(close.index + close[0].length), thinking: text.slice(0, close.index), headless: open === null };
}

/** Whether an object read names one of `keys`, itself or in an object within it, in any case. */
function carries(read: readonly Read[], keys: readonly string[]): boolean {
  return read.some((c) => keys.some((key) => JSON.stringify(c.value).toLowerCase().includes(`"${key}":`)));
}

/**
 * The objects that the text may mean, most explicit first, and whether one of them names one of
 * `keys` twice: for a reader of scores (the judge's, the meaning judge's) or of the simulator's answer.
 * A reasoning model's thinking is not its answer (splitThinking): a draft `{"score": 0.3}` in it is
 * not read. When its thinking had no opening tag (so the tag may be a reply's, quoted), the thinking's
 * objects still count beside an answer that has some of its own (two scores stay two). `unread`
 * says why nothing was read when the thinking holds the only answer or never ended.
 */
export function keyedCandidates(text: string, keys: readonly string[]): { values: Record<string, unknown>[]; repeated: boolean; unread?: string } {
  const split = isObject(tryJson(text)) ? { answer: text, thinking: null, headless: false } : splitThinking(text);
  const answer = candidates(split.answer.trim());
  const thinking = split.thinking === null ? [] : candidates(split.thinking.replace(THINK_OPEN, '').trim());
  const read = split.headless && carries(answer, keys) ? [...thinking, ...answer] : answer;
  const out = { values: read.map((c) => c.value), repeated: read.some((c) => keys.some((key) => repeatsKey(c.json, key))) };
  if (split.thinking !== null && split.answer.trim() === '') return { ...out, unread: "the model's thinking (<think>) never ended in an answer" };
  if (!carries(answer, keys) && carries(thinking, keys)) return { ...out, unread: `the only ${keys.join(' or ')} is in the model's thinking, before its </think>, not in its answer ("${snippet(split.answer)}")` };
  return out;
}

/**
 * Why an answer's scores do not give one score (null when they do): the answer is ambiguous.
 * `unusable` are the other scores it gives, as written (`1.5`, `"high"`): beside a usable one they
 * are a second score too, so a judge that quotes the reply's `{"score": 1}` before an answer of its
 * own off the scale does not pass by the quote (docs/judges.md, "What the judge reads").
 */
export function ambiguousScores(scores: readonly number[], repeated: boolean, unusable: readonly string[] = []): string | null {
  const distinct = [...new Set([...scores.map(String), ...(scores.length > 0 ? unusable : [])])];
  if (distinct.length > 1) return `the answer gives ${distinct.length} different scores (${distinct.join(', ')}): which one is meant is unknown`;
  if (repeated) return 'the answer names "score" twice in one object: which one is meant is unknown';
  return null;
}

/** An object's field by name in any case (`Score`, `SCORE`): a model's answer is read as meant. */
export function field(obj: Candidate, name: string): unknown {
  if (name in obj) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : obj[key];
}

/**
 * A score as a number: a JSON number, or a string that reads as one ("0.9", " .9 ", "9e-1"); null
 * otherwise. The rubric judge and the meaning judge read a score the same way (docs/judges.md).
 */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * One line of rationale: first non-empty line, trimmed, at most 200 characters. A line ends at any
 * line break a text may hold: \n, \r\n, \r, and Unicode's LINE SEPARATOR and PARAGRAPH SEPARATOR
 * (U+2028, U+2029), which a terminal or a markdown table would show as a break too.
 */
export function oneLine(value: unknown, max = MAX_RATIONALE_CHARS): string {
  if (typeof value !== 'string') return NO_RATIONALE;
  const line = value
    .split(/\r?\n|[\r\u2028\u2029]/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (line === undefined) return NO_RATIONALE;
  return line.length > max ? `${headOf(line, max - 1)}\u2026` : line;
}

/** The start of a text, on one line, for a reason string. */
export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${headOf(flat, max)}\u2026` : flat;
}

/** A score as the answer wrote it, for a reason: `1.5`, `"high"`, `null`. */
export function formatScoreValue(value: unknown): string {
  return typeof value === 'string' ? shownJson(value) : String(shownJson(value) ?? value);
}

/** A score from one object, or the problem with it; null when the object carries no score. */
function fromObject(obj: Candidate): JudgeResult | null {
  const raw = field(obj, 'score');
  if (raw === undefined) return null;
  const score = toNumber(raw);
  if (score === null) return { ok: false, reason: `score ${formatScoreValue(raw)} is not a number` };
  if (score < 0 || score > 1) return { ok: false, reason: `score ${score} is outside [0,1]` };
  const rationale = field(obj, 'rationale') ?? field(obj, 'reason') ?? field(obj, 'explanation');
  return { ok: true, score, rationale: oneLine(rationale) };
}

/**
 * The objects that carry a score in an answer's object: itself when it names `score` (right or
 * wrong, its own decides), else those nested in it (a model that wrapped its answer: {"result": {...}}).
 */
export function scoredObjects(obj: Candidate, depth = 0): Candidate[] {
  if (field(obj, 'score') !== undefined) return [obj];
  if (depth >= 4) return [];
  return Object.values(obj).flatMap((value) => (isObject(value) ? scoredObjects(value, depth + 1) : []));
}

/** The scores an object carries (`scoredObjects`), each read, with the score as written. */
function scoresIn(obj: Candidate): { result: JudgeResult; given: string }[] {
  return scoredObjects(obj).flatMap((o) => {
    const result = fromObject(o);
    return result === null ? [] : [{ result, given: formatScoreValue(field(o, 'score')) }];
  });
}

export function parseJudgeOutput(text: string): JudgeResult {
  const { values, repeated, unread } = keyedCandidates(text.trim(), ['score']);
  const found = values.flatMap((obj) => scoresIn(obj));
  const results = found.map((f) => f.result);
  const usable = results.filter((r): r is Extract<JudgeResult, { ok: true }> => r.ok);
  const ambiguous = ambiguousScores(
    usable.map((r) => r.score),
    repeated,
    found.filter((f) => !f.result.ok).map((f) => f.given),
  );
  if (ambiguous !== null) return { ok: false, reason: ambiguous };
  if (usable[0] !== undefined) return usable[0];
  const problem = results.find((r) => !r.ok);
  if (problem !== undefined && !problem.ok) return { ok: false, reason: problem.reason };
  return { ok: false, reason: `no usable score in output: ${unread ?? `"${snippet(text)}"`}` };
}

/** A score from an object the provider already decoded (an Anthropic tool call's `input`). */
export function parseJudgeObject(value: unknown): JudgeResult {
  const result = isObject(value) ? fromObject(value) : null;
  return result ?? { ok: false, reason: `no usable score in output: "${snippet(shownJson(value) ?? String(value))}"` };
}
