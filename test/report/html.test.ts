// report.html as text: self-contained (nothing external, CSP hashes right), data block escaped,
// deterministic, reasonable in size for a 5,000-item run; and written by the CLI and the Action.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OPEN_ROWS, renderHtml } from '../../src/report/html.js';
import { FULL_PAGE_TEXT_CHARS, fixtureData, itemsData, personaData, MAX_PAGE_TEXT_CHARS, scriptJson, sideBySide, type FixtureData, type PersonaData } from '../../src/report/html/data.js';
import { SCRIPT } from '../../src/report/html/assets.js';
import { trendSvg } from '../../src/report/html/chart.js';
import type { Check, PersonaRecord } from '../../src/types.js';
import { replyDiffs } from '../../src/report/diff.js';
import { thousands } from '../../src/words.js';
import { docsUrl } from '../../src/version.js';
import { renderComment } from '../../src/report/markdown.js';
import { baseline, check, ctx, decisiveScript, fixture, hostile, many, mixed, persona, personaBaseline, personaScripts, refundTurns, route, run, toolCall } from './fixtures.js';

function between(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start + open.length, html.indexOf(close, start + open.length));
}

describe('renderHtml', () => {
  it('is self-contained: one inline script and stylesheet, both allowed by their hash, nothing to load', () => {
    const html = renderHtml({ ...mixed(), personas: personaScripts() });
    const csp = between(html, '<meta http-equiv="Content-Security-Policy" content="', '"');
    const script = between(html, '<script>', '</script>');
    const style = between(html, '<style>', '</style>');
    const hash = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    expect(csp).toBe(`default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src 'none'; base-uri 'none'; form-action 'none'`);
    // The policy comes before anything it governs.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toMatch(/\ssrc=|<link|@import|url\(|https?:\/\/(?!github\.com)/);
  });

  it("makes no capital of its own: the page's sentences come from the data, capitalized by the product's one rule (words.ts)", () => {
    const script = between(renderHtml(mixed()), '<script>', '</script>');
    expect(script).not.toMatch(/toUpperCase|toLocaleUpperCase/);
  });

  it('embeds the data as JSON that cannot end its element: < > & U+2028 U+2029 escaped, parsed back unchanged', () => {
    const value = { s: '</script><!-- & \u2028\u2029 <script>', n: null, list: [null, 1] };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ s: value.s, list: [null, 1] }); // null members left out
    const html = renderHtml(hostile());
    const data = between(html, '<script type="application/json" id="ar-data">', '</script>');
    expect(data).not.toMatch(/[<>&\u2028\u2029]/);
    const parsed = JSON.parse(data) as { items: Array<{ label?: string }> };
    expect(parsed.items).toHaveLength(hostile().fixtures.length);
  });

  it('drops control characters and bidi overrides from every string of the data block, as from the markup', () => {
    // A route and a tool call come from the agent, a persona tag and a criterion from the pull request's files.
    const rlo = (s: string): string => `${s}\u202Eevil\u202C\u2066x\u2069\u0007`;
    const f = fixture('tagged', { persona: rlo('admin'), route: route(rlo('refunds'), rlo('policy')), assertion: { kind: 'contains', value: rlo('ok') } });
    const p = persona('script', {
      persona: rlo('tag'),
      turns: [{ ...refundTurns()[1]!, route: route(rlo('main'), 'x'), toolCalls: [toolCall(rlo('find_order'), { id: rlo('1') }, { ok: rlo('yes') })] }],
      checks: [check.criterion(rlo('Polite'), 0.9, rlo('fine'))],
    });
    const html = renderHtml(run([f], { personas: [p] }));
    const data = between(html, '<script type="application/json" id="ar-data">', '</script>');
    const strings: string[] = [];
    JSON.parse(data, (_k, v: unknown) => (typeof v === 'string' && strings.push(v), v));
    expect(strings.join('\n')).toContain('adminevilx');
    // eslint-disable-next-line no-control-regex
    expect(strings.filter((s) => /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(s))).toEqual([]);
  });

  it('escapes every text in the markup: no tag or attribute from the data', () => {
    const html = renderHtml(hostile());
    const markup = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(markup).not.toMatch(/<(?!\/?(?:html|head|meta|title|style|body|div|header|h1|h2|h3|p|b|section|span|details|summary|nav|fieldset|legend|label|input|main|svg|rect|table|thead|tbody|tr|th|td|ul|li|code|a|wbr|!doctype)[\s>/])/i);
    expect(markup).toContain('&lt;');
    expect(markup).not.toContain('\u202E');
  });

  it('opens at most OPEN_ROWS rows of each section that needs attention, and says how many more there are', () => {
    const failing = Array.from({ length: OPEN_ROWS + 5 }, (_, i) =>
      fixture(`nf-${i}`, { verdict: 'fail', reply: 'new', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' }, baseline: baseline(`nf-${i}`, 'old') }),
    );
    const html = renderHtml(run([...failing, fixture('fine')]));
    expect(html.match(/<details class="item"[^>]* open>/g)).toHaveLength(OPEN_ROWS);
    expect(html).toContain(`The first ${OPEN_ROWS} are open; click a row to open the other 5.`);
    // The unchanged fixture comes after the numbers, closed.
    expect(html.indexOf('data-section="unchanged"')).toBeGreaterThan(html.indexOf('class="cards"'));
  });

  it("names the suite under the heading and in the title when the context names one, escaped: two suites' reports are told apart", () => {
    const context = { repositoryUrl: 'https://github.com/octo/shop', headSha: 'a'.repeat(40) };
    const named = renderHtml(mixed(), { context: { ...context, suite: 'apps/sales/.agent-replay' } });
    expect(named).toContain('<h1>agent-replay report</h1>\n<p class="meta suite">Suite <code>apps/sales/.agent-replay</code></p>');
    expect(between(named, '<title>', '</title>')).toMatch(/^agent-replay · apps\/sales\/\.agent-replay · /);
    expect(renderHtml(mixed(), { context: { ...context, suite: 'x/<b>y</b>' } })).toContain('Suite <code>x/&lt;b&gt;y&lt;/b&gt;</code>');
    expect(renderHtml(mixed(), { context })).not.toContain('Suite <code>');
  });

  it('is the same page for the same record (pure)', () => {
    expect(renderHtml(mixed())).toBe(renderHtml(mixed()));
  });

  it('diffs side by side from the sentence diff: unchanged sentences on both sides, changed words marked', () => {
    const d = sideBySide('One. Two is here. Three.', 'One. Two was here. Three. Four.');
    expect(d).toEqual({
      whitespaceOnly: false,
      rows: [
        { same: ['One.'] },
        { a: [['Two ', 0], ['is', 1], [' here.', 0]], b: [['Two ', 0], ['was', 1], [' here.', 0]] },
        { same: ['Three.'] },
        { a: null, b: [['Four.', 0]] },
      ],
    });
  });

  it('says what ⟨U+…⟩ means under a side-by-side diff that shows one, as the comment does above its diff, and only then', () => {
    const named = sideBySide('Hello world.', 'Hello\u200b world.');
    expect(named?.legend).toBe('⟨U+…⟩ a character you cannot see, a look-alike from another script or one of these marks, by its code');
    // A look-alike in an unchanged sentence is named too, and shown beside the change.
    expect(sideBySide('Pay at p\u0430ypal.com. Thanks.', 'Pay at p\u0430ypal.com. Thank you.')?.legend).toBeDefined();
    expect(sideBySide('Hello world.', 'Hello there.')).not.toHaveProperty('legend');
  });

  it('keeps a 5,000-item run reasonable: rows in the markup, replies only in the data, under 8 MB', () => {
    const html = renderHtml(many(5000));
    const bytes = Buffer.byteLength(html);
    expect(bytes).toBeLessThan(8_000_000);
    expect(html.match(/<details class="item"/g)).toHaveLength(5000);
    // No reply is drawn until its row is opened.
    expect(html.match(/<div class="body"><\/div>/g)).toHaveLength(5000);
  });
});

