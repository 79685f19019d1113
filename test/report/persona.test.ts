// Persona scripts in the PR comment, the job summary, the markdown report and the terminal
// (docs/action.md, "The PR comment"; docs/personas.md), read back through cmark-gfm, GitHub's own
// parser.

import { describe, expect, it } from 'vitest';
import { personaData } from '../../src/report/html/data.js';
import { breakableJson } from '../../src/assertions/format.js';
import { replyCheck, toolCheck } from '../../src/evaluate/personas.js';
import { NOTICE_RESERVE_CHARS, renderCapRefusal, renderCapRefusalText, renderComment, renderJUnit, renderMarkdownReport, renderSummary, renderTerminal, type ReportContext } from '../../src/report/index.js';
import type { PersonaRecord, RunRecord, Turn } from '../../src/types.js';
import {
  check,
  ctx,
  fixture,
  HOSTILE,
  hostilePersona,
  longReply,
  mixed,
  mixedWithPersonas,
  persona,
  personaBaseline,
  personaScripts,
  refundTurns,
  route,
  run,
  SHA,
  toolCall,
  turn,
} from './fixtures.js';
import { allCodeBlocks, count, decodeEntities, deepFreeze, expectGolden, githubHtml, itemHtml, outsideCode, structure, toHtml, visibleText } from './helpers.js';

/** Rows of the checks table of one item: [icon, check, expected, observed] as visible text. */
/** The checks table's rows as [status, check, expected, observed]: the status is the check cell's first word. */
function checkRows(item: string): string[][] {
  const table = /<table>\s*<thead>\s*<tr>\s*<th>check<\/th>[\s\S]*?<\/table>/.exec(item)?.[0] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => {
    const [check = '', ...rest] = [...(r[1] as string).matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => decodeEntities((c[1] as string).replace(/<[^>]+>/g, '')).trim());
    const space = check.indexOf(' ');
    return [check.slice(0, space), check.slice(space + 1), ...rest];
  });
}

