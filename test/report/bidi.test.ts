// Right-to-left text in the comment (docs/meaning.md, "Languages and locales"): a reply, a judge's
// difference or a fixture's name in Arabic or Hebrew, or with a right-to-left mark, is isolated
// (U+2068 ... U+2069), so that it cannot turn the line's direction nor move the comment's own words
// and numbers beside it; the text's own bidi controls are dropped, so none can end the isolate early.
import { describe, expect, it } from 'vitest';
import { codeSpan, escapeInline, renderComment, renderSummary } from '../../src/report/index.js';
import { renderCompareMarkdown } from '../../src/report/compare.js';
import { renderConfigErrors } from '../../src/report/config-errors.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { githubHtml } from './helpers.js';
import { escapeHtmlInline, isolateRightToLeft, leftToRightStart, terminalLine } from '../../src/report/escape.js';
import { isolatedJson } from '../../src/words.js';
import type { ToolCall } from '../../src/types.js';
import { renderHtml } from '../../src/report/html.js';
import { forestPanel } from '../../src/report/html/forest.js';
import { latencyPanel } from '../../src/report/html/latency.js';
import { trendSvg } from '../../src/report/html/chart.js';
import { forestRows } from '../../src/report/rates.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { baseline, check, ctx, fixture, persona, refundTurns, run, toolCall } from './fixtures.js';
import { differing } from './meaning-fixtures.js';
import { repeated, withRunStats } from './stats-fixtures.js';

const FSI = '\u2068';
const LRI = '\u2066';
const PDI = '\u2069';
/** Characters of right-to-left scripts and the right-to-left marks. */
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u200F\u061C]/;