describe('a page of many long replies', () => {
  it('holds the worst items whole and clips the rest once the page is full, saying so, without diffing them', () => {
    const reply = (i: number, word: string): string => Array.from({ length: 40 }, (_, k) => `Sentence ${i}-${k} says the parcel ${word} soon.`).join(' ');
    const items = Array.from({ length: 6 }, (_, i) =>
      fixture(`long-${i}`, { verdict: 'fail', reply: reply(i, 'shipped'), baseline: baseline(`long-${i}`, reply(i, 'ships')), drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } }),
    );
    const before = replyDiffs.count;
    // Room for the texts and diffs of about two of them.
    const data = itemsData(items, 2 * 2 * reply(0, 'shipped').length) as FixtureData[];
    const diffed = data.filter((d) => d.diff !== null).length;
    expect(diffed).toBeGreaterThanOrEqual(1);
    expect(diffed).toBeLessThan(4);
    expect(replyDiffs.count - before).toBe(diffed);
    for (const d of data.slice(diffed)) {
      expect(d.diff).toBeNull();
      expect(d.diffNote).toBe(`not diffed: this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text, and the whole replies are in results.json`);
      expect(d.reply).toMatch(new RegExp(`^[^\\n]{${FULL_PAGE_TEXT_CHARS}}\\n\\[clipped: the first ${FULL_PAGE_TEXT_CHARS} of \\d{1,3}(?:,\\d{3})+ characters; this page holds about [\\d,]+ characters of text, and the whole text is in results\\.json\\]$`));
      expect(d.baseline?.reply).toContain(`[clipped: the first ${FULL_PAGE_TEXT_CHARS} of `);
    }
    // A page with room for everything is as before.
    expect(itemsData(items).every((d) => (d as FixtureData).diff !== null)).toBe(true);
  });
});

