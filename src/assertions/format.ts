// Small helpers for detail lines: one line each, values quoted and bounded.

import { citingCut } from '../version.js';
import { headOf } from '../words.js';

const MAX_QUOTED_CHARS = 80;

/** `"value"` on one line (newlines and tabs shown as \n and \t), at most `max` characters. */
export function quote(value: string, max = MAX_QUOTED_CHARS): string {
  const cut = value.length > max ? `${headOf(value, max)}\u2026` : value;
  return `"${cut.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/** `/pattern/flags`, bounded like a quoted value. */
export function showPattern(pattern: string, flags: string, max = MAX_QUOTED_CHARS): string {
  const cut = pattern.length > max ? `${headOf(pattern, max)}\u2026` : pattern;
  return `/${cut.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}/${flags}`;
}

/**
 * A score and a threshold printed with the fewest decimals (at least two) that keep the
 * comparison visible: 0.695 against 0.70 prints as 0.695 < 0.700, never 0.70 < 0.70.
 */
export function formatPair(score: number, threshold: number): [string, string] {
  for (let digits = 2; digits <= 6; digits++) {
    const s = score.toFixed(digits);
    const t = threshold.toFixed(digits);
    if ((s === t) === (score === threshold)) return [s, t];
  }
  return [String(score), String(threshold)];
}

/** One line of free text (a message from elsewhere), bounded. */
export function line(text: string, max = 200): string {
  const flat = flatten(text);
  return flat.length > max ? `${headOf(flat, max)}\u2026` : flat;
}

/**
 * How the fix after a failure begins: a client's (src/judge/http.ts, src/http/network.ts,
 * src/agent/http-client.ts): "; check whether ...", "; point NODE_EXTRA_CA_CERTS ...", "; renew the
 * certificate", "; the proxy speaks plain HTTP ...", "; the server speaks plain HTTP ...", "; nothing
 * listens there: ..."; a persona script's tool call no mock answered (src/evaluate/personas.ts,
 * unmockedWords): "; the script declares mocks, so ...", "; the script sets unmockedTools: error: ...",
 * "; config.yml sets personas.unmockedTools: error: ..."; a stream's line sent without its data:
 * (src/agent/stream.ts): "; send each line of a chunk as its own data: line"; tool calls read at no
 * path (src/agent/response.ts): "; the response holds tool calls at ...: set ..."; a welcome's reply
 * path (src/agent/http-client.ts): "; correct the path, ..."; spans (src/traces/): "; set
 * OTEL_EXPORTER_OTLP_ENDPOINT to ...", "; does the agent ...?", "; is traces.waitMs long enough ...?",
 * "; have the agent flush ...", the receiver's port "; set another in ...", "; choose another port ...".
 * Every fix the modules that write reasons put after "; " is one of these: test/assertions/fix-start.test.ts
 * reads them from the sources, so that a fix in new words is added here, not cut silently.
 */
export const FIX_START =
  /; (?:(?:check|point|see|give|raise|use|write|name|renew|correct|something other than|a proxy that inspects|the proxy's certificate must|the proxy speaks plain HTTP|the server speaks plain HTTP|does the agent|is traces\.waitMs|have the agent|set another|choose another port) |nothing listens there: |the response holds tool calls at |the script declares mocks, |the script sets unmockedTools: |[^;()]+? sets personas\.unmockedTools: |send each line of a chunk |set OTEL_EXPORTER_OTLP_)/;

/** An HTTP status in a client's reason, after which the answer it quotes may follow (serverText). */
const STATUS = /\bHTTP \d{3}\b/g;

/**
 * Where a server's own text begins in a client's reason: the answer quoted after its status (`HTTP
 * 500: <its message>`, `agent returned HTTP 500 after 3 attempts: <its body>`), after the first ": "
 * that follows the status with no ";" or other ":" before it, the status and it outside a parenthesis and a quoted text
 * (topLevel): `HTTP 429 after 1 attempt (rate limited: ...; given up at once ...): <its message>`.
 * It runs to the end of the reason (a panel's: to the end of its members' reasons); -1: none.
 */
function serverText(text: string): number {
  for (const status of text.matchAll(STATUS)) {
    // A status inside a quoted text (a model's output) is not one the client said.
    if (!atTopLevel(text, status.index)) continue;
    for (const i of topLevel(text, text.length)) {
      if (i < status.index + status[0].length) continue;
      if (text.startsWith(': ', i)) return i + 2;
      if (text[i] === ':' || text[i] === ';') break;
    }
  }
  return -1;
}

/** FIX_START, for each of its places in a text. */
const FIX_STARTS = new RegExp(FIX_START.source, 'g');

/**
 * Where the fix of a client's reason, written `<what happened>; <the fix>`, begins (the index of
 * its "; "), or -1 when it has none: a shared line or the terminal keeps the fix whole, and a
 * shared line adds no general fix after it (src/report/cause-details.ts, src/report/terminal.ts).
 * Only a fix agent-replay wrote counts: the first "; check ..." (see FIX_START) that is neither in
 * a server's text (serverText: no fix of ours follows the answer a reason quotes) nor inside a
 * parenthesis or a quoted text (atTopLevel). A server's `{"error":"bad input; see logs"}` is never
 * taken for a fix, nor a "; see ..." of a parenthesis, so that clipping keeps what happened, not
 * the server's words, and never cuts inside a parenthesis.
 */
export function fixStart(text: string): number {
  const server = serverText(text);
  const ours = server < 0 ? text : text.slice(0, server);
  for (const m of ours.matchAll(FIX_STARTS)) if (atTopLevel(text, m.index)) return m.index;
  return -1;
}

/**
 * `text` shortened to at most `max` UTF-16 units including the ellipsis, cut at the last word
 * boundary past half of it (mid-word only when there is none), whole characters (words.ts headOf)
 * and never inside the address of a page it cites, which is not counted (version.ts citingCut). Returns the
 * text unchanged when it fits. The one clipper of a reason and of a detail with its fix
 * (reasonLine, clipKeepingFix).
 */
export function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? '\u2026' : '';
  let end = citingCut(text, max, 1);
  if (end === null) return text;
  // A space is never inside an address, so a cut there cuts none.
  const space = text.lastIndexOf(' ', end);
  if (space > end / 2) end = space;
  return `${headOf(text, end).trimEnd()}\u2026`;
}

/** Where a clause ends: before "; ", ", ", ": ", " (" or " — ". */
const CLAUSE_END = /^(?:[;,:] | \(| \u2014 )/;

/**
 * `text` shortened to at most `max` UTF-16 units including the ellipsis, cut where its last clause
 * within them ends (CLAUSE_END, outside a parenthesis and a quoted text) past half of it, so that
 * what is kept reads as said, never a word cut ("...which no HTTP…"); at a word (clipAtWord) when
 * no clause ends there. Not inside the address of a page it cites (citingCut), which is not
 * counted. Returns the text unchanged when it fits. A cause's words (src/evaluate/causes.ts).
 */
export function clipAtClause(text: string, max: number): string {
  const end = citingCut(text, max, 1);
  if (end === null) return text;
  let clause = -1;
  for (const i of topLevel(text, end)) if (CLAUSE_END.test(text.slice(i, i + 3))) clause = i;
  return clause > end / 2 ? `${text.slice(0, clause)}\u2026` : clipAtWord(text, max);
}

/**
 * How many parentheses are open before `end` of `text`, outside a quoted text (a double quote not
 * after a backslash opens or closes one), and whether one is: at each index `at` that is neither a
 * bracket nor a quote (`mark` false), and past `end` (`at` = `end`).
 */
function* levels(text: string, end: number): Generator<{ at: number; depth: number; quoted: boolean; mark: boolean }> {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < end; i++) {
    const c = text[i];
    const quote = c === '"' && text[i - 1] !== '\\';
    if (quote) quoted = !quoted;
    else if (!quoted && c === '(') depth += 1;
    else if (!quoted && c === ')') depth = Math.max(0, depth - 1);
    yield { at: i, depth, quoted, mark: quote || (!quoted && (c === '(' || c === ')')) };
  }
  yield { at: end, depth, quoted, mark: false };
}

/** The indices of `text` before `end` that stand outside a parenthesis and a quoted text (levels), a bracket or quote itself excluded. */
function* topLevel(text: string, end: number): Generator<number> {
  for (const l of levels(text, end)) if (l.at < end && !l.mark && !l.quoted && l.depth === 0) yield l.at;
}

/** Whether a parenthesis of `text` opened before `end` is still open there (outside a quoted text: levels). */
function inParenthesis(text: string, end: number): boolean {
  let depth = 0;
  for (const l of levels(text, end)) depth = l.depth;
  return depth > 0;
}

/** Whether `index` of `text` stands outside a parenthesis and a quoted text (as clipAtClause reads them). */
export function atTopLevel(text: string, index: number): boolean {
  for (const i of topLevel(text, index + 1)) if (i === index) return true;
  return false;
}

/**
 * `text` up to its first "; " outside a parenthesis and a quoted text (topLevel): what happened,
 * without the advice after it, never with a parenthesis left open ("(rate limited: ...; given up at
 * once ...)" is one clause). The whole text when it has none.
 */
export function firstClause(text: string): string {
  for (const i of topLevel(text, text.length)) if (text.startsWith('; ', i)) return text.slice(0, i);
  return text;
}

/**
 * The first line of `text`, what a one-line surface shows of an error (a cause, a script's line, a
 * report.html row), said as cut when its line break leaves a bracket or a double quote open: its
 * ellipsis, then what closes each, innermost first ("failed (code: 500…)" of "failed (code: 500\n
 * details)"), so that no line reads as an unbalanced aside. A bracket inside a double quote is
 * quoted text, not the line's own aside: a cut in a quote closes the quote alone (`"refund (within`
 * reads `"refund (within…"`). The whole text when it is one line. `marked`: a first line that leaves nothing open ends in " …" too (the comment's item line says
 * there is more below it).
 */