/** `line` without what its isolates hold: what the line's own direction is read from. */
function outsideIsolates(line: string): string {
  let out = '';
  let depth = 0;
  for (const ch of line) {
    if (ch === FSI || ch === '\u2066' || ch === '\u2067') depth++;
    else if (ch === PDI) depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

describe('right-to-left text in inline markdown and HTML', () => {
  it('isolates each right-to-left run, and leaves left-to-right text as it is', () => {
    expect(escapeInline('plain text 30')).toBe('plain text 30');
    expect(escapeInline('يقول ١٤ يوماً')).toBe(`${FSI}يقول ١٤ يوماً${PDI}`);
    // Each run apart: the English words between them stay outside, in the line's order.
    expect(escapeInline('says "مرحبا" where the baseline said "أهلا"')).toBe(`says "${FSI}مرحبا${PDI}" where the baseline said "${FSI}أهلا${PDI}"`);
    // Digits inside a run are the run's; after it, before a word of ours, they are ours.
    expect(escapeHtmlInline('خلال 30 يوماً · pass 3/5')).toBe(`${FSI}خلال 30 يوماً${PDI} · pass 3/5`);
    // At the text's end, what follows the run is the text's own.
    expect(escapeInline('changed خلال 30')).toBe(`changed ${FSI}خلال 30${PDI}`);
    expect(codeSpan('شحن-سريع')).toBe(`${FSI}\`شحن-سريع\`${PDI}`);
  });

  it('keeps the numbers right after a run inside its isolate, before a left-to-right word too: they are drawn on its far side, as the text\'s own paragraph draws them', () => {
    // Unisolated, and in the diff's code block, "שלום 30 users" shows 30 left of שלום: isolated apart, it showed right of it.
    expect(isolateRightToLeft('שלום 30 users')).toBe(`${FSI}שלום 30${PDI} users`);
    expect(isolateRightToLeft('السعر 1,500.50 USD')).toBe(`${FSI}السعر 1,500.50${PDI} USD`);
    expect(isolateRightToLeft('contains "خلال 30 40": found')).toBe(`contains "${FSI}خلال 30 40${PDI}": found`);
    expect(terminalLine('x · שלום 30 users · 3/5')).toBe(`x · ${FSI}שלום 30${PDI} users · 3/5`);
    // A space, a stop or a word after the run is not a number: it stays outside.
    expect(isolateRightToLeft('שלום users 30')).toBe(`${FSI}שלום${PDI} users 30`);
    expect(isolateRightToLeft('خلال 30 يوماً · pass 3/5')).toBe(`${FSI}خلال 30 يوماً${PDI} · pass 3/5`);
    expect(isolateRightToLeft('שלום · 30 users')).toBe(`${FSI}שלום${PDI} · 30 users`);
  });

  it('keeps a list of numbers after a run inside its isolate, and a number with a colon or a slash in it: a browser draws them all on its far side', () => {
    // Unisolated, "שלום 12, 34 users" shows "34 ,12 שלום users"; isolated to its 12, it showed "12 שלום, 34 users", the 34 apart.
    expect(escapeInline('x · שלום 12, 34 users · 3/5')).toBe(`x · ${FSI}שלום 12, 34${PDI} users · 3/5`);
    expect(escapeHtmlInline('خلال 12, 34 users')).toBe(`${FSI}خلال 12, 34${PDI} users`);
    expect(terminalLine('x · خلال 12; 34 users')).toBe(`x · ${FSI}خلال 12; 34${PDI} users`);
    expect(isolateRightToLeft('changed خلال 12, 34')).toBe(`changed ${FSI}خلال 12, 34${PDI}`);
    // "3/5" and "12:30" are one number each ("3 خلال/5" isolated to its 3).
    expect(isolateRightToLeft('خلال 3/5 users at 12:30')).toBe(`${FSI}خلال 3/5${PDI} users at 12:30`);
    expect(isolateRightToLeft('מחר 12:30 users')).toBe(`${FSI}מחר 12:30${PDI} users`);
    // A comma with no number after it, and a stop or a word of ours, stay outside.
    expect(isolateRightToLeft('שלום 12, users')).toBe(`${FSI}שלום 12${PDI}, users`);
    expect(isolateRightToLeft('שלום 30: found')).toBe(`${FSI}שלום 30${PDI}: found`);
  });

  it('keeps a colon right after a run and brackets around its numbers inside its isolate: a browser draws them with the run, as the diff\'s code block does', () => {
    // Isolated apart, "שלום (30) x" showed "שלום (30) x", and "שלום: 30 x" "שלום: 30 x"; unisolated, "(30) שלום x" and "30 :שלום x".
    expect(isolateRightToLeft('שלום (30) x')).toBe(`${FSI}שלום (30)${PDI} x`);
    // The comment escapes the colon and brackets (\\:, \\[): the backslash is the colon's.
    expect(escapeInline('x · שלום: 30 users · 3/5')).toBe(`x · ${FSI}שלום\\: 30${PDI} users · 3/5`);
    expect(escapeInline('x · שלום [30] users')).toBe(`x · ${FSI}שלום \\[30\\]${PDI} users`);
    expect(escapeHtmlInline('שלום (12, 34) users')).toBe(`${FSI}שלום (12, 34)${PDI} users`);
    expect(terminalLine('خلال [12, 34] users')).toBe(`${FSI}خلال [12, 34]${PDI} users`);
    expect(isolateRightToLeft('changed שלום (30)')).toBe(`changed ${FSI}שלום (30)${PDI}`);
    // Our own stop and what follows it stay outside; so does a bracket that does not close around numbers.
    expect(isolateRightToLeft('שלום · (30) x')).toBe(`${FSI}שלום${PDI} · (30) x`);
    expect(isolateRightToLeft('שלום (30 users)')).toBe(`${FSI}שלום${PDI} (30 users)`);
    expect(isolateRightToLeft('שלום 30 · 3/5')).toBe(`${FSI}שלום 30${PDI} · 3/5`);
  });

  it('keeps a bracket left open right after a run, and its numbers, inside its isolate: a browser draws them with the run (checked by screenshot)', () => {
    // Unisolated, "שלום (12 users" shows "12) שלום users"; isolated apart, it showed "שלום (12 users".
    expect(isolateRightToLeft('says שלום (12 users')).toBe(`says ${FSI}שלום (12${PDI} users`);
    expect(escapeInline('says שלום (12, 34 users · 3/5')).toBe(`says ${FSI}שלום \\(12, 34${PDI} users · 3/5`);
    expect(escapeInline('says שלום [12 users')).toBe(`says ${FSI}שלום \\[12${PDI} users`);
    expect(terminalLine('שלום (12')).toBe(`${FSI}שלום (12${PDI}`);
    // Closed later, even past another pair, the bracket is the line's (a pair): outside, as before.
    expect(isolateRightToLeft('says שלום (12 users) ok')).toBe(`says ${FSI}שלום${PDI} (12 users) ok`);
    expect(isolateRightToLeft('שלום (12 a (b) c) d')).toBe(`${FSI}שלום${PDI} (12 a (b) c) d`);
    expect(isolateRightToLeft('שלום (12 a (b) c')).toBe(`${FSI}שלום (12${PDI} a (b) c`);
    // With no number after it, a bracket is drawn alike either way: outside. A bracket before the run, left open, too.
    expect(isolateRightToLeft('says שלום ( users')).toBe(`says ${FSI}שלום${PDI} ( users`);
    expect(isolateRightToLeft('says (שלום 12 users')).toBe(`says (${FSI}שלום 12${PDI} users`);
  });

  it("drops the text's own isolates and overrides, so that none closes the isolate early; a right-to-left mark is isolated too", () => {
    expect(escapeInline(`שלום${PDI}\u202e evil`)).toBe(`${FSI}שלום${PDI} evil`);
    expect(escapeInline('\u200fname')).toBe(`${FSI}\u200f${PDI}name`);
  });

  it("no line of the comment has right-to-left text outside an isolate: the line's words keep their order", () => {
    const r = run([
      differing('استرداد-المبلغ', 'يمكنك الإرجاع خلال ٣٠ يوماً.', 'يمكنك الإرجاع خلال ١٤ يوماً.', { value: 'changed', by: 'judge', detail: 'يقول ١٤ يوماً بدلاً من ٣٠\u202e', score: 0.2 }),
      differing('\u200frefund', 'Refunds within 30 days.', 'Refunds within 30 days, always.', { value: 'changed', by: 'judge', detail: `נאמר${PDI} 3`, score: 0.4 }),
    ]);
    const md = renderComment(r, ctx);
    // Every line outside the fenced blocks (a reply's lines there are each a paragraph of their own).
    let fenced = false;
    const checked = md.split('\n').filter((l) => {
      if (l.startsWith('```')) fenced = !fenced;
      return !fenced && !l.startsWith('```') && RTL.test(l);
    });
    expect(checked.length).toBeGreaterThanOrEqual(3);
    for (const line of checked) expect([line, RTL.test(outsideIsolates(line))]).toEqual([line, false]);
    expect(md).not.toContain('\u202e');
  });
});

describe("a diff's code block under GitHub's dir=\"auto\"", () => {
  /** The lines of the comment's first ```diff block. */
  const diffLines = (md: string): string[] => {
    const lines = md.split('\n');
    const at = lines.indexOf('```diff');
    return lines.slice(at + 1, lines.indexOf('```', at));
  };

  it('starts a block whose first words are right-to-left with a left-to-right mark after its sign, so it is drawn left to right; other blocks as they were', () => {
    // GitHub sets the block's direction by its first strong character: without the mark, a Hebrew reply's diff was right to left, "Shipping ⟦is free⟧." drawn ".Shipping ⟦is free⟧ -".
    const hebrew = renderComment(run([differing('משלוח', 'המשלוח לוקח 3 ימים. Shipping is free.', 'המשלוח לוקח 5 ימים. Shipping costs 5 USD.', { value: 'changed', by: 'judge', detail: 'says 5', score: 0.2 })]), ctx);
    expect(diffLines(hebrew)).toEqual(['- \u200eהמשלוח לוקח ⟦3⟧ ימים.', '+ המשלוח לוקח ⟦5⟧ ימים.', '- Shipping ⟦is free⟧.', '+ Shipping ⟦costs 5 USD⟧.']);
    // A block whose first words are left-to-right, or with no right-to-left text, is as it was.
    const english = renderComment(run([differing('shipping', 'Shipping is free. המשלוח לוקח 3 ימים.', 'Shipping costs 5 USD. המשלוח לוקח 3 ימים.', { value: 'changed', by: 'judge', detail: 'says 5', score: 0.2 })]), ctx);
    expect(diffLines(english).join('\n')).not.toContain('\u200e');
    const plain = renderComment(run([differing('refund', 'Refunds within 30 days.', 'Refunds within 14 days.', { value: 'changed', by: 'judge', detail: 'says 14', score: 0.2 })]), ctx);
    expect(diffLines(plain)).toEqual(['- Refunds within ⟦30⟧ days.', '+ Refunds within ⟦14⟧ days.']);
  });
});

describe("right-to-left text in a script's section of the comment", () => {
  it("isolates a tool call's name, input and output apart in a script's transcript block, as the comment's code span of a call does", () => {
    const calls = [toolCall('بحث', { מזהה: 12 }, { x: 'שלום' }), toolCall('find_order', { id: '1' }, { ok: true })];
    const scripted = persona('calls', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, turns: [{ ...refundTurns()[1]!, toolCalls: calls }] });
    const lines = renderComment(run([], { personas: [scripted] }), ctx).split('\n');
    const block = lines.slice(lines.indexOf('Tool calls (2):') + 3, lines.indexOf('Tool calls (2):') + 5);
    // Unisolated, the Arabic name and the Hebrew key were one right-to-left run: drawn {12 :"מזהה"} بحث, its braces turned.
    expect(block).toEqual([`${FSI}بحث${PDI} ${LRI}{"${FSI}מזהה${PDI}": 12}${PDI} → ${LRI}{"x": "${FSI}שלום${PDI}"}${PDI}`, 'find_order {"id": "1"} → {"ok": true}']);
  });
  it("closes the isolates a wrap cuts in a script's transcript block at the line's end and reopens them on the next, so each line is drawn as the whole was", () => {
    const words = 'שלום עולם '.repeat(12).trim();
    const calls = [toolCall('find_order', { q: words, n: 3 }, { ok: true })];
    const scripted = persona('calls', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, turns: [{ ...refundTurns()[1]!, toolCalls: calls }] });
    const lines = renderComment(run([], { personas: [scripted] }), ctx).split('\n');
    const block = lines.slice(lines.indexOf('Tool calls (1):') + 3, lines.indexOf('Tool calls (1):') + 5);
    const cut = 'שלום עולם '.repeat(7) + 'שלום';
    // The continuation had no isolate: drawn by its own first strong character, its quotes, braces and "→ {...}" reversed.
    expect(block).toEqual([
      `find_order ${LRI}{"q": "${FSI}${cut}${PDI}${PDI}`,
      `↪ ${LRI}${FSI}${words.slice(cut.length + 1)}${PDI}", "n": 3}${PDI} → {"ok": true}`,
    ]);
    // A block with no isolate is wrapped as before.
    const plain = persona('plain', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, turns: [{ ...refundTurns()[1]!, toolCalls: [toolCall('find_order', { q: 'word '.repeat(30).trim() }, { ok: true })] }] });
    const plainLines = renderComment(run([], { personas: [plain] }), ctx).split('\n');
    const at = plainLines.indexOf('Tool calls (1):');
    expect(plainLines.slice(at + 3, at + 5)).toEqual([`find_order {"q": "${'word '.repeat(16).trim()}`, `↪ ${'word '.repeat(13)}word"} → {"ok": true}`]);
  });
  it("isolates a turn's off-track JSON values left to right, as JSON is written, and its text values by their first strong character", () => {
    const offTrack = [{ x: 'שם' }, ['שלום', 12], 'מחוץ למסלול'];
    const scripted = persona('off', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, turns: [{ ...refundTurns()[1]!, offTrack }] });
    const line = renderComment(run([], { personas: [scripted] }), ctx).split('\n').find((l) => l.includes('off-track ')) ?? '';
    // By its first strong character (U+2068), the Hebrew value drew the object {"x" :"שם"}: the JSON is left to right, each string isolated inside.
    expect(line).toContain(`off-track ${LRI}\`{"x": "${FSI}שם${PDI}"}\`${PDI}, ${LRI}\`["${FSI}שלום${PDI}", 12]\`${PDI}, ${FSI}\`מחוץ למסלול\`${PDI}`);
  });
  it("isolates a script's expected and called tool input in the comment's checks table left to right, as JSON is written", () => {
    const checked = persona('p', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, checks: [check.toolCalled('find_order', { שם: 'x 30' }, [{ turn: 2, input: { שם: 'x 30' } }], null)] });
    const row = renderComment(run([], { personas: [checked] }), ctx).split('\n').find((l) => l.startsWith('| ❌ tool called')) ?? '';
    // By its first strong character (U+2068), the Hebrew key drew the JSON {"x 30" :"שם"}; the key is isolated inside the span, each string apart.
    expect(row).toBe(`| ❌ tool called (fail) | \`find_order\` ${LRI}\`{"${FSI}שם${PDI}": "x 30"}\`${PDI} (subset) | other inputs only: turn 2 ${LRI}\`{"${FSI}שם${PDI}": "x 30"}\`${PDI} |`);
  });
});