describe('the "changed" filter', () => {
  it('counts and marks exactly the items of the Changed section (newly passing in, failing items out)', () => {
    const record = run([
      fixture('newly-passing', { drift: { reply: 'same', route: 'same', verdict: 'newly_passing' }, baseline: baseline('newly-passing', 'Reply for newly-passing.', 'fail') }),
      fixture('reworded', { drift: { reply: 'different', route: 'same', verdict: 'still_passing' } }),
      fixture('broken', { verdict: 'fail', detail: 'no', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } }),
      fixture('same'),
    ]);
    const html = renderHtml(record);
    const chip = /<input type="radio" name="drift" value="changed"><span>([^<]*) <b>(\d+)<\/b>/.exec(html);
    expect(chip?.[1]).toBe('changed');
    expect(chip?.[2]).toBe('2');
    const marked = [...html.matchAll(/data-changed="1" data-label="([^"]*)"/g)].map((m) => m[1]).sort();
    expect(marked).toEqual(['newly-passing', 'reworded']);
  });
});

describe("a persona script's turn whose reply is not diffed", () => {
  it('says it differs from the baseline, and why it is not diffed', () => {
    const long = Array.from({ length: 600 }, (_, k) => `Sentence ${k} says the parcel ships soon.`).join(' ');
    const was = refundTurns();
    const now = was.map((t) => (t.index === 2 ? { ...t, reply: long.replace('ships', 'shipped') } : t));
    const script = persona('long-turn', { turns: now, baseline: personaBaseline('long-turn', was.map((t) => (t.index === 2 ? { ...t, reply: long } : t))) });
    const turns = (itemsData([script])[0] as PersonaData).turns;
    expect(turns[2]?.baseline?.diff).toBeNull();
    expect(turns[2]?.baseline?.diffNote).toBe("not diffed (a reply is longer than 20,000 characters); the baseline's reply is in results.json");
    // A turn that is diffed needs no note.
    expect(turns[1]?.baseline).toBeNull();
    expect(SCRIPT).toContain(`"The reply differs from the baseline's: " + t.baseline.diffNote`);
  });

  it("a repeated script's decisive turn says why it is not diffed against the shown attempt's", () => {
    const { script } = decisiveScript(() => 'failed');
    const long = Array.from({ length: 600 }, (_, k) => `Sentence ${k} says refunds take 90 days.`).join(' ');
    const attempts = script.attempts?.map((a, i) => (i === 1 ? { ...a, turns: a.turns.map((t, k) => (k === a.turns.length - 1 ? { ...t, reply: long } : t)) } : a));
    const turn = (itemsData([{ ...script, attempts } as PersonaRecord])[0] as PersonaData).decisive?.turn;
    expect(turn?.diff).toBeNull();
    expect(turn?.note).toBe('a reply is longer than 20,000 characters');
    expect(SCRIPT).toContain(`"'s (not diffed: " + (t.note || 'too long') + ')'`);
  });
});