export function firstLineOf(text: string, marked = false): string {
  const end = text.indexOf('\n');
  if (end < 0) return text;
  const first = text.slice(0, end);
  const closers = openClosers(first);
  if (closers !== '') return `${first.trimEnd()}\u2026${closers}`;
  return marked ? `${first} \u2026` : first;
}

/** What closes the brackets and the double quote still open at the end of `text`, innermost first ('' when none is): a bracket in a quote is quoted text, never counted; a `\` in a quote escapes the next character. */
function openClosers(text: string): string {
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = open[open.length - 1];
    if (top === '"') {
      if (c === '\\') i++;
      else if (c === '"') open.pop();
    } else if (c === '"') open.push('"');
    else if (c === '(') open.push(')');
    else if (c === '[') open.push(']');
    else if (c === '{') open.push('}');
    else if (c === top) open.pop();
  }
  return open.reverse().join('');
}

/** Whitespace runs as one space, none at either end: a line that no newline can break. */
function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * One line of a client's reason, written `<what happened>; <the fix>` (the judge's: src/judge/http.ts),
 * flattened and bounded: whole when it fits; else what happened alone, the fix left to the item's
 * cause line, which says it whole (src/evaluate/causes.ts; docs/troubleshooting.md, "Not
 * evaluated"), so that no fix is cut mid-sentence; else (no fix, as a panel's list of members, or
 * what happened over the bound) clipped at a word (clipAtWord), or, where that cut falls inside a
 * parenthesis opened past half of the bound, where its clause ends, before it (clipAtClause, as the
 * cause line cuts): "...is not HTTP…", never an aside left open, "...(e.g. a TLS port spoken…". A
 * quoted text (a model's output) is cut at a word still: what it said is kept as far as it fits.
 */
export function reasonLine(text: string, max = 200): string {
  const flat = flatten(text);
  if (flat.length <= max) return flat;
  const fix = fixStart(flat);
  if (fix > 0 && fix <= max) return flat.slice(0, fix);
  const cut = clipAtWord(flat, max);
  return inParenthesis(flat, cut.length - 1) ? clipAtClause(flat, max) : cut;
}

/**
 * `text` bounded at `max` characters with its fix kept whole when it says one (`<what happened>;
 * <the fix>`, fixStart), where no cause line says the fix: only what happened is clipped, its
 * quoted values first, in their middle (middleCut), then at a word (clipAtWord), so that a long
 * fix ("check whether the server asks for a client certificate ...") is never cut mid-sentence;
 * the fix is not counted in `max`. A text with no fix is clipAtWord's. `flat` first makes it one line
 * (whitespace runs as one space), for a surface with no way to show a newline: a meaning judge's
 * reason in an item's detail (src/evaluate/meaning/ladder.ts: an item alone has no shared line).
 * The terminal (src/report/terminal.ts) keeps the text as it is, its newlines shown as ` ⏎ ` and
 * a quoted value's spaces as written.
 */
export function clipKeepingFix(text: string, max: number, o: { flat?: boolean } = {}): string {
  const shown = o.flat === true ? flatten(text) : text;
  const fix = fixStart(shown);
  if (fix <= 0 || shown.length <= max) return clipAtWord(shown, max);
  return `${clipAtWord(middleCut(shown.slice(0, fix), max), max)}${shown.slice(fix)}`;
}

/** The fewest characters a quoted value of what happened is cut to (middleCut): `{"orderId": "2718", …}`, `"arrived bro…"`. */
const MIN_QUOTED_CHARS = 24;

/**
 * What happened before a fix, its quoted values (a tool call's JSON input, a reply in quotes) cut
 * in their middle, longest first, until it fits `max` (clipAtWord's count): `issue_refund
 * {"orderId": "2718", …} that no mock answered (...)`, so that what follows a value (what went
 * wrong with it) is kept rather than cut off at the end. An object or a list keeps its first
 * entries and closes (`, …}`); a string, its first words and its closing quote, so that no quote is
 * left open (atTopLevel still finds the fix after it). Unchanged when it fits or has no such value.
 */
function middleCut(text: string, max: number): string {
  let out = text;
  for (;;) {
    if (clipAtWord(out, max) === out) return out;
    const spans = quotedSpans(out).filter((s) => s.end - s.start > MIN_QUOTED_CHARS);
    const longest = spans.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
    if (longest === undefined) return out;
    const value = out.slice(longest.start, longest.end);
    const want = Math.max(MIN_QUOTED_CHARS, value.length - (out.length - max));
    const short = shortValue(value, want);
    if (short.length >= value.length) return out;
    out = `${out.slice(0, longest.start)}${short}${out.slice(longest.end)}`;
  }
}

/** Where `text`'s quoted values stand: a `"..."` and a balanced `{...}` or `[...]` (strings in it skipped), outermost only. */
function quotedSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '"' && c !== '{' && c !== '[') continue;
    const end = c === '"' ? stringEnd(text, i) : bracketEnd(text, i);
    if (end < 0) continue;
    spans.push({ start: i, end });
    i = end - 1;
  }
  return spans;
}