describe('right-to-left text in report.html', () => {
  const record = (): ReturnType<typeof run> =>
    run([
      differing('استرداد-المبلغ', 'يمكنك الإرجاع خلال ٣٠ يوماً.', 'يمكنك الإرجاع خلال ١٤ يوماً.', { value: 'changed', by: 'judge', detail: 'يقول ١٤ يوماً', score: 0.2 }),
      differing('refund-window', 'Refunds within 30 days.', 'Refunds within 14 days.', { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' }),
    ]);

  it("isolates a fixture's name in Arabic in its row, as the comment does, and leaves the row's own words outside", () => {
    const html = renderHtml(record());
    const label = html.split('\n').find((l) => l.includes('class="label"') && RTL.test(l));
    expect(label).toContain(`<span class="label">${FSI}استرداد-المبلغ${PDI}</span>`);
    // The search box matches the name as written: its attribute holds no isolate.
    expect(html).toContain('data-label="استرداد-المبلغ"');
  });

  it("isolates right-to-left runs in what an opened row shows (a why, a judge's words), each line apart; replies, messages and diffs as written", () => {
    // The data the page's script builds an opened row from (html.ts, the ar-data block).
    const data = (html: string): Array<Record<string, unknown>> => JSON.parse(/id="ar-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '').items;
    const [diffed] = data(renderHtml(record()));
    // The diff's texts are the replies as written, as in the comment's code block.
    expect(JSON.stringify(diffed?.diff)).toContain('"يمكنك الإرجاع خلال "');
    const [f] = data(renderHtml(run([fixture('x', { message: 'متى\nأستطيع', detail: 'contains "خلال 30": found', reply: 'يمكنك\nالإرجاع', score: 0.2, threshold: 0.7, rationale: 'يقول ١٤\nخلال 30 · ok' })])));
    expect(f?.detail).toBe(`contains "${FSI}خلال 30${PDI}": found`);
    // Each line apart: an isolate ends where its line does.
    expect((f?.judge as { rationale: string }).rationale).toBe(`${FSI}يقول ١٤${PDI}\n${FSI}خلال 30${PDI} · ok`);
    expect([f?.message, f?.reply]).toEqual(['متى\nأستطيع', 'يمكنك\nالإرجاع']);
  });

  it("isolates a tool call's input and output whole, left to right, as the comment's code span of the call does, not run by run", () => {
    const data = (html: string): Array<Record<string, unknown>> => JSON.parse(/id="ar-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '').items;
    const call = toolCall('find_order', { city: 'تل أبيب', n: 3, note: 'שלום' }, { status: 'נשלח', days: 3 });
    // An errored fixture whose stream had begun the call: the comment shows it in one code span, its input one isolate.
    const r = run([fixture('begun', { errored: true, verdict: null, reply: null, error: 'stream cut', toolCalls: [call] })]);
    const input = `{"city": "${FSI}تل أبيب${PDI}", "n": 3, "note": "${FSI}שלום${PDI}"}`;
    expect(renderComment(r, ctx)).toContain(`\`find_order ${LRI}${input}${PDI}\``);
    const [f] = data(renderHtml(r));
    expect(f?.toolCalls).toEqual([{ tool: 'find_order', input: `${LRI}${input}${PDI}`, output: `${LRI}{"status": "${FSI}נשלח${PDI}", "days": 3}${PDI}`, mocked: true }]);
    // A script's turn's calls likewise; a call with no right-to-left text is as written.
    const plain = toolCall('find_order', { id: '1' }, { ok: true });
    const [p] = data(renderHtml(run([], { personas: [persona('calls', { turns: [{ ...refundTurns()[1]!, toolCalls: [call, plain] }] })] })));
    const calls = (p?.turns as Array<{ toolCalls?: unknown[] }>).flatMap((t) => t.toolCalls ?? []);
    expect(calls).toEqual([
      { tool: 'find_order', input: `${LRI}${input}${PDI}`, output: `${LRI}{"status": "${FSI}נשלח${PDI}", "days": 3}${PDI}`, mocked: true },
      { tool: 'find_order', input: '{"id": "1"}', output: '{"ok": true}', mocked: true },
    ]);
  });

  it("isolates a call's name and its input apart, the name by its first strong character and the JSON left to right, in the comment, report.html and the terminal alike", () => {
    const data = (html: string): Array<Record<string, unknown>> => JSON.parse(/id="ar-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '').items;
    const surfaces = (tool: string, input: Record<string, string>): [string, unknown, string] => {
      const r = run([fixture('begun', { errored: true, verdict: null, reply: null, error: 'stream cut', toolCalls: [toolCall(tool, input, { ok: true })] })]);
      const comment = /tool calls begun[^\n]*/i.exec(renderComment(r, ctx))?.[0] ?? '';
      const terminal = renderTerminal(r, { color: false }).split('\n').find((l) => l.includes('begun before')) ?? '';
      return [comment.slice(comment.indexOf('`')), (data(renderHtml(r))[0]?.toolCalls as unknown[])[0], terminal.slice(terminal.indexOf(': ') + 2)];
    };
    // An Arabic name, a Latin input: isolated together, by the name's first strong character, the call was right-to-left and drew its JSON after the name the other way round.
    expect(surfaces('بحث', { q: 'order 30' })).toEqual([`\`${FSI}بحث${PDI} {"q": "order 30"}\``, { tool: `${FSI}بحث${PDI}`, input: '{"q": "order 30"}', output: '{"ok": true}', mocked: true }, `${FSI}بحث${PDI} {"q": "order 30"}`]);
    // A Latin name, an input with a Hebrew key: isolated by its first strong character, report.html drew it {"x 30":"שם"}.
    expect(surfaces('find_order', { שם: 'x 30' })).toEqual([`\`find_order ${LRI}{"${FSI}שם${PDI}": "x 30"}${PDI}\``, { tool: 'find_order', input: `${LRI}{"${FSI}שם${PDI}": "x 30"}${PDI}`, output: '{"ok": true}', mocked: true }, `find_order ${LRI}{"${FSI}שם${PDI}": "x 30"}${PDI}`]);
    // Both right-to-left: each apart.
    expect(surfaces('بحث', { اسم: 'x' })[0]).toBe(`\`${FSI}بحث${PDI} ${LRI}{"${FSI}اسم${PDI}": "x"}${PDI}\``);
  });

  it('leaves a report with no right-to-left text as it was, with no isolate in it', () => {
    const html = renderHtml(run([differing('refund-window', 'Refunds within 30 days.', 'Refunds within 14 days.', { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' }), fixture('y', { score: 0.2, threshold: 0.7, rationale: 'says 14\nnot 30' })]));
    expect(html).not.toContain(FSI);
    expect(html).toContain('<span class="label">refund-window</span>');
  });
});

describe("right-to-left text in report.html's charts", () => {
  /** What each SVG <text> and <title> says: a line of its own to the reader. */
  const texts = (svg: string): string[] => [...svg.matchAll(/<(text|title)\b[^>]*>([^<]*)/g)].map((m) => m[2] as string);
  const timed = (label: string, now: number, before: number) => fixture(label, { latencyMs: now, firstTokenMs: null, welcomeLatencyMs: null, baseline: { ...baseline(label, 'Reply.'), latencyMs: before } });
  const charts = (label: string): string =>
    forestPanel(forestRows(withRunStats([repeated(label, { passed: 10, total: 10 }, { passed: 0, total: 3 }, 2), repeated('greeting', { passed: 10, total: 10 }, { passed: 6, total: 10 }, 5)]).fixtures)) +
    latencyPanel([timed(label, 2900, 1200), timed('opening-hours', 400, 380)], null) +
    (trendSvg([{ runId: `${label} 12`, commit: null, startedAt: '2026-01-02T03:04:05Z', agreement: { percent: 50, passed: 1, failed: 1 } }]) ?? '');

  it("isolates a name in Arabic in the forest plot's and the latency panel's labels and titles, and the trend's; data-label as written", () => {
    const svg = charts('استرداد-المبلغ');
    const rtl = texts(svg).filter((t) => RTL.test(t));
    // The forest's label and title, the latency panel's label and title, the trend's axis label and title.
    expect(rtl.length).toBeGreaterThanOrEqual(6);
    for (const t of rtl) expect([t, RTL.test(outsideIsolates(t))]).toEqual([t, false]);
    expect(svg).toContain(`<title>${FSI}استرداد-المبلغ${PDI}: 1.2 s → 2.9 s</title>`);
    // The search box matches the name as written: the rows' attributes hold no isolate.
    expect(svg.match(/data-label="[^"]*"/g)?.filter((a) => RTL.test(a))).toEqual(['data-label="استرداد-المبلغ"', 'data-label="استرداد-المبلغ"']);
  });

  it('leaves charts with no right-to-left text as they were, with no isolate in them', () => {
    expect(charts('refund-window')).not.toContain(FSI);
  });
});

describe('right-to-left text on the terminal', () => {
  it("isolates a fixture's name and a judge's difference in Arabic, its own controls shown as escapes; ASCII lines as they were", () => {
    const r = run([
      differing('استرداد-المبلغ', 'يمكنك الإرجاع خلال ٣٠ يوماً.', 'يمكنك الإرجاع خلال ١٤ يوماً.', { value: 'changed', by: 'judge', detail: 'يقول ١٤ يوماً\u202e', score: 0.2 }),
      differing('refund-window', 'Refunds within 30 days.', 'Refunds within 14 days.', { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' }),
    ]);
    const lines = renderTerminal(r, { color: false }).split('\n');
    // A reply's lines in the diff ("        - ...") are each a paragraph of their own, shown as written (as in the comment's code block).
    const rtl = lines.filter((l) => RTL.test(l) && !/^ +[-+] /.test(l));
    expect(rtl.length).toBeGreaterThanOrEqual(1);
    for (const line of rtl) expect([line, RTL.test(outsideIsolates(line))]).toEqual([line, false]);
    expect(lines.join('\n')).toContain(`${FSI}يقول ١٤ يوماً${PDI}\\u202e`);
    for (const line of lines.filter((l) => !RTL.test(l))) expect([line, line.includes(FSI)]).toEqual([line, false]);
  });

  it("isolates a begun tool call's input whole, left to right, as the comment's code span of it does, not run by run", () => {
    const call = toolCall('find_order', { city: 'تل أبيب', n: 3, note: 'שלום' }, { status: 'נשלח' });
    const plain = toolCall('find_order', { id: '1' }, { ok: true });
    const r = run([fixture('begun', { errored: true, verdict: null, reply: null, error: 'stream cut', toolCalls: [call, plain] })]);
    const line = renderTerminal(r, { color: false }).split('\n').find((l) => l.includes('find_order'));
    expect(line).toContain(`: find_order ${LRI}{"city": "${FSI}تل أبيب${PDI}", "n": 3, "note": "${FSI}שלום${PDI}"}${PDI}, find_order {"id": "1"}`);
    expect([line, RTL.test(outsideIsolates(line ?? ''))]).toEqual([line, false]);
  });

  it('a begun tool call cut on a narrow terminal closes its isolate before the "…": the "…" and the calls after it keep the line\'s direction', () => {
    const call = toolCall('find_order', { city: 'تل أبيب', n: 3, note: 'שלום' }, { status: 'נשלח' });
    const r = run([fixture('begun', { errored: true, verdict: null, reply: null, error: 'stream cut', toolCalls: [call, toolCall('find_order', { id: '1' }, { ok: true })] })]);
    const whole = renderTerminal(r, { color: false }).split('\n').find((l) => l.includes('find_order')) ?? '';
    // Every width that cuts the line inside the call's isolate, down to one that keeps little of it.
    const start = whole.indexOf(LRI);
    // The PDI that closes the JSON's isolate, after those of its strings (every cut in a string closes both).
    const end = whole.indexOf(`}${PDI}`) + 1;
    expect([start > 0, end > start]).toEqual([true, true]);
    for (let width = start + 4; width <= end + 1; width++) {
      const line = renderTerminal(r, { color: false, width }).split('\n').find((l) => l.includes('begun before')) ?? '';
      expect(line.length, `width ${width}`).toBeLessThanOrEqual(width);
      expect(line.endsWith(`${PDI}…`), `width ${width}: ${line}`).toBe(true);
      // Nothing right-to-left, the "…" included, outside an isolate; none left open.
      expect(RTL.test(outsideIsolates(line)), `width ${width}`).toBe(false);
      expect(line.split(/[\u2066-\u2068]/).length, `width ${width}`).toBe(line.split(PDI).length);
    }
  });
});

describe("a number after right-to-left text in a tool call's JSON", () => {
  const data = (html: string): Array<Record<string, unknown>> => JSON.parse(/id="ar-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '').items;
  /** A begun call as the comment's code span, report.html's data, the terminal's line, a script's transcript block and its checks table show it. */
  const surfaces = (tool: string, input: ToolCall['input']): string[] => {
    const r = run([fixture('begun', { errored: true, verdict: null, reply: null, error: 'stream cut', toolCalls: [toolCall(tool, input, { ok: true })] })]);
    const comment = /tool calls begun[^\n]*/i.exec(renderComment(r, ctx))?.[0] ?? '';
    const html = (data(renderHtml(r))[0]?.toolCalls as Array<{ tool: string; input: string }>)[0];
    const terminal = renderTerminal(r, { color: false }).split('\n').find((l) => l.includes('begun before')) ?? '';
    const scripted = persona('calls', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, turns: [{ ...refundTurns()[1]!, toolCalls: [toolCall(tool, input, { ok: true })] }] });
    const lines = renderComment(run([], { personas: [scripted] }), ctx).split('\n');
    const checked = persona('p', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'still_failing' }, checks: [check.toolCalled(tool, input, [], null)] });
    const row = renderComment(run([], { personas: [checked] }), ctx).split('\n').find((l) => l.startsWith('| ❌ tool called')) ?? '';
    return [comment.slice(comment.indexOf('`')), `${html?.tool} ${html?.input}`, terminal.slice(terminal.indexOf(': ') + 2), lines[lines.indexOf('Tool calls (1):') + 3] ?? '', row.split(' | ')[1] ?? ''];
  };

  it('isolates each string with right-to-left text inside the JSON\'s left-to-right isolate, so its numbers and punctuation keep their places on every surface', () => {
    // In one isolate, the 3 after the Hebrew key was the key's: drawn {"3 :"נמצא}.
    const key = `${LRI}{"${FSI}נמצא${PDI}": 3}${PDI}`;
    expect(surfaces('find', { נמצא: 3 })).toEqual([`\`find ${key}\``, `find ${key}`, `find ${key}`, `find ${key} → {"ok": true}`, `\`find\` ${LRI}\`{"${FSI}נמצא${PDI}": 3}\`${PDI} (subset)`]);
    // An array: its 12 was drawn left of שלום, inside the bracket: ["12 ,"שלום].
    const list = `${LRI}["${FSI}שלום${PDI}", 12]${PDI}`;
    expect(surfaces('list', ['שלום', 12]).slice(0, 4)).toEqual([`\`list ${list}\``, `list ${list}`, `list ${list}`, `list ${list} → {"ok": true}`]);
    // A value's own number stays in its string, drawn as the string's text draws it; an Arabic name isolated apart.
    const value = `${LRI}{"q": "${FSI}طلب 30${PDI}"}${PDI}`;
    expect(surfaces('find', { q: 'طلب 30' })[0]).toBe(`\`find ${value}\``);
    expect(surfaces('بحث', { q: 'طلب 30' }).slice(0, 4)).toEqual([`\`${FSI}بحث${PDI} ${value}\``, `${FSI}بحث${PDI} ${value}`, `${FSI}بحث${PDI} ${value}`, `${FSI}بحث${PDI} ${value} → {"ok": true}`]);
  });

  it('keeps a string\'s escapes whole inside its isolate, a string cut open isolated before its "…", and JSON with no right-to-left text as it was', () => {
    expect(isolatedJson('{"q": "a\\"ב\\\\", "n": 1}')).toBe(`${LRI}{"q": "${FSI}a\\"ב\\\\${PDI}", "n": 1}${PDI}`);
    expect(isolatedJson('{"q": "طلب 30…')).toBe(`${LRI}{"q": "${FSI}طلب 30${PDI}…${PDI}`);
    for (const plain of ['{"q": "a\\"b", "n": 1}', '["x", 12]', '{"q": "order…']) expect(isolatedJson(plain)).toBe(plain);
    expect(surfaces('find', { q: 'x', n: 3 })).toEqual(['`find {"q": "x", "n": 3}`', 'find {"q": "x", "n": 3}', 'find {"q": "x", "n": 3}', 'find {"q": "x", "n": 3} → {"ok": true}', '`find` `{"q": "x", "n": 3}` (subset)']);
  });
});

describe("a paragraph or a list of the comment under GitHub's dir=\"auto\"", () => {
  const LRM = '\u200e';
  /** Each paragraph, list and heading GitHub sets by its first strong character (dir="auto"), by that character's direction: its text as a reader sees it. */
  const drawnRightToLeft = (md: string): string[] => {
    const html = githubHtml(md);
    const blocks = [...html.matchAll(/<(p|ul|ol|h[1-6])>([\s\S]*?)<\/\1>/g)].map((m) => (m[2] as string).replace(/<[^>]*>|&#?\w+;/g, ''));
    return blocks.filter((text) => {
      for (const c of text) {
        if (RTL.test(c)) return true;
        if (c === LRM || /\p{L}/u.test(c)) return false;
      }
      return false;
    });
  };
  const errored = (label: string, error: string) =>
    fixture(label, { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'other', detail: error, drift: null } as never);
  const failing = (label: string, file: string) =>
    fixture(label, { file, verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' }, detail: 'contains "x": not found' } as never);
  const refused = (label: string) => ({ ...ctx, acceptance: { accepted: [], refused: [{ label, reason: 'not evaluated: run it again' }], skipped: [], commitSha: null, commitUrl: null, note: null } } as never);

  it('starts one whose first strong character is right-to-left (a cause, a file, a label in Hebrew or Arabic, isolated) with a left-to-right mark, so it is drawn left to right', () => {
    // Without the mark, GitHub drew "**שגיאה בשרת: נסה שוב**" right to left, and a list whose first item was "`שלום-עולם`: its check..." turned whole, its ": its check" left of the label.
    const md = renderComment(run([errored('x', 'שגיאה בשרת: נסה שוב'), failing('refund', '.agent-replay/fixtures/החזרים.yml'), fixture('ok')]), refused('שלום-עולם'));
    const lines = md.split('\n');
    expect(lines).toContain(`${LRM}**${FSI}שגיאה בשרת\\: נסה שוב${PDI}**`);
    expect(lines.find((l) => l.includes('.yml\\:'))).toMatch(new RegExp(`^${LRM}\\[${FSI}החזרים${PDI}\\.yml\\\\:\\d+\\]\\(https://`));
    expect(lines).toContain(`- ${LRM}${FSI}\`שלום-עולם\`${PDI}: its check was not evaluated, so there is no verdict to store; run it again.`);
    expect(drawnRightToLeft(md)).toEqual([]);
    const summary = renderSummary(run([errored('x', 'خطأ في الخادم: حاول مرة أخرى'), fixture('ok')]), ctx);
    expect(summary.split('\n')).toContain(`${LRM}**${FSI}خطأ في الخادم\\: حاول مرة أخرى${PDI}**`);
    expect(drawnRightToLeft(summary)).toEqual([]);
    // compare's lists of items added and removed, and the configuration errors' list, alike.
    const before = run([fixture('ok')], { startedAt: '2026-01-01T00:00:00.000Z' });
    const after = run([fixture('ok'), fixture('مرحبا-بكم')], { startedAt: '2026-01-02T00:00:00.000Z' });
    const compared = renderCompareMarkdown(compareRuns(before, after));
    expect(compared.split('\n').filter((l) => l.includes('مرحبا'))[0]).toMatch(new RegExp(`^- ${LRM}${FSI}\`مرحبا-بكم\`${PDI}`));
    expect(drawnRightToLeft(compared)).toEqual([]);
    const config = renderConfigErrors([{ file: 'החזרים.yml', line: 3, column: 5, message: 'bad key', fix: 'rename it' } as never], ctx);
    expect(config.split('\n')).toContain(`- ${LRM}${FSI}\`החזרים.yml:3:5\`${PDI}: bad key<br>fix: rename it`);
  });

  it('leaves every other block as it was: one that starts left to right, with right-to-left text after, or none', () => {
    const md = renderComment(run([errored('x', 'HTTP 500: שגיאה בשרת'), failing('refund', '.agent-replay/fixtures/suite-החזרים.yml'), fixture('ok')]), refused('refund-שלום'));
    expect(md).not.toContain(LRM);
    const config = renderConfigErrors([{ file: '.agent-replay/fixtures/החזרים.yml', line: 3, column: null, message: 'bad key', fix: 'rename it' } as never], ctx);
    expect(config).not.toContain(LRM);
    // The mark's test reads the text a browser reads: no tag's name nor entity's is a letter of it.
    expect(leftToRightStart(`<b>${FSI}שלום${PDI}</b> · 3/5`)).toBe(`${LRM}<b>${FSI}שלום${PDI}</b> · 3/5`);
    expect(leftToRightStart(`&lt;${FSI}שלום${PDI}`)).toBe(`${LRM}&lt;${FSI}שלום${PDI}`);
    expect(leftToRightStart(`<b>x</b> ${FSI}שלום${PDI}`)).toBe(`<b>x</b> ${FSI}שלום${PDI}`);
  });
});