describe("a persona script's row", () => {
  it('names its checks as the comment does: the check in words, how many more did not pass', () => {
    const script = persona('final-sale', {
      verdict: 'fail',
      checks: [check.toolNotCalled('issue_refund', [{ turn: 3, input: { orderId: '7788' } }]), check.terminal('handoff', 'finish'), check.terminal('finish', 'finish')],
    });
    const why = /<span class="why">([^<]*)<\/span>/.exec(renderHtml(run([], { personas: [script] })))?.[1];
    expect(why).toBe('1 of 3 checks passed · ❌ tool not called (fail): issue_refund must not be called, but was at turn 3 · and 1 more');
  });
});

describe("a row's why line cut at its error's first line break", () => {
  it('says it was cut, closing the bracket the cut left open: "failed (code: 500…)", for a fixture and a persona script', () => {
    const error = 'turn 1: the agent reported an error (exception): failed (code: 500\n details)';
    const item = fixture('boom', { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'agent_error', detail: '', drift: null });
    const script = persona('final-sale', { turns: refundTurns().slice(0, 1), errored: true, errorKind: 'agent_error', error, verdict: null, drift: null, unsent: [] });
    const whys = [...renderHtml(run([item], { personas: [script] })).matchAll(/<span class="why">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(whys).toEqual(['turn 1: the agent reported an error (exception): failed (code: 500\u2026)', 'turn 1: the agent reported an error (exception): failed (code: 500\u2026)']);
  });

  it("a script's check whose detail is cut at its line break, in the row and in the comment's item line", () => {
    const script = persona('final-sale', { verdict: 'fail', checks: [{ ...check.terminal('handoff', 'finish'), detail: 'expected (handoff\n got finish)' }] });
    const item = fixture('refund', { verdict: 'fail', detail: 'reply does not contain "refund (within\n 30 days)"', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } });
    const record = run([item], { personas: [script] });
    const whys = [...renderHtml(record).matchAll(/<span class="why">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(whys).toEqual(['reply does not contain &quot;refund (within\u2026&quot;', '0 of 1 checks passed · ❌ ends with (fail): expected (handoff\u2026)']);
    // The comment's item line: it read `reply does not contain "refund (within …`, the quote left open.
    expect(renderComment(record, ctx)).toContain('<br>reply does not contain &quot;refund (within\u2026&quot;</summary>');
  });
});

describe("a row's file", () => {
  it('is linked outside its <summary> (a link inside a control is mishandled by the keyboard and screen readers): the summary shows it as text, the open row links it', () => {
    const context = { repositoryUrl: 'https://github.com/octo/shop', headSha: 'a'.repeat(40) };
    const html = renderHtml(run([fixture('refund-policy')], { personas: [persona('final-sale')] }), { context });
    const rows = [...html.matchAll(/<details class="item"[^>]*><summary>([\s\S]*?)<\/summary>([\s\S]*?)<\/details>/g)];
    expect(rows).toHaveLength(2);
    for (const [, summary, rest] of rows) {
      expect(summary).not.toMatch(/<a[ >]|<button|<input/);
      const shown = /<span class="file">([^<]*)<\/span>/.exec(summary ?? '')?.[1];
      expect(shown).toMatch(/\.yml:\d+$/);
      expect(rest).toMatch(new RegExp(`^<p class="src"><a class="file" href="https://github\\.com/octo/shop/blob/a{40}/[^"]+#L\\d+" rel="noreferrer noopener">${shown?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</a></p><div class="body"></div>$`));
    }
    // Without a repository URL the file is text in the summary alone, as before.
    expect(renderHtml(run([fixture('refund-policy')]))).not.toContain('class="src"');
  });

  it("links the address the comment links, a name with ( ) ' ! * in it included", () => {
    const context = { repositoryUrl: 'https://github.com/octo/shop', headSha: 'a'.repeat(40) };
    const item = fixture('odd', { file: ".agent-replay/fixtures/refunds (old)'s!*.yml", line: 4 });
    const href = /<a class="file" href="([^"]+)"/.exec(renderHtml(run([item]), { context }))?.[1];
    const commentHref = /\]\((https:\/\/github\.com\/octo\/shop\/blob\/[^)\s]+)\)/.exec(renderComment(run([item]), { ...ctx, ...context }))?.[1];
    expect(href).toBe(`https://github.com/octo/shop/blob/${'a'.repeat(40)}/.agent-replay/fixtures/refunds%20%28old%29%27s%21%2A.yml#L4`);
    expect(href).toBe(commentHref);
  });

  it("a docs address in a row's why line is its label in the summary, not a link: the opened row links it", () => {
    const error = `agent returned HTTP 500: see ${docsUrl('traces.md', 'Fixtures')}`;
    const html = renderHtml(run([fixture('boom', { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'http', detail: error, drift: null })]));
    const [, summary, rest] = /<details class="item"[^>]*><summary>([\s\S]*?)<\/summary>([\s\S]*?)<\/details>/.exec(html) ?? [];
    expect(summary).not.toContain('<a');
    expect(summary).toContain('<span class="why">agent returned HTTP 500: see docs/traces.md#fixtures</span>');
    expect(rest).toBe('<div class="body"></div>');
  });
});