/** The index after the `"` that closes the string opened at `at` (a `\` escapes the next character); -1: none. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** The index after the bracket that closes the one opened at `at`, strings skipped; -1: none. */
function bracketEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * A quoted value cut to about `want` characters: a string's first words and its quote (`"arrived
 * bro…"`); an object's or a list's first entries, as many as fit and at least one, the first's own
 * value cut the same way when it alone is over (`{"text": "Hello, I would…", …}`).
 */
function shortValue(value: string, want: number): string {
  if (value[0] === '"') return `"${clipAtWord(value.slice(1, -1), Math.max(1, want - 2))}"`;
  const last = value.length - 1;
  const ends = entryEnds(value);
  let kept = ends[0] ?? last;
  for (const end of ends) if (end + (end === last ? 1 : 4) <= want) kept = end;
  const tail = kept === last ? value.slice(last) : `, \u2026${value.slice(last)}`;
  const first = value.slice(0, kept);
  // Its opening bracket left unclosed, the spans found in `first` are its first entry's own: the last is its value.
  const inner = quotedSpans(first).pop();
  if (first.length + tail.length <= want || inner === undefined) return `${first}${tail}`;
  const cut = shortValue(first.slice(inner.start, inner.end), Math.max(MIN_QUOTED_CHARS, want - tail.length - (first.length - (inner.end - inner.start))));
  return `${first.slice(0, inner.start)}${cut}${first.slice(inner.end)}${tail}`;
}