function text(html: string): string {
  return decodeEntities(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

describe('persona scripts are items of the same sections', () => {
  const md = renderComment(mixedWithPersonas(), ctx);
  const s = structure(md);

  it('puts every fixture and script in exactly one section, the first that applies; the headline adds up to fixtures + scripts', () => {
    expect(s.headline).toEqual([
      ['newly failing', 2],
      ['still failing', 3],
      ['changed', 4],
      ['new', 3],
      ['not evaluated', 2],
      ['errored', 2],
      ['unchanged', 3],
    ]);
    expect(s.sections.map((x) => x.count)).toEqual(s.headline.map(([, c]) => c));
    const labels = s.sections.flatMap((x) => x.labels);
    const all = [...mixed().fixtures.map((f) => f.label), ...personaScripts().map((p) => p.label)];
    expect([...labels].sort()).toEqual([...all].sort());
    expect(labels.length).toBe(12 + 7);
    const where = (label: string): string | undefined => s.sections.find((x) => x.labels.includes(label))?.title;
    expect(where('refund-coverage')).toBe('Newly failing');
    expect(where('refund-no-refund-tool')).toBe('Still failing');
    expect(where('refund-reworded')).toBe('Changed');
    expect(where('refund-early-handoff')).toBe('New, no baseline');
    expect(where('refund-empathy')).toBe('Not evaluated');
    expect(where('refund-agent-500')).toBe('Errored');
    expect(where('refund-broken-item')).toBe('Unchanged');
  });

  it('counts scripts as items in the tallies and the footer', () => {
    const html = githubHtml(md);
    const table = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    expect(text(table)).toContain('12 fixtures and 7 persona scripts by verdict');
    // passed 5 + 3, failed 3 + 2, not evaluated 3 + 1, errored 1 + 1
    expect([...table.matchAll(/<td align="right">([^<]*)<\/td>/g)].map((m) => m[1])).toEqual(['8\u00a0(1\u00a0probe)', '5', '4', '2']);
    expect(md).toContain('<sub>agent-replay 0.1.0 · 12 fixtures and 7 persona scripts in 12.3 s</sub>');
    expect(md).toContain('Not evaluated and errored fixtures and persona scripts are never accepted.');
  });

  it('asks to accept the scripts the label would store, like fixtures', () => {
    // 5 fixtures; refund-coverage (newly failing), refund-early-handoff (new), refund-reworded (changed).
    expect(md).toContain('**To accept** the 8 new or changed pass/fail results as baselines');
  });

  it('names a section of scripts only "persona scripts", and a mixed one "items"', () => {
    const scriptsOnly = renderComment(run([], { personas: personaScripts() }), ctx);
    expect(scriptsOnly).toContain('<details><summary>1 unchanged persona script: name, verdict, drift and file</summary>\n\n| persona script | verdict | drift | file |');
    expect(md).toContain('<details><summary>3 unchanged items: name, verdict, drift and file</summary>\n\n| item | verdict | drift | file |');
    expect(md).toContain('| 🎭 script refund-broken-item | ✅ pass | still passing | [refunds.yml\\:12](');
  });

  it('says a script\'s 🎭 with its word, "🎭 script": GitHub strips a name given to the mark, and a screen reader reads it alone as "performing arts"', () => {
    const terminal = renderTerminal(mixedWithPersonas(), { color: false });
    for (const out of [md, renderSummary(mixedWithPersonas(), ctx), terminal]) {
      expect(count(out, '🎭')).toBeGreaterThan(0);
      expect(count(out, '🎭')).toBe(count(out, '🎭 script '));
    }
    expect(md).toContain('❌ 🎭 script <b>refund-coverage</b> · fail · newly failing');
    expect(terminal).toContain('🎭 script refund-coverage · fail · newly failing');
  });

  it('leaks no markdown of its own: emphasis, fences and tags all render', () => {
    const visible = visibleText(githubHtml(md));
    expect(visible).not.toContain('**');
    expect(visible).not.toContain('```');
    expect(visible).not.toMatch(/<\/?(details|summary|b|code)>/);
    expect(visible).not.toMatch(/(^|\s)_\S/);
  });

  it('links every script to its file and line at the head commit', () => {
    const html = githubHtml(md);
    const links = [...html.matchAll(/<a href="([^"]*\/personas\/[^"]*)">([^<]*)<\/a>/g)];
    expect(links.length).toBe(7);
    for (const [, href, label] of links) {
      expect(href).toMatch(new RegExp(`^https://github\\.com/acme/shop-bot/blob/${SHA}/\\.agent-replay/personas/refunds\\.yml#L\\d+$`));
      expect(label).toBe(`refunds.yml:${href?.split('#L')[1]}`);
    }
  });

  it('renders a record written before scripts existed (no personas key) as before', () => {
    const old = mixed() as Partial<RunRecord>;
    delete old.personas;
    expect(renderComment(old as RunRecord, ctx)).toBe(renderComment(mixed(), ctx));
    expect(renderTerminal(old as RunRecord, { color: false })).toBe(renderTerminal(mixed(), { color: false }));
  });
});

describe('one script in full', () => {
  const html = githubHtml(renderComment(mixedWithPersonas(), ctx));

  it('fails on coverage: verdict and drift on its line, conversations visited vs expected, the first differing turn with a diff', () => {
    const item = itemHtml(html, 'refund-coverage');
    const summary = text(/<summary>([\s\S]*?)<\/summary>/.exec(item)?.[1] ?? '');
    expect(summary).toContain('❌ 🎭 script refund-coverage · fail · newly failing · transcript changed · routes changed · refunds.yml:24');
    expect(summary).toContain('2 of 4 checks passed · ❌ conversations (fail): visited: main, refunds; missing: handoff · and 1 more');
    // Newly failing scripts are open, like fixtures.
    expect(item.startsWith('<details open>')).toBe(true);
    expect(checkRows(item)).toEqual([
      ['❌', 'conversations (fail)', 'refunds, handoff', 'visited main → refunds · missing handoff'],
      ['❌', 'ends with (fail)', 'handoff', 'finish'],
      ['✅', 'tool called (pass)', 'find_order {"orderId": "1234"} (subset)', 'called on turn 2'],
      ['✅', 'criterion (pass)', 'Mentioned the order number', 'score 0.90 (threshold 0.70): Order 1234 is named on turn 2.'],
    ]);
    expect(text(item)).toContain('First difference from the baseline: Turn 3');
    expect(text(item)).toContain('Route : handoff / queue → refunds / closing');
    const diff = allCodeBlocks(item.slice(0, item.indexOf('Transcript:')));
    expect(diff).toEqual([
      "- I'm sorry it arrived broken.\n+ Sorry about that.\n- I've passed this to a colleague who can arrange a replacement or a refund.\n+ Is there anything else I can help you with?\n",
    ]);
  });

  it('shows the transcript in an expandable block: welcome turn 0, User / Agent turns, route badges, tool calls', () => {
    const item = itemHtml(html, 'refund-coverage');
    const transcript = item.slice(item.indexOf('<details><summary>Transcript: 4 turns</summary>'));
    expect(transcript).not.toBe('');
    const t = text(transcript);
    expect(t).toContain('Turn 0 (welcome) · Agent · main / welcome');
    expect(t).toContain('1 · User : I want my money back');
    expect(t).toContain('1 · Agent · refunds / identify');
    expect(t).toContain('3 · Agent · refunds / closing · outcome finish');
    expect(transcript).toContain('<code>refunds / lookup</code>');
    const blocks = allCodeBlocks(transcript);
    expect(blocks).toContain("Hi! I'm Shop Bot. How can I help?\n");
    // JSON in one form across the comment: the tool calls as the checks table writes them (assertions/format.ts's breakableJson).
    expect(blocks).toContain('find_order {"orderId": "1234"} → {"status": "delivered", "item": "kettle"}\n');
    // The user turn precedes the agent's reply to it.
    expect(t.indexOf('2 · User : Order 1234')).toBeLessThan(t.indexOf('2 · Agent'));
  });

  it('fails a tool check: the turn of the call and its input', () => {
    const item = itemHtml(html, 'refund-no-refund-tool');
    expect(checkRows(item)).toEqual([
      ['✅', 'tool called (pass)', 'find_order {"orderId": "1234"} (subset)', 'called on turn 2'],
      ['❌', 'tool not called (fail)', 'issue_refund, any input', 'called on turn 3 {"orderId": "1234", "amount": 49.99}'],
    ]);
    expect(text(item)).toContain('1 of 2 checks passed · ❌ tool not called (fail): issue_refund must not be called, but was at turn 3');
    expect(allCodeBlocks(item)).toContain('issue_refund {"orderId": "1234", "amount": 49.99} → {"refundId": "R-77"}\n');
    // Same transcript as the baseline: nothing to diff.
    expect(item).not.toContain('First difference');
  });

  it('a long JSON value in the checks table wraps in its column on a phone, as the other long values do (breakableJson, assertions/format.ts)', () => {
    const input = { orderId: '1234', customer: { email: 'pat@example.com', name: 'Pat Example' }, note: 'a, b: "c"' };
    const failing = persona('long-input', {
      checks: [check.toolCalled('create_refund', input, [{ turn: 2, input: { orderId: '1234', customer: { email: 'pat@example.com' } } }], null)],
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
    });
    const [row] = checkRows(itemHtml(githubHtml(renderComment(run([], { personas: [failing] }), ctx)), 'long-input'));
    // Still the JSON the script wrote, clipped to its cell; a space after each comma and colon between
    // values, none added inside a string. A code span wraps only at a space: none of its words is long.
    expect(row?.[2]).toBe('create_refund {"orderId": "1234", "customer": {"email": "pat@example.com", "name": "Pat Examp… (subset)');
    expect(row?.[3]).toBe('other inputs only: turn 2 {"orderId": "1234", "customer": {"email": "pat@example.com"}}');
    for (const cell of [row?.[2], row?.[3]]) expect(Math.max(...(cell ?? '').split(' ').map((w) => w.length)), cell).toBeLessThanOrEqual(20);
    expect(breakableJson(JSON.stringify(input))).toBe('{"orderId": "1234", "customer": {"email": "pat@example.com", "name": "Pat Example"}, "note": "a, b: \\"c\\""}');
    expect(JSON.parse(breakableJson(JSON.stringify(input)))).toEqual(input);
  });

  it('a criterion not evaluated is grey with its reason, never a pass or a fail', () => {
    const item = itemHtml(html, 'refund-empathy');
    expect(text(item)).toContain('⚪ 🎭 script refund-empathy · not evaluated · drift unknown');
    expect(text(item)).toContain('1 of 2 checks passed · ⚪ criterion (not evaluated): judge unreachable: HTTP 503 after 3 retries');
    expect(checkRows(item)).toEqual([
      ['✅', 'criterion (pass)', 'Mentioned the order number', 'score 0.92 (threshold 0.70): Order 1234 is repeated back.'],
      ['⚪', 'criterion (not evaluated)', 'Stayed empathetic', 'judge unreachable: HTTP 503 after 3 retries'],
    ]);
  });

  it("says each check's result in words beside its icon: a screen reader reads ❌ and ⚪ as \"cross mark\" and \"white circle\"", () => {
    // In the checks table and on the script's line (the comment, the job summary, report.html's row):
    // a check's icon alone left a reader who hears it, or cannot tell its colours apart, to guess.
    const item = itemHtml(html, 'refund-empathy');
    expect(text(item)).toContain('1 of 2 checks passed · ⚪ criterion (not evaluated): judge unreachable: HTTP 503 after 3 retries');
    expect(checkRows(item).map((r) => `${r[0]} ${r[1]}`)).toEqual(['✅ criterion (pass)', '⚪ criterion (not evaluated)']);
    expect(checkRows(itemHtml(html, 'refund-coverage')).map((r) => `${r[0]} ${r[1]}`)).toEqual(['❌ conversations (fail)', '❌ ends with (fail)', '✅ tool called (pass)', '✅ criterion (pass)']);
  });

  it('errored on turn 3: the error, the checks that could run, the two turns kept and the message the run stopped on', () => {
    const item = itemHtml(html, 'refund-agent-500');
    expect(text(/<summary>([\s\S]*?)<\/summary>/.exec(item)?.[1] ?? '')).toContain(
      '⚪ 🎭 script refund-agent-500 · errored · not compared · refunds.yml:60 turn 3: HTTP 500 from the agent: Internal Server Error',
    );
    expect(checkRows(item).map((r) => [r[0], r[1]])).toEqual([
      ['❌', 'conversations (fail)'],
      ['✅', 'tool called (pass)'],
      ['⚪', 'criterion (not evaluated)'],
    ]);
    expect(checkRows(item)[2]?.[3]).toBe('the run did not complete');
    const t = text(item.slice(item.indexOf('Transcript:')));
    // Turn 3's message was sent (and retried): its answer failed, so it stands above the error, not among the messages not sent.
    expect(t).toContain('Transcript: 2 turns · stopped by an error');
    expect(t).toContain('1 · User : I want my money back');
    expect(t).toContain('2 · Agent · refunds / lookup');
    expect(t).not.toContain('0 · Agent');
    expect(t).toContain('3 · User : It arrived broken Stopped : turn 3: HTTP 500 from the agent: Internal Server Error');
    expect(t).not.toContain('Not sent');
    // The JUnit transcript and the HTML report's data say the same.
    const junit = renderJUnit(mixedWithPersonas());
    expect(junit).toContain('  [3] User: It arrived broken\n  [3] the run stopped: no answer to record');
    expect(junit).not.toContain('unsent: It arrived broken');
    const data = personaData(mixedWithPersonas().personas!.find((p) => p.label === 'refund-agent-500')!);
    expect([data.stopped, data.unsent]).toEqual([{ index: 3, message: 'It arrived broken' }, []]);
    expect(text(item)).toContain('Script : persona impatient-refund-seeker · 3 of 3 messages sent · no outcome reported');
    // Its checks ran on the turns that completed: the section and the terminal line say so, not
    // "nothing to check" above a checks table, nor a bare "1 of 3 checks passed" under Errored.
    expect(text(html)).toContain('The replay did not complete, so there is nothing to accept; a script shows the turns that completed and its checks on them, not a verdict.');
    expect(text(html)).not.toContain('nothing to check');
    expect(renderTerminal(mixedWithPersonas(), { color: false })).toContain(
      'turn 3: HTTP 500 from the agent: Internal Server Error · on the turns that completed: 1 of 3 checks passed',
    );
  });

  it("errored on a turn whose stream was cut short: the calls that turn had begun stand under its message, before the error (docs/presets.md, \"Streamed replies\")", () => {
    const record = mixedWithPersonas();
    const error = "turn 3: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; anthropic stream, no text received, 1 tool call begun: refund)";
    const begun = [{ tool: 'refund', input: '{"order": "1234", "amount": 1', output: null, mocked: true }];
    const personas = record.personas!.map((p): PersonaRecord => (p.label === 'refund-agent-500' && p.errored ? { ...p, error, errorKind: 'network', errorToolCalls: begun } : p));
    const cut = { ...record, personas };
    const item = itemHtml(githubHtml(renderComment(cut, ctx)), 'refund-agent-500');
    const t = text(item.slice(item.indexOf('Transcript:')));
    expect(t).toContain('3 · User : It arrived broken Tool calls begun before the answer was cut short (1): refund "{\\"order\\": \\"1234\\", \\"amount\\": 1" → null Stopped');
    // The JUnit transcript lists them there too.
    expect(renderJUnit(cut)).toContain('  [3] User: It arrived broken\n  [3] tool refund &quot;{\\&quot;order\\&quot;: \\&quot;1234\\&quot;, \\&quot;amount\\&quot;: 1&quot; (begun before the answer was cut short)\n  [3] the run stopped: no answer to record');
    expect(renderJUnit(record)).not.toContain('begun before the answer');
    // The terminal names them on a line under the script's error, as a fixture's.
    expect(renderTerminal(cut, { color: false })).toContain('\n        tool calls begun before the answer was cut short: refund "{\\"order\\": \\"1234\\", \\"amount\\": 1"\n');
    expect(renderTerminal(record, { color: false })).not.toContain('tool calls begun');
    // The HTML report's data: the calls beside the turn the run stopped on.
    const data = personaData(personas.find((p) => p.label === 'refund-agent-500')!);
    expect([data.stopped, data.stoppedCalls]).toEqual([{ index: 3, message: 'It arrived broken' }, [{ tool: 'refund', input: '"{\\"order\\": \\"1234\\", \\"amount\\": 1"', output: 'null', mocked: true }]]);
    // A script without them shows none.
    expect(personaData(record.personas!.find((p) => p.label === 'refund-agent-500')!).stoppedCalls).toBeUndefined();
    expect(text(itemHtml(githubHtml(renderComment(record, ctx)), 'refund-agent-500'))).not.toContain('Tool calls begun');
  });

  it('a long error is said once: its cause above sums it up, the line names its turn, the Error block holds it whole', () => {
    const long =
      'turn 3: the agent reported a call to issue_refund {"orderId":"2718","amount":12,"reason":"arrived broken"} that no mock answered ' +
      '(no mock is declared for it; mocked: false); the script declares mocks, so it runs in mocked mode and every tool call must be ' +
      'answered by a mock: declare a mock for issue_refund in mocks, or remove the script\'s mocks to test the agent\'s tools live';
    const record = mixedWithPersonas();
    record.personas = record.personas!.map((p) => (p.label === 'refund-agent-500' && p.errored ? { ...p, error: long, errorKind: 'unmocked_tool' } : p));
    const page = githubHtml(renderComment(record, ctx));
    const item = itemHtml(page, 'refund-agent-500');
    expect(text(/<summary>([\s\S]*?)<\/summary>/.exec(item)?.[1] ?? '')).toBe('⚪ 🎭 script refund-agent-500 · errored · not compared · refunds.yml:60 · turn 3');
    expect(text(page)).toContain("1 of 2: a call to issue_refund that no mock answered: add a mock for it to the script's mocks");
    // Once whole (wrapped in its block), and nowhere else in part.
    const shown = text(item).replace(/ ↪ /g, ' ');
    expect(shown.split('that no mock answered (no mock is declared').length - 1).toBe(1);
    expect(shown).toContain("or remove the script's mocks to test the agent's tools live");
    expect(text(item)).toContain('3 · User : It arrived broken Stopped on turn 3 by the error above.');
    // The terminal: the cause line, then the item's turn, its text without the turn bounded (it has no block), and its checks.
    const t = renderTerminal(record, { color: false });
    expect(t).toContain("  1 of 2: a call to issue_refund that no mock answered: add a mock for it to the script's mocks\n    ! 🎭 script refund-agent-500 · errored · not compared · .agent-replay/personas/refunds.yml:60 · turn 3\n");
    const own = t.split('\n').find((l) => l.startsWith('        the agent reported a call to issue_refund {"orderId":"2718"')) ?? '';
    // Its fix whole (FIX_START knows "; the script declares mocks, "): before, cut at 300 characters mid-fix.
    const fix = long.slice(long.indexOf('; the script declares mocks'));
    expect(own).toMatch(/ that no mock answered \(no mock is declared for it; mocked: false\); the script declares mocks, /);
    expect(own.endsWith(`${fix} · on the turns that completed: 1 of 3 checks passed`)).toBe(true);
    expect(own.length - fix.length).toBeLessThanOrEqual(8 + 300 + ' · on the turns that completed: 1 of 3 checks passed'.length);
  });

  it('ended early: the follow-ups not sent, not an error', () => {
    const item = itemHtml(html, 'refund-early-handoff');
    expect(text(item)).toContain('✅ 🎭 script refund-early-handoff · pass · no baseline');
    expect(text(item)).toContain('both checks passed');
    expect(text(item)).toContain('1 of 3 messages sent after a welcome turn · ended: the agent ended the conversation on turn 1 · outcome handoff');
    const t = text(item.slice(item.indexOf('Transcript:')));
    expect(t).toContain('Transcript: 2 turns · 2 not sent');
    expect(t).not.toContain('stopped by an error');
    expect(t).toContain('Not sent (2), because the agent ended the conversation on turn 1: 2 · User : Order 1234 3 · User : It arrived broken');
  });

  it('a reworded reply: the first differing turn with its words marked', () => {
    const item = itemHtml(html, 'refund-reworded');
    expect(text(item)).toContain('First difference from the baseline: Turn 1');
    expect(allCodeBlocks(item)[0]).toBe('@@ 1 unchanged sentence @@\n- ⟦What is ⟧your order number?\n+ ⟦Could you tell me ⟧your order number?\n');
  });

  it('a script whose number of turns changed: the turn only one side has', () => {
    const turns = refundTurns();
    const shorter = persona('shorter', {
      turns: turns.slice(0, 3),
      unsent: ['It arrived broken'],
      drift: { transcript: 'different', route: 'different', verdict: 'still_passing' },
      baseline: personaBaseline('shorter', turns),
    });
    const longer = persona('longer', {
      turns: [...turns, turn(4, 'Thanks', 'You are welcome!', route('main', 'bye'))],
      drift: { transcript: 'different', route: 'different', verdict: 'still_passing' },
      baseline: personaBaseline('longer', turns),
    });
    const h = githubHtml(renderComment(run([], { personas: [shorter, longer] }), ctx));
    const a = text(itemHtml(h, 'shorter'));
    expect(a).toContain('First difference from the baseline: Turn 3');
    expect(a).toContain('This run has no turn 3. Baseline reply · route handoff / queue');
    const b = text(itemHtml(h, 'longer'));
    expect(b).toContain('First difference from the baseline: Turn 4');
    expect(b).toContain('4 · User : Thanks');
    expect(b).toContain('The baseline has no turn 4. New reply · route main / bye');
    // The welcome turn only one side has is named as the heading above names it: "turn 0 (welcome)".
    const ungreeted = persona('ungreeted', { turns: [], drift: { transcript: 'different', route: 'different', verdict: 'still_passing' }, baseline: personaBaseline('ungreeted', turns.slice(0, 1)) });
    const greeted = persona('greeted', { turns: turns.slice(0, 1), drift: { transcript: 'different', route: 'different', verdict: 'still_passing' }, baseline: personaBaseline('greeted', []) });
    const w = githubHtml(renderComment(run([], { personas: [ungreeted, greeted] }), ctx));
    expect(text(itemHtml(w, 'ungreeted'))).toContain('First difference from the baseline: Turn 0 (welcome) This run has no turn 0 (welcome). Baseline reply · route main / welcome');
    expect(text(itemHtml(w, 'greeted'))).toContain('The baseline has no turn 0 (welcome). New reply · route main / welcome');
    // The terminal says it after a colon, never a bracket after the welcome turn's: "Turn 0 (welcome) (this run ...)".
    const t = renderTerminal(run([], { personas: [shorter, longer, ungreeted, greeted] }), { color: false });
    expect(t).toContain('first difference from the baseline: Turn 3: this run has no such turn');
    expect(t).toContain('first difference from the baseline: Turn 0 (welcome): this run has no such turn');
    expect(t).toContain('first difference from the baseline: Turn 0 (welcome): the baseline has no such turn');
    expect(t).not.toMatch(/\) \(/);
  });

  it('names the check data the agent does not report as not evaluated, with the reason', () => {
    const noTools = persona('no-tools', {
      turns: refundTurns().map((t): Turn => ({ ...t, toolCalls: null })),
      verdict: 'not_evaluated',
      checks: [{ ...check.toolCalled('find_order', undefined, [], null), status: 'not_evaluated', detail: 'the agent does not report tool calls' }],
      drift: { transcript: 'same', route: 'same', verdict: 'not_evaluated' },
    });
    const item = itemHtml(githubHtml(renderComment(run([], { personas: [noTools] }), ctx)), 'no-tools');
    expect(checkRows(item)).toEqual([['⚪', 'tool called (not evaluated)', 'find_order, any input', 'the agent does not report tool calls']]);
    expect(item).not.toContain('Tool calls (');
  });
});

describe('hostile text in scripts stays inert', () => {
  const md = renderComment(hostilePersona(), ctx);
  const html = githubHtml(md);
  const micro = toHtml(md);

  it('injects no HTML, links nobody and nothing, leaks no markdown', () => {
    for (const h of [html, micro]) {
      expect(h).not.toMatch(/<script|<img/i);
      const hrefs = [...h.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
      for (const href of hrefs) expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop-bot\//);
      expect(h).not.toMatch(/<h[12]>/);
      expect(h).not.toContain('<strong>bold</strong>');
      // Ours only: the labels in summaries.
      expect(count(h, '<b>')).toBe(count(h, /<summary>\S+ 🎭 script <b>/));
    }
    // The hostile text itself is shown (as text); none of it became markup.
    expect(visibleText(html)).toContain('| a | b | ⏎ |---|---| ⏎ </details></summary><script>alert(1)</script><img src=x onerror=alert(2)>');
  });

  it('mentions nobody and references no issue outside code', () => {
    const outside = outsideCode(html);
    expect(outside).not.toMatch(/@someone|@admin|@team|@judge|@issue_refund|@finish/);
    expect(outside).not.toMatch(/#123|#7\b|#12\b|GH-45/);
    expect(outside).not.toContain(':smile:');
  });

  it('keeps <details> balanced and every code line within 100 characters', () => {
    expect(count(html, /<details[ >]/)).toBe(count(html, '</details>'));
    expect(count(md, /^<details[ >]/m)).toBe(count(md, /^<\/details>$/m));
    for (const block of allCodeBlocks(html)) for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('keeps replies, messages and tool inputs inside code blocks, whole', () => {
    const unwrapped = allCodeBlocks(html).map((b) => b.replace(/\n↪ /g, ' '));
    // eslint-disable-next-line no-control-regex
    const reply = HOSTILE.replace(/\u001b|\u0007|\u202e/g, '');
    expect(unwrapped).toContain(`${reply}\n`);
    expect(unwrapped).toContain(`Opening ${reply}\n`);
    const tools = unwrapped.find((b) => b.startsWith('find_order`|<b> '));
    expect(tools).toBeDefined();
    expect(tools).toContain('"@admin": "#123"');
    expect(tools).toContain('(NOT MOCKED)');
  });

  it("the checks table has three columns, each check's status beside its name: a column of its own made it wider than a phone", () => {
    // On a 390 px phone the fourth column, "observed", the one a failed check is read by, scrolled out of sight.
    const item = itemHtml(html, 'hostile-script');
    const table = /<table>[\s\S]*?<\/table>/.exec(item.slice(item.indexOf('<th>check</th>') - 40))?.[0] ?? '';
    expect([...table.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['check', 'expected', 'observed']);
    for (const row of table.split('<tr>').slice(2)) expect(count(row, '<td>')).toBe(3);
    expect(table).toMatch(/<td>❌ [a-z]/);
  });

  it('keeps the checks table one row per check, whatever the cells hold', () => {
    const item = itemHtml(html, 'hostile-script');
    const rows = checkRows(item);
    expect(rows.length).toBe(3);
    for (const r of rows) expect(r.length).toBe(4);
    expect(rows.map((r) => r[0])).toEqual(['❌', '✅', '❌']);
  });

  it('lists unsent messages as list items that cannot nest or number', () => {
    const item = itemHtml(html, 'hostile-script');
    const list = /Not sent[\s\S]*?<ul>([\s\S]*?)<\/ul>/.exec(item)?.[1] ?? '';
    expect(count(list, '<li>')).toBe(2);
    expect(list).not.toMatch(/<ul>|<ol>/);
  });

  it('keeps ANSI escapes and line breaks out of the terminal', () => {
    const t = renderTerminal(hostilePersona(), { color: false });
    expect(t).not.toContain('\u001b');
    expect(t).not.toContain('\u0007');
    expect(t.split('\n').filter((l) => l.includes('hostile-script')).length).toBe(1);
  });
});

/** `n` scripts of every kind in turn, each with `turnsEach` long turns. */
function manyScripts(n: number, turnsEach = 6): PersonaRecord[] {
  const out: PersonaRecord[] = [];
  for (let i = 0; i < n; i++) {
    const label = `script-${String(i).padStart(4, '0')}`;
    const turns = Array.from({ length: turnsEach }, (_, k) => turn(k + 1, `Message ${k + 1} of ${label}`, longReply(i * 7 + k, 2), route('refunds', `stage-${k}`)));
    const changed = turns.map((t, k) => (k === 2 ? { ...t, reply: t.reply.replace(/\bcard\b|\border\b/, 'voucher') + ' Extra words.' } : t));
    const kind = i % 4;
    if (kind === 0) {
      out.push(
        persona(label, {
          turns: changed,
          verdict: 'fail',
          checks: [check.conversations(['refunds', 'handoff'], ['refunds'])],
          drift: { transcript: 'different', route: 'same', verdict: 'newly_failing' },
          baseline: personaBaseline(label, turns),
        }),
      );
    } else if (kind === 1) {
      out.push(persona(label, { turns: changed, drift: { transcript: 'different', route: 'same', verdict: 'still_passing' }, baseline: personaBaseline(label, turns) }));
    } else if (kind === 2) {
      out.push(persona(label, { turns, drift: { transcript: null, route: null, verdict: 'no_baseline' }, baseline: null }));
    } else out.push(persona(label, { turns, baseline: personaBaseline(label, turns) }));
  }
  return out;
}

describe('size limits', () => {
  it('leaves out transcripts first, keeping every script line, checks table and first difference', () => {
    const r = run([], { personas: manyScripts(8) });
    const full = renderSummary(r, ctx);
    const limit = Math.floor(full.length * 0.6);
    const md = renderComment(r, ctx, { maxChars: limit });
    expect(md.length).toBeLessThanOrEqual(limit);
    const notice = md.split('\n\n')[2] as string;
    expect(notice).toMatch(/^> ✂️ The transcripts of \d+ persona scripts are left out, to fit GitHub's limit of [\d,]+ characters per comment\./);
    const html = githubHtml(md);
    const shown = r.personas.filter((p) => html.includes(`<b>${p.label}</b>`));
    expect(shown.length).toBe(6); // all but the unchanged, which are listed in their table
    for (const p of shown) {
      const item = itemHtml(html, p.label);
      expect(checkRows(item).length).toBe(p.checks.length);
      if (p.drift?.transcript === 'different') expect(item).toContain('First difference from the baseline');
    }
    expect(count(md, 'Transcript left out to fit the size limit')).toBeGreaterThan(0);
    // Worst first: the newly failing keep their transcripts longest.
    const kept = [...html.matchAll(/<summary>Transcript: /g)].length;
    expect(kept).toBeLessThan(6);
  });

  it('compacts 600 scripts like fixtures: 10 in full per section, the rest listed, sections adding up', () => {
    const r = run(mixed().fixtures, { personas: manyScripts(600, 3) });
    const md = renderComment(r, ctx);
    expect(md.length).toBeLessThanOrEqual(65_536 - NOTICE_RESERVE_CHARS);
    const s = structure(md);
    expect(s.headline.reduce((n, [, c]) => n + c, 0)).toBe(612);
    expect(s.sections.map((x) => x.count)).toEqual(s.headline.map(([, c]) => c));
    for (const x of s.sections) {
      expect(x.full).toBeLessThanOrEqual(10);
      expect(x.labels.length + x.counted).toBe(x.count);
    }
    expect(md.split('\n\n')[2]).toMatch(/^> ✂️ Shown in detail: /);
    expect(md).toMatch(/^\| 🎭 script script-\d{4} \| /m);
    for (const block of allCodeBlocks(githubHtml(md))) for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('never exceeds a tiny limit and closes what it opened', () => {
    for (const max of [500, 2000, 6000]) {
      for (const r of [mixedWithPersonas(), hostilePersona(), run([], { personas: manyScripts(40) })]) {
        const md = renderComment(r, ctx, { maxChars: max });
        expect(md.length).toBeLessThanOrEqual(max);
        const html = githubHtml(md);
        expect(count(html, /<details[ >]/)).toBe(count(html, '</details>'));
        expect(count(md, /^`{3,}/m) % 2).toBe(0);
        expect(html).not.toMatch(/<script|<img/);
      }
    }
  });

  it('clips a huge reply in a transcript instead of dropping the script', () => {
    const huge = 'y'.repeat(50_000);
    const r = run([], { personas: [persona('huge', { turns: [turn(1, 'hi', huge, route('main', 'answer'))], drift: { transcript: null, route: null, verdict: 'no_baseline' }, baseline: null })] });
    const md = renderComment(r, ctx);
    expect(md).toContain('(first 4,000 of 50,000 characters; the whole text is in results.json)');
    expect(renderSummary(r, ctx)).toContain('(first 20,000 of 50,000 characters; the whole text is in results.json)');
  });
});

describe('after acceptance', () => {
  const accepted: ReportContext = {
    ...ctx,
    acceptance: {
      accepted: ['refund-coverage', 'refund-reworded', 'refund-early-handoff'],
      refused: [{ label: 'refund-agent-500', reason: 'errored: the run did not complete' }],
      skipped: [],
      commitSha: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
      commitUrl: 'https://github.com/acme/shop-bot/commit/c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
      note: null,
    },
  };

  it('compares accepted scripts with their new baselines: no longer changed, new or newly failing', () => {
    const md = renderComment(run([], { personas: personaScripts() }), accepted);
    const s = structure(md);
    const where = (label: string): string | undefined => s.sections.find((x) => x.labels.includes(label))?.title;
    expect(where('refund-coverage')).toBe('Still failing');
    expect(where('refund-reworded')).toBe('Unchanged');
    expect(where('refund-early-handoff')).toBe('Unchanged');
    expect(where('refund-agent-500')).toBe('Errored');
    expect(md).toContain('- `refund-agent-500`: the script did not run to the end, so there is no transcript to accept.');
    expect(md).toContain('Nothing to accept');
    expect(md).not.toContain('First difference');
  });
});

describe('terminal', () => {
  const t = renderTerminal(mixedWithPersonas(), { color: false });

  /** The section each item line is in, as the terminal shows it. */
  function terminalSections(text: string): Map<string, string> {
    const at = new Map<string, string>();
    let section = '';
    for (const line of text.split('\n')) {
      const head = /^([A-Z][^(]*) \((\d+)\)/.exec(line);
      if (head) section = head[1] as string;
      const item = /^ {2,4}[✗~+○!] (?:🎭 script )?(\S+) · /.exec(line);
      if (item) at.set(item[1] as string, section);
    }
    return at;
  }

  it('puts persona scripts in the sections of the comment, with their failing and not evaluated checks', () => {
    const at = terminalSections(t);
    expect(at.get('refund-coverage')).toBe('Newly failing');
    expect(at.get('refund-no-refund-tool')).toBe('Still failing');
    expect(at.get('refund-reworded')).toBe('Changed');
    expect(at.get('refund-early-handoff')).toBe('New, no baseline');
    expect(at.get('refund-empathy')).toBe('Not evaluated');
    expect(at.get('refund-agent-500')).toBe('Errored');
    expect(t).not.toContain('Persona scripts (');
    expect(t).toContain(
      '  ✗ 🎭 script refund-coverage · fail · newly failing · transcript changed · routes changed · .agent-replay/personas/refunds.yml:24\n' +
        '      2 of 4 checks passed\n' +
        '      ✗ conversations (fail): visited: main, refunds; missing: handoff\n' +
        '      ✗ ends with (fail): expected handoff, ended with finish\n',
    );
    expect(t).toContain('      ✗ tool not called issue_refund (fail): issue_refund must not be called, but was at turn 3');
    expect(t).toContain('        ○ criterion "Stayed empathetic" (not evaluated): judge unreachable: HTTP 503 after 3 retries');
    expect(t).toContain('        turn 3: HTTP 500 from the agent: Internal Server Error · on the turns that completed: 1 of 3 checks passed');
    // A changed script shows its first differing reply as a word diff.
    expect(t).toContain('      Turn 1 reply vs baseline (- baseline, + new, changed words in ⟦ ⟧):\n        @@ 1 unchanged sentence @@\n        - ⟦What is ⟧your order number?\n');
    // Passing checks are not listed; unchanged items are only counted.
    expect(t).not.toContain('✓');
    expect(t).toContain('Unchanged (3): not listed; every item is in results.json');
  });

  it('counts scripts in the headline and the verdicts; the sections add up to the headline', () => {
    const lines = t.split('\n');
    expect(lines[0]).toBe('agent-replay: 2 newly failing · 3 still failing · 4 changed · 3 new · 2 not evaluated · 2 errored · 3 unchanged — 6 not verified');
    expect(lines[1]).toMatch(/^ {2}cause: 2 of 6: judge unreachable: HTTP 503: /);
    expect(lines[2]).toBe('verdicts: passed 8  failed 5  not evaluated 4 (not a failure)  errored 2 (not a failure)');
    const counts = [...t.matchAll(/^([A-Z][^(\n]*) \((\d+)\)/gm)].map((m) => [m[1], Number(m[2])]);
    expect(counts).toEqual([
      ['Newly failing', 2],
      ['Still failing', 3],
      ['Changed', 4],
      ['New, no baseline', 3],
      ['Not evaluated', 2],
      ['Errored', 2],
      ['Unchanged', 3],
    ]);
    expect(t).toContain('Newly failing (2)\n  ✗ refund-policy');
  });

  it("says an open check's result in words after its name, as the comment does: ✗ and ○ alone are marks a screen reader names", () => {
    const t = renderTerminal(mixedWithPersonas(), { color: false });
    expect(t).toContain('      ✗ conversations (fail): visited: main, refunds; missing: handoff\n');
    expect(t).toContain('        ○ criterion "Stayed empathetic" (not evaluated): judge unreachable: HTTP 503 after 3 retries\n');
    expect(t).toContain('      ✗ tool not called issue_refund (fail): issue_refund must not be called, but was at turn 3\n');
  });

  it('respects the width and colours only when asked', () => {
    for (const line of renderTerminal(mixedWithPersonas(), { color: false, width: 70 }).split('\n')) expect(line.length).toBeLessThanOrEqual(70);
    const coloured = renderTerminal(mixedWithPersonas(), { color: true });
    expect(coloured).toContain('\u001b[31m      ✗ conversations');
    // Colour only repeats what the words say (docs/action.md, "Accessibility"): without it (NO_COLOR, a pipe) every word is there.
    expect(coloured.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '')).toBe(renderTerminal(mixedWithPersonas(), { color: false }));
  });
});

describe('golden files and purity', () => {
  it('mixed run with scripts: comment', () => expectGolden('mixed-personas.comment.md', renderComment(mixedWithPersonas(), ctx)));
  it('mixed run with scripts: job summary', () => expectGolden('mixed-personas.summary.md', renderSummary(mixedWithPersonas(), ctx)));
  it('mixed run with scripts: terminal', () => expectGolden('mixed-personas.terminal.txt', renderTerminal(mixedWithPersonas(), { color: false })));
  it('hostile scripts: comment', () => expectGolden('hostile-personas.comment.md', renderComment(hostilePersona(), ctx)));

  it('renders byte-identical output and never mutates its input', () => {
    const r = deepFreeze(mixedWithPersonas());
    const once = [renderComment(r, ctx), renderSummary(r, ctx), renderTerminal(r, { color: true }), renderMarkdownReport(r, ctx)];
    expect([renderComment(r, ctx), renderSummary(r, ctx), renderTerminal(r, { color: true }), renderMarkdownReport(r, ctx)]).toEqual(once);
  });

  it('a fixture with no scripts renders exactly as before', () => {
    expect(renderComment(run([fixture('a')]), ctx)).not.toMatch(/persona|script|🎭/);
  });
});

describe('cap refusal', () => {
  it('counts persona scripts beside the fixtures and judge calls', () => {
    const estimate = { usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false };
    expect(renderCapRefusal(estimate, 12, 4, ctx, 3)).toContain('**≈ $0.36 estimated** for 12 fixtures, 3 persona scripts and 4 judge calls; the cap is **$0.10**.');
    expect(renderCapRefusal(estimate, 12, 0, ctx, 1)).toContain('for 12 fixtures and 1 persona script; the cap');
    expect(renderCapRefusal(estimate, 12, 4, ctx)).toBe(renderCapRefusal(estimate, 12, 4, ctx, 0));
  });

  it('names the meaning calls the estimate prices (docs/meaning.md, "Costs")', () => {
    const estimate = { usd: 0.055, capUsd: 0.01, aboveCap: true, confirmed: false, meaningCalls: 2 };
    expect(renderCapRefusal(estimate, 2, 1, ctx)).toContain('for 2 fixtures, 1 judge call and 2 meaning calls at most; the cap');
    expect(renderCapRefusalText(estimate, 2, 1, { dir: 'suite' })).toContain('for 2 fixtures, 1 judge call and 2 meaning calls at most is above');
  });

  it('with adaptive attempts, says the estimate is the high end and gives the low end', () => {
    const estimate = { usd: 0.18, capUsd: 0.1, aboveCap: true, confirmed: false, adaptive: { items: 1, lowUsd: 0.06 } };
    expect(renderCapRefusal(estimate, 1, 0, ctx)).toContain('the cap is **$0.10** (the most it can cost: 1 item may take extra attempts up to repeat.max; $0.06 without any). Nothing');
    expect(renderCapRefusalText(estimate, 1, 0, { dir: 'suite' })).toContain('is above the cost cap $0.10 (the most it can cost: 1 item may take extra attempts up to repeat.max; $0.06 without any).\n');
  });

  it('the terminal says the same count in the same words', () => {
    const estimate = { usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false };
    expect(renderCapRefusalText(estimate, 12, 4, { dir: 'suite' }, 3)).toContain('the estimated cost $0.36 for 12 fixtures, 3 persona scripts and 4 judge calls is above the cost cap $0.10.');
    // Without judge calls the scripts are joined with "and", as in the comment (the terminal said "12 fixtures, 1 persona script").
    expect(renderCapRefusalText(estimate, 12, 0, { dir: 'suite' }, 1)).toContain('for 12 fixtures and 1 persona script is above');
  });
});

describe('expect.reply checks in every surface', () => {
  const reply = (expected: { contains: string; turn: number | 'last' | 'any' } | { regex: string; flags: string; turn: number | 'last' | 'any' }, status: 'pass' | 'fail', detail: string, turn: number | null) =>
    ({ kind: 'reply', expected, observed: null, turn, status, detail }) as const;
  const p = persona('reply-checks', {
    verdict: 'fail',
    drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
    checks: [reply({ contains: '30 days', turn: 'any' }, 'pass', 'turn 1: reply contains "30 days"', 1), reply({ regex: 'a|b', flags: 'i', turn: 3 }, 'fail', 'turn 3 was not sent: the conversation ended at turn 2', null)],
  });
  const r = run([], { personas: [p] });

  it('the comment shows each as a row of the checks table, the pattern escaped', () => {
    const md = renderComment(r, ctx);
    const rows = checkRows(itemHtml(githubHtml(md), 'reply-checks'));
    expect(rows).toEqual([
      ['✅', 'reply (pass)', 'contains "30 days", any turn', 'turn 1: reply contains "30 days"'],
      ['❌', 'reply (fail)', 'matches /a|b/i, turn 3', 'turn 3 was not sent: the conversation ended at turn 2'],
    ]);
  });

  it('the terminal names the check and what it wanted', () => {
    const t = renderTerminal(r, { color: false });
    expect(t).toContain('reply matches /a|b/i, turn 3 (fail): not sent: the conversation ended at turn 2');
  });

  it('the HTML report data names them the same way', () => {
    const data = personaData(p);
    expect(JSON.stringify(data)).toContain('reply matches /a|b/i, turn 3');
  });
});

describe("a check on the welcome turn names it 'turn 0 (welcome)' on every surface, from the check's own fields (results.json keeps 'turn 0: ...')", () => {
  it('a reply check on turn 0, a tool called there, a turn 0 the agent never had and a turn not sent after the welcome', async () => {
    const turns = refundTurns().map((t) => (t.index === 0 ? { ...t, toolCalls: [toolCall('greet', {}, null)] } : t));
    const missing = async (): Promise<{ verdict: 'fail'; detail: string }> => ({ verdict: 'fail', detail: 'reply does not contain "Kettle Bot"' });
    const onWelcome = await replyCheck({ contains: 'Kettle Bot', turn: 0 }, turns, 'complete', missing);
    const greeted = toolCheck('toolNotCalled', { tool: 'greet', match: 'subset' }, turns);
    const noWelcome = await replyCheck({ contains: 'Kettle Bot', turn: 0 }, turns.slice(1), 'complete', missing);
    const ended = await replyCheck({ contains: 'Kettle Bot', turn: 2 }, turns.slice(0, 1), 'ended', missing);
    // What results.json keeps: the words written when the check ran.
    expect([onWelcome, greeted, noWelcome, ended].map((c) => c.detail)).toEqual([
      'turn 0: reply does not contain "Kettle Bot"',
      'greet must not be called, but was at turn 0',
      'turn 0 was not sent: the agent has no welcome turn',
      'turn 2 was not sent: the conversation ended at turn 0',
    ]);
    const script = persona('welcome-checks', { turns, checks: [onWelcome, greeted, noWelcome, ended], verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } });
    const record = run([], { personas: [script] });
    const shown = [
      'turn 0 (welcome): reply does not contain "Kettle Bot"',
      'greet must not be called, but was at turn 0 (welcome)',
      'turn 0 (welcome) was not sent: the agent has no welcome turn',
      'turn 2 was not sent: the conversation ended at turn 0 (welcome)',
    ];
    const terminal = renderTerminal(record, { color: false });
    // The terminal says a reply check's turn once, in its subject, and the welcome turn there so that
    // its result's bracket does not follow the name's: "turn 0 (welcome) (fail)".
    expect(terminal).toContain('✗ reply contains "Kettle Bot", turn 0, the welcome (fail): reply does not contain "Kettle Bot"');
    expect(terminal).toContain(`tool not called greet (fail): ${shown[1]}`);
    expect(terminal).toContain('✗ reply contains "Kettle Bot", turn 0, the welcome (fail): not sent: the agent has no welcome turn');
    expect(terminal).not.toContain('(welcome) (');
    expect(terminal).toContain('✗ reply contains "Kettle Bot", turn 2 (fail): not sent: the conversation ended at turn 0 (welcome)');
    const junit = decodeEntities(renderJUnit(record));
    const comment = visibleText(githubHtml(renderComment(record, ctx)));
    const html = personaData(script);
    for (const words of shown) {
      expect(junit).toContain(words);
      expect(html.checks.map((c) => c.detail)).toContain(words);
    }
    // The comment's table says a tool check by what it observed: the call's turn.
    for (const words of [shown[0], 'called on turn 0 (welcome)', shown[2], shown[3]]) expect(comment).toContain(words);
    expect(html.checks.map((c) => c.observed)).toContain('called on turn 0 (welcome)');
    for (const out of [junit, comment]) expect(out).not.toMatch(/turn 0(?! \(welcome\))/);
    expect(terminal).not.toMatch(/turn 0(?! \(welcome\)|, the welcome \()/);
  });
});

describe("a script's line in the comment, its error cut at its first line break", () => {
  // The cut says so: "…", then what closes each bracket and quote the first line left open (docs/traces.md, "Errors").
  const error = 'turn 1: the agent reported an error (exception): failed (code: 500\n details)';
  const cut = 'turn 1: the agent reported an error (exception): failed (code: 500\u2026)';

  it("a repeated script that failed because attempts errored: the named attempt's error, the bracket closed", () => {
    const base = persona('refund-chat') as PersonaRecord & { errored: false };
    const one = { unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 };
    const down = { ...one, errored: true, error, errorKind: 'agent_error' as const, verdict: null, turns: base.turns.slice(0, 2) };
    const ok = { ...one, errored: false, error: null, errorKind: null, verdict: 'pass' as const, turns: base.turns };
    const script = { ...base, verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' }, repeat: { count: 5, minPass: 3, passed: 2, flaky: true }, attempts: [down, down, down, ok, ok] } as PersonaRecord;
    const md = renderComment(run([], { personas: [script] }), ctx);
    expect(md).toContain(`<br>2/5 attempts passed (minPass 3), 3 errored, flaky; attempt 1: ${cut}</summary>`);
  });
});