describe("report.html's tables for a screen reader", () => {
  it('names every column it draws, or hides it with its cells: the agreement tables\' bar, which draws the figure beside it', () => {
    const html = renderHtml(mixed());
    const heads = [...html.matchAll(/<th([^>]*)>([^<]*)<\/th>/g)];
    expect(heads.some(([, attrs]) => attrs?.includes('class="bar"'))).toBe(true);
    for (const [, attrs, name] of heads) expect(name !== '' || attrs?.includes('aria-hidden="true"')).toBe(true);
    // Each bar's cell is hidden with its heading, so that the row's other cells keep their headings.
    const bars = [...html.matchAll(/<td([^>]*)><svg class="bar"/g)];
    expect(bars.length).toBeGreaterThan(0);
    for (const [, attrs] of bars) expect(attrs).toBe(' aria-hidden="true"');
  });

  it("heads the attempts table's first column 'attempt', not '#' (read 'number sign')", () => {
    expect(SCRIPT).toContain("heads(t, ['attempt', 'outcome', 'why', what]);");
    expect(SCRIPT).not.toMatch(/heads\(t, \[[^\]]*'#'/);
  });
});

describe('JSON in the data is written as the comment, the terminal and JUnit write it (assertions/format.ts, jsonText)', () => {
  it("a fixture's assertion and tool calls, a script's checks and its turns' calls: `{\"orderId\": \"1234\"}`, never the compact form", () => {
    const input = { orderId: '1234', items: [1, 2] };
    const shown = '{"orderId": "1234", "items": [1, 2]}';
    const f = fixtureData(
      fixture('refund-call', {
        assertion: { kind: 'toolCalled', tool: 'find_order', input, match: 'exact' },
        toolCalls: [toolCall('find_order', input, { status: 'delivered', note: 'a:b,c' })],
      }),
    );
    expect(f.assertion).toBe(`tool called: find_order ${shown} (exact)`);
    // A colon or comma inside a string stays as written.
    expect(f.toolCalls).toEqual([{ tool: 'find_order', input: shown, output: '{"status": "delivered", "note": "a:b,c"}', mocked: true }]);
    const script = persona('refund-lookup', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' }, checks: [check.toolCalled('find_order', input, [{ turn: 2, input: { orderId: '1234' } }], null)] });
    const p = personaData(script);
    expect(p.checks[0]).toMatchObject({ expected: `find_order ${shown} (subset)`, observed: 'other inputs only: turn 2 {"orderId": "1234"}' });
    expect(p.turns[2]?.toolCalls?.[0]).toMatchObject({ input: '{"orderId": "1234"}', output: '{"status": "delivered", "item": "kettle"}' });
    // The comment's checks table writes the same expectation in the same form.
    expect(renderComment(run([], { personas: [script] }), ctx)).toContain(`\`${shown}\``);
  });
});

describe("a cause's fix is said whole (docs/troubleshooting.md, \"Not evaluated\")", () => {
  it('the cause under the headline and its group heading keep a fix of a few hundred characters, which an item detail would clip', () => {
    const fix =
      'check whether the proxy asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), ' +
      'and that the URL in HTTPS_PROXY is its https:// port (http:// for a plain HTTP one), or name agent.test in NO_PROXY to reach it directly';
    const error = `message turn: the proxy https://proxy.corp:3128 (HTTPS_PROXY) answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE), after 1 attempt; ${fix}`;
    const errored = (label: string) => fixture(label, { errored: true, errorKind: 'network', error, reply: null, verdict: null, drift: null });
    const html = renderHtml(run([errored('refund'), errored('hours')]));
    expect(between(html, '<p class="cause"><b>Cause</b>: ', '</p>')).toMatch(new RegExp(`${fix.replace(/[().]/g, '\\$&')}$`));
    expect(between(html, '<h3 class="cause">', '</h3>')).toMatch(new RegExp(`${fix.replace(/[().]/g, '\\$&')}$`));
  });
});

describe('the cards under the first sections say what the comment says', () => {
  it("agreement as items that passed, with what was left out; the passes that checked nothing counted as probes", () => {
    const record = mixed();
    const html = renderHtml(record);
    const comment = renderComment(record, ctx);
    const agree = between(html, '<div class="card agree">', '</div>');
    // The comment's line, "📊 **Agreement 62.5%**: 5 of 8 items passed; ...": the card's words after the figure.
    const basis = /📊 \*\*Agreement [^*]+\*\*: ([^·\n]+)/.exec(comment)?.[1]?.trim() ?? '';
    expect(basis).toBe('5 of 8 items passed; 3 not evaluated and 1 errored left out of the denominator');
    expect(agree).toContain(`<span class="k">agreement: ${basis}</span>`);
    expect(agree).not.toContain('/ (');
    // The comment's tally cell "5 (1 probe)": the card says the same count of probes.
    expect(comment.replaceAll('\u00a0', ' ')).toMatch(/\| 5 \(1 probe\) \|/);
    expect(between(html, '<div class="card pass">', '</div>')).toBe('<span class="n">5</span><span class="k">passed (1 probe)</span>');
  });
});

describe("the agreement panel's groups", () => {
  it('names the file group "By file", as the comment and the terminal do: a persona script\'s file is one of them', () => {
    const html = renderHtml({ ...mixed(), personas: personaScripts() });
    expect(html).toContain('<summary>By file (');
    expect(html).not.toContain('By fixture file');
    const files = between(html, '<summary>By file (', '</details>');
    expect(files).toContain('.agent-replay/<wbr>personas/<wbr>refunds.yml');
  });
});

describe('the agreement trend', () => {
  it('says in each point\'s tooltip that its counts are of items, in the agreement line\'s words (docs/evaluations.md, "Agreement")', () => {
    // A repeated run's "(8 passed, 2 failed)" beside "Pass rate of attempts" read as attempts.
    const svg = trendSvg([
      { runId: '11', commit: 'a1b2c3d'.padEnd(40, '0'), startedAt: '2026-11-28T10:00:00Z', agreement: { percent: 80, passed: 8, failed: 2, notEvaluated: 0, errored: 1 } },
      { runId: '12', commit: null, startedAt: '2026-11-29T10:00:00Z', agreement: { percent: 100, passed: 1, failed: 0 } },
      { runId: '13', commit: null, startedAt: '2026-11-30T10:00:00Z', agreement: { percent: null, passed: 0, failed: 0 } },
    ]);
    const titles = [...(svg ?? '').matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual([
      'a1b2c3d · 2026-11-28T10:00:00Z · agreement 80% (8 of 10 items passed; 1 errored left out of the denominator)',
      'run 12 · 2026-11-29T10:00:00Z · agreement 100% (1 of 1 item passed)',
      'run 13 · 2026-11-30T10:00:00Z · agreement n/a (nothing passed or failed)',
    ]);
  });

  it("labels a run by its whole id when it fits, else cut visibly with its last digits: never a GitHub run id's first 7 digits", () => {
    // "run 9876543210".slice(0, 11) drew "run 9876543": a wrong number with no sign it was cut.
    const svg = trendSvg([
      { runId: '9876543210', commit: null, startedAt: '2026-11-28T10:00:00Z', agreement: { percent: 80, passed: 8, failed: 2 } },
      { runId: '12345678901', commit: null, startedAt: '2026-11-29T10:00:00Z', agreement: { percent: 90, passed: 9, failed: 1 } },
      { runId: '1234567', commit: null, startedAt: '2026-11-30T10:00:00Z', agreement: { percent: 100, passed: 1, failed: 0 } },
    ]) ?? '';
    const labels = [...svg.matchAll(/<text x="[\d.]+" y="178" class="axis" text-anchor="middle">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['run …543210', 'run …678901', 'run 1234567']);
    // Each label fits the 11 characters the axis is laid out for; the tooltip keeps the id whole.
    for (const l of labels) expect([...(l ?? '')].length).toBeLessThanOrEqual(11);
    expect(svg).toContain('<title>run 9876543210 · ');
  });
});

// A latency budget in the page's "expected" words is grouped as the comment writes it (src/report/persona.ts)
// and as the check's detail does: "at most 3,000 ms a turn", never "3000 ms".
describe('report.html: latency budgets grouped', () => {
  it("a fixture's maxLatencyMs and a script's maxTurnLatencyMs of 1,000 ms or more", () => {
    const f = itemsData([fixture('slow', { assertion: { kind: 'maxLatency', ms: 2500 }, detail: 'latency 3,100 ms, over the budget of 2,500 ms', verdict: 'fail' })])[0] as FixtureData;
    expect(f.assertion).toBe('latency at most 2,500 ms');
    const turnLatency: Check = { kind: 'maxTurnLatency', expected: 3000, observed: 3400, turn: 2, status: 'fail', detail: '1 turn over 3,000 ms: turn 2 3,400 ms' };
    const p = itemsData([persona('slow-script', { checks: [turnLatency], verdict: 'fail' })])[0] as PersonaData;
    expect(p.checks.map((c) => c.expected)).toEqual(['at most 3,000 ms a turn']);
  });
});