/** The indices in an object or a list where each of its top-level entries ends (before its ", " or its closing bracket). */
function entryEnds(value: string): number[] {
  const ends: number[] = [];
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') {
      const end = stringEnd(value, i);
      if (end < 0) return ends;
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) ends.push(i);
    } else if (c === ',' && depth === 1) ends.push(i);
  }
  return ends;
}

/**
 * Compact JSON (JSON.stringify's) with a space after each comma and colon between its values,
 * `{"orderId": "1234", "items": [1, 2]}`, and none inside its strings: a table cell's code span
 * wraps only at a space, so on a 390 px phone `{"orderId":"1234","customer":{...}}` pushed a
 * persona script's checks table sideways (docs/action.md#the-pr-comment). Still JSON, as written.
 */
export function breakableJson(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i] as string;
    out += ch;
    if (inString) {
      if (ch === '\\') out += json[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if ((ch === ',' || ch === ':') && json[i + 1] !== ' ') out += ' ';
  }
  return out;
}

/**
 * A JSON value as agent-replay writes it wherever it is shown (the comment, the terminal, JUnit,
 * report.html), in one form: a persona script's checks, a turn's tool calls, the calls a cut stream
 * had begun, JUnit's tool lines, and the words stored for a tool check's detail and a suite edit
 * (src/assertions/tools.ts, src/suite/edits.ts): breakableJson's `{"orderId": "1234"}`; a value
 * JSON cannot write, as text.
 */
export function jsonText(value: unknown): string {
  try {
    return breakableJson(JSON.stringify(value) ?? 'null');
  } catch {
    return String(value);
  }
}

/**
 * jsonText on one line, at most `max` characters: one longer is cut in its middle (shortValue:
 * `{"orderId": "2718", "note": "very long…", …}`), its quotes and brackets closed, never cut
 * mid-string with a quote left open as `line` would (`{"note": "very long w…`), after which every
 * "; " of the text it stands in read as quoted and a fix after it was not found (fixStart). A tool
 * call's input or output in an error or a check's detail (src/evaluate/personas.ts, src/assertions/tools.ts).
 */
export function jsonLine(value: unknown, max = 200): string {
  const flat = flatten(jsonText(value));
  if (flat.length <= max) return flat;
  const whole = quotedSpans(flat)[0];
  return whole !== undefined && whole.start === 0 && whole.end === flat.length ? shortValue(flat, max) : line(flat, max);
}
