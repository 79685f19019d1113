import { describe, expect, it } from 'vitest';
import {
  cliWords,
  renderCapRefusal,
  renderComment,
  renderJUnit,
  renderMarkdownReport,
  renderSummary,
  renderTerminal,
  utf8Length,
  formatUsd,
  formatUsdPair,
  usdDecimal,
  NOTICE_RESERVE_CHARS,
  type ReportContext,
} from '../../src/report/index.js';
import { allGreen, baseline, ctx, fixture, HOSTILE, hostile, longReplies, many, mixed, mixedMany, mixedWithPersonas, route, run, SHA, toolCall } from './fixtures.js';
import { allCodeBlocks, codeBlocks, count, deepFreeze, expectBalancedTags, expectGolden, githubHtml, outsideCode, structure, toHtml, visibleText } from './helpers.js';
import { thousands } from '../../src/words.js';
import { noticeBlock, type Plan } from '../../src/report/layout.js';
import { buildModel } from '../../src/report/model.js';
import { profile } from '../../src/report/profile.js';
import { replyDiffs } from '../../src/report/diff.js';
import type { Level } from '../../src/report/item-parts.js';
import type { FixtureRecord } from '../../src/types.js';

const acceptanceCtx: ReportContext = {
  ...ctx,
  acceptance: {
    accepted: ['refund-policy', 'polite-refusal', 'opening-hours', 'escalate-angry', 'new-size-guide'],
    refused: [
      { label: 'gift-cards', reason: 'not evaluated: run it again' },
      { label: 'loyalty-points', reason: 'errored: no reply to accept' },
    ],
    skipped: ['welcome-greeting', 'cancel-order', 'still-wrong-currency'],
    commitSha: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
    commitUrl: 'https://github.com/acme/shop-bot/commit/c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
    note: 'Commits made with the workflow token do not start new workflow runs: push an empty commit to compare against the new baselines.',
  },
};

const forkCtx: ReportContext = {
  ...ctx,
  acceptance: {
    ...(acceptanceCtx.acceptance as NonNullable<ReportContext['acceptance']>),
    commitSha: null,
    commitUrl: null,
    note: 'This pull request comes from a fork, which the workflow cannot push to, so nothing was committed. To accept, run these commands in a clone of the fork:',
    commands: "gh run download 9876543210 -R acme/shop-bot -n agent-replay-baselines -D .agent-replay/baselines\ngit add .agent-replay/baselines\ngit commit -m 'Accept agent-replay baselines'\ngit push",
  },
};

const refusedCtx: ReportContext = {
  ...ctx,
  acceptance: {
    accepted: [],
    refused: [
      { label: 'gift-cards', reason: 'not evaluated: run it again' },
      { label: 'loyalty-points', reason: 'errored: no reply to accept' },
    ],
    skipped: ['welcome-greeting'],
    commitSha: null,
    commitUrl: null,
    note: 'Nothing to accept: no commit was made.',
  },
};

describe('golden files', () => {
  it('mixed, baselines not committed (fork)', () => expectGolden('mixed-not-committed.comment.md', renderComment(mixed(), forkCtx)));
  it('mixed, baselines not accepted', () => expectGolden('mixed-not-accepted.comment.md', renderComment(mixed(), refusedCtx)));
  it('multi-paragraph replies', () => expectGolden('long-replies.comment.md', renderComment(longReplies(), ctx)));
  it('600 mixed fixtures', () => expectGolden('mixed-600.comment.md', renderComment(mixedMany(600), ctx)));
  it('all green', () => expectGolden('all-green.comment.md', renderComment(allGreen(), ctx)));
  it('mixed comment', () => expectGolden('mixed.comment.md', renderComment(mixed(), ctx)));
  it('mixed summary', () => expectGolden('mixed.summary.md', renderSummary(mixed(), ctx)));
  it('mixed after acceptance', () => expectGolden('mixed-accepted.comment.md', renderComment(mixed(), acceptanceCtx)));
  it('hostile replies', () => expectGolden('hostile.comment.md', renderComment(hostile(), ctx)));
  it('5,000 fixtures', () => expectGolden('many-5000.comment.md', renderComment(many(5000), ctx)));
  it('cap refusal', () =>
    expectGolden('cap-refusal.md', renderCapRefusal({ usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false }, 12, 4, ctx)));
  it('terminal', () => expectGolden('mixed.terminal.txt', renderTerminal(mixed(), { color: false })));
  it('junit', () => expectGolden('mixed.junit.xml', renderJUnit(mixed())));
});

describe('comment structure (GitHub-flavoured markdown)', () => {
  it('has a tallies table labelled as verdicts, one row per shown tally', () => {
    const green = toHtml(renderComment(allGreen(), ctx));
    const table = green.slice(green.indexOf('<table>'), green.indexOf('</table>'));
    expect(count(table, '<tr>')).toBe(2);
    expect(count(table, /<th[ >]/)).toBe(2);
    expect(count(table, /<td[ >]/)).toBe(2);
    expect(table).toContain('6 fixtures by verdict');

    // One row per verdict, two columns: a column per verdict was wider than a 390 px phone.
    const html = toHtml(renderComment(mixed(), ctx));
    const t = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    expect(count(t, '<tr>')).toBe(5);
    expect(count(t, /<th[ >]/)).toBe(2);
    expect(count(t, /<td[ >]/)).toBe(8);
    expect(t).toContain('not evaluated (not a failure)');
    expect(t).toContain('errored (not a failure)');
    // Each column has a heading: a screen reader reads a count cell with its column's name, "count", not a bare number.
    for (const h of [table, t]) expect([...h.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual([expect.stringMatching(/^\d+ fixtures by verdict$/), 'count']);
  });

  it('hides zero tallies except passed', () => {
    const md = renderComment(run([fixture('a', { verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } })]), ctx);
    expect(md).toContain('| ✅ passed | 0 |\n| ❌ failed | 1 |\n');
    expect(md).not.toContain('errored (not a failure)');
  });

  it('puts every fixture in exactly one section, in the order of docs/semantics.md, and the headline adds up', () => {
    const s = structure(renderComment(mixed(), ctx));
    expect(s.headline).toEqual([
      ['newly failing', 1],
      ['still failing', 2],
      ['changed', 3],
      ['new', 2],
      ['not evaluated', 1],
      ['errored', 1],
      ['unchanged', 2],
    ]);
    expect(s.sections.map((x) => [x.title, x.count])).toEqual([
      ['Newly failing', 1],
      ['Still failing', 2],
      ['Changed', 3],
      ['New, no baseline', 2],
      ['Not evaluated', 1],
      ['Errored', 1],
      ['Unchanged', 2],
    ]);
    const labels = s.sections.flatMap((x) => x.labels);
    expect([...labels].sort()).toEqual(mixed().fixtures.map((f) => f.label).sort());
    // A still-failing fixture is never hidden under unchanged.
    expect(s.sections.find((x) => x.title === 'Still failing')?.labels).toEqual(['escalate-angry', 'still-wrong-currency']);
  });

  it('shows every drift value and verdict in words', () => {
    const md = renderComment(mixed(), ctx);
    for (const words of ['fail · newly failing', 'pass · newly passing', 'pass (probe) · still passing', 'fail · still failing', 'not evaluated · drift unknown', 'not evaluated · no baseline', 'pass · no baseline', 'errored · no reply']) {
      expect(md).toContain(words);
    }
    expect(md).toContain('**Route**: refunds / policy → refunds / exceptions');
    expect(md).toContain('≈ $0.36 estimated (cap $0.10) · ran above the cap: confirmed');
    expect(md).toContain('judge: demo judge \\(not a real model\\)');
  });

  it('says no regressions when all is green', () => {
    const md = renderComment(allGreen(), ctx);
    expect(md).toContain('### ✅ No regressions: 6 unchanged');
    expect(md).toContain('Nothing to accept');
  });

  it('links file references to the head commit and line, showing the base name', () => {
    const html = githubHtml(renderComment(mixed(), ctx));
    const links = [...html.matchAll(/<a href="([^"]*\/blob\/[^"]*)">([^<]*)<\/a>/g)];
    expect(links.length).toBe(12);
    for (const [, href, text] of links) {
      expect(href).toMatch(new RegExp(`^https://github\\.com/acme/shop-bot/blob/${SHA}/\\.agent-replay/fixtures/suite\\.yml#L\\d+$`));
      expect(text).toBe(`suite.yml:${href?.split('#L')[1]}`);
    }
    // Without the repository (the CLI), the path is plain text.
    const plain = renderMarkdownReport(mixed());
    expect(plain).not.toContain('/blob/');
    expect(plain).toContain('<code>.agent-replay/fixtures/suite.yml:10</code>');
  });

  it('shows a multi-line message as a block, not flattened', () => {
    const md = renderComment(longReplies(), ctx);
    expect(md).toContain('**Message**:\n\n```text\nCan I get my money back?\nI bought it three weeks ago.\nThe box is opened.\n```');
    expect(md).not.toContain('⏎');
    expect(md).toContain('**Error**:\n\n```text\nHTTP 500 from the agent:\n&lt;html&gt;'.replace('&lt;', '<').replace('&gt;', '>'));
  });

  it('opens a few newly failing fixtures, so their diff is seen without a click', () => {
    const md = renderComment(mixed(), ctx);
    expect(count(md, /^<details open>/m)).toBe(1);
    expect(md).toMatch(/^<details open><summary>❌ <b>refund-policy<\/b>/m);
    // Many newly failing: all collapsed.
    expect(renderComment(many(100), ctx)).not.toContain('<details open>');
  });

  it('balances <details> in every rendering', () => {
    for (const md of [renderComment(mixed(), ctx), renderComment(hostile(), ctx), renderComment(many(500), ctx), renderComment(mixed(), acceptanceCtx)]) {
      const html = githubHtml(md);
      expect(count(html, /<details[ >]/)).toBe(count(html, /<\/details>/));
      expect(count(md, /^<details[ >]/m)).toBe(count(md, /^<\/details>$/m));
    }
  });
});

describe('real size: multi-paragraph replies and 600 mixed fixtures, as GitHub renders them', () => {
  const cases: [string, () => string, number][] = [
    ['long replies', () => renderComment(longReplies(), ctx), 6],
    ['600 mixed fixtures', () => renderComment(mixedMany(600), ctx), 600],
    ['5,000 fixtures', () => renderComment(many(5000), ctx), 5000],
  ];

  it.each(cases)('%s: sections add up, links point at the head commit, nothing leaks, lines and size fit', (_name, render, total) => {
    const md = render();
    expect(md.length).toBeLessThanOrEqual(65_536);
    const html = githubHtml(md);
    const s = structure(md);
    // The headline's counts are the sections' counts, in order, and add up to every fixture.
    expect(s.headline.reduce((n, [, c]) => n + c, 0)).toBe(total);
    expect(s.sections.map((x) => x.count)).toEqual(s.headline.map(([, c]) => c));
    // Each section accounts for its count: items in full + rows of its table + the counted rest.
    for (const x of s.sections) expect(x.labels.length + x.counted).toBe(x.count);
    expect(new Set(s.sections.flatMap((x) => x.labels)).size).toBe(s.sections.reduce((n, x) => n + x.labels.length, 0));
    for (const [, href] of html.matchAll(/<a href="([^"]*\/blob\/[^"]*)"/g)) {
      expect(href).toMatch(new RegExp(`^https://github\\.com/acme/shop-bot/blob/${SHA}/.+#L\\d+$`));
    }
    const text = visibleText(html);
    expect(text).not.toContain('**');
    expect(text).not.toContain('```');
    expect(text).not.toMatch(/<\/?(details|summary)>/);
    for (const block of allCodeBlocks(html)) for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('600 mixed fixtures: at most 10 in full per section, the rest listed, and a notice under the headline', () => {
    const md = renderComment(mixedMany(600), ctx);
    const s = structure(md);
    for (const x of s.sections) expect(x.full).toBeLessThanOrEqual(10);
    const notice = md.split('\n\n')[2] as string;
    expect(notice).toMatch(/^> ✂️ Shown in detail: 10 of 50 newly failing, 10 of 50 still failing, 10 of 150 changed/);
    // The table is said of the sections that have one; new, not evaluated and errored have none left (only counted).
    // The rows fill what the items in full leave: 99, each item's file said in its summary and linked in its body.
    expect(notice).toContain('; 40 more newly failing, 40 more still failing and 99 more changed are listed by name only, in a table at the end of their section. 41 changed, 40 new, 40 not evaluated, 40 errored and 200 unchanged are only counted');
    expect(md).not.toMatch(/replies above/);
    expect(md).toContain('Review them first: only');
  });
});

describe('hostile agent text stays inert', () => {
  const md = renderComment(hostile(), ctx);
  const html = toHtml(md);

  it('injects no HTML tags', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    // The only <b> tags are ours, around the labels of the items shown in full.
    expect(count(html, '<b>')).toBe(count(html, /<details(?: open)?><summary>\S+ <b>/));
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  it('creates no links, images, headings or emphasis', () => {
    const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop-bot\//);
    expect(html).not.toMatch(/<a [^>]*evil/);
    expect(html).not.toMatch(/<h[12]>/);
    expect(html).not.toContain('<strong>bold</strong>');
    expect(html).not.toContain('<em>em</em>');
  });

  it('mentions nobody, references no issue and draws no emoji outside code, with word joiners only', () => {
    const visible = outsideCode(html);
    expect(visible).not.toMatch(/@someone|@admin|@judge/);
    expect(visible).not.toMatch(/#123|#7\b|GH-45/);
    expect(outsideCode(githubHtml(md))).not.toContain(':smile:');
    // A word joiner never lets the line break where a reference was broken; no zero-width space.
    expect(md).not.toMatch(/&#8203;|\u200b/);
  });

  it('keeps each reply inside its own code block, long lines wrapped', () => {
    const blocks = codeBlocks(githubHtml(md));
    for (const block of blocks) for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    // Wrapped at a space: joining the continuation lines gives the text back.
    const unwrapped = blocks.map((b) => b.replace(/\n↪ /g, ' '));
    // eslint-disable-next-line no-control-regex
    const reply = HOSTILE.replace(/\u001b|\u0007|\u202e/g, '');
    expect(unwrapped).toContain(`${reply}\n`);
    expect(unwrapped).toContain(`Old ${reply} reply\n`);
    expect(unwrapped).toContain(`Say something nasty ${reply}\n`);
  });

  it('keeps one hidden comment per metadata line', () => {
    const visible = outsideCode(html);
    expect(count(visible, '<!--')).toBe(2);
    expect(count(visible, '-->')).toBe(2);
    expect(md.split('\n').slice(0, 2).every((l) => l.startsWith('<!-- agent-replay:'))).toBe(true);
  });

  it('keeps the tallies table intact', () => {
    const t = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    // One row per verdict shown: passed, failed, errored, each its label and its count.
    expect(count(t, '<td')).toBe(6);
    expect(count(t, '<tr>')).toBe(4);
  });

  it('writes well-formed JUnit', () => {
    const xml = renderJUnit(hostile());
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).not.toContain('<script');
    expect(count(xml, '<testcase ')).toBe(4);
    expect(count(xml, '<failure ')).toBe(2);
    expect(count(xml, '<error ')).toBe(1);
    expectBalancedTags(xml);
    expect(xml).toMatch(/classname="\.agent-replay\/fixtures\/we\|ird`name\.yml"/);
  });

  it("gives each JUnit test case its item's file and line, where the viewers that annotate a pull request look", () => {
    // mikepenz/action-junit-report and EnricoMi/publish-unit-test-result-action read the test case's
    // `file` and `line`; without them the first took the classname's last dot-part, "yml", for the file.
    const record = mixedWithPersonas();
    const xml = renderJUnit(record);
    const cases = xml.match(/<testcase [^>]*>/g) ?? [];
    const items = [...record.fixtures, ...(record.personas ?? [])];
    expect(cases).toHaveLength(items.length);
    for (const [i, item] of items.entries()) {
      expect(cases[i]).toBe(`<testcase classname="${item.file}" name="${item.label}" file="${item.file}" line="${item.line}" time="${(item.durationMs / 1000).toFixed(3)}"${cases[i]!.endsWith('/>') ? '/>' : '>'}`);
    }
    expect(renderJUnit(hostile())).toMatch(/<testcase classname="\.agent-replay\/fixtures\/we\|ird`name\.yml" name="[^"]+" file="\.agent-replay\/fixtures\/we\|ird`name\.yml" line="\d+"/);
  });

  it("counts JUnit's skipped items on the suite, not on <testsuites>, whose schemas have no such attribute", () => {
    // Jenkins' xUnit plugin validates against its junit-10.xsd, where <testsuites> takes name, time, tests, failures, disabled and errors.
    const xml = renderJUnit(mixed());
    expect(xml).toContain('\n<testsuites name="agent-replay" tests="12" failures="3" errors="1" time="12.345">\n');
    expect(xml).toContain('\n  <testsuite name="agent-replay" tests="12" failures="3" errors="1" skipped="3" time="12.345" timestamp="2026-12-01T09:00:00.000Z">\n');
  });

  it('keeps ANSI escapes out of the terminal', () => {
    const text = renderTerminal(hostile(), { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    for (const line of text.split('\n')) expect(line).not.toContain('\r');
  });
});

describe("a judge's fix in the terminal", () => {
  it("names the CLI's flag where the judge's reason names the Action's input (cliWords); the comment keeps the input", () => {
    const reason = 'judge gave no usable answer: it answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER): the server speaks plain HTTP at that address, not HTTPS: write the URL with http:// in judge-base-url (judge.baseUrl)';
    const record = run([
      fixture('gift-cards', {
        assertion: { kind: 'judge', criterion: 'Explains how gift cards work.', threshold: 0.7 },
        reply: 'Gift cards never expire.',
        verdict: 'not_evaluated',
        detail: reason,
        drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' },
      }),
    ]);
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain('    judge gave no usable answer: it answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER): the server speaks plain HTTP at that address, not HTTPS: write the URL with http:// in --judge-url (judge.baseUrl)\n');
    expect(terminal).not.toContain('judge-base-url');
    expect(renderComment(record, ctx)).toContain('write the URL with http:// in judge-base-url (judge.baseUrl)');
  });
});

describe("the agent's URL in the terminal's fixes", () => {
  it('is named in one form, the flag then config.yml\'s key, whatever fix names it (cliWords)', () => {
    const fixes = [
      'HTTP 404 from https://host/api/chat: check agent-path or agent.url: the path is probably wrong',
      'the connection failed; check that the URL in agent-url (agent.url) is right',
      'Check that the preview deployed and that the agent URL is right, or raise wait-for-agent (agent.waitForAgent) if it starts slowly.',
    ].map(cliWords);
    expect(fixes).toEqual([
      'HTTP 404 from https://host/api/chat: check --agent-url (agent.url): the path is probably wrong',
      'the connection failed; check that the URL in --agent-url (agent.url) is right',
      'Check that the agent is running and that --agent-url (agent.url) is right, or raise --wait-for-agent (agent.waitForAgent) if it starts slowly.',
    ]);
  });
});

describe("an error's fix in the terminal, past its 300 characters", () => {
  const fix = 'check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in agent-url (agent.url) is its https:// port (http:// for a plain HTTP one)';
  const errored = (label: string, error: string): FixtureRecord =>
    fixture(label, { reply: null, route: null, verdict: null, errored: true, errorKind: 'network', error, detail: error, drift: null } as Partial<FixtureRecord>);

  it('is kept whole on the line of the text items share, only what happened clipped (assertions/format.ts, clipKeepingFix)', () => {
    const error = `the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); ${fix}`;
    expect(error.length).toBeGreaterThan(300);
    const terminal = renderTerminal(run([errored('a', error), errored('b', error)]), { color: false });
    // Whole, in the CLI's words (cliWords), however long.
    expect(terminal).toContain(`    each: ${error.replace('agent-url (agent.url)', '--agent-url (agent.url)')}\n`);
    // What happened past 300 characters is clipped, the fix still whole after it.
    const long = `the agent answered the TLS handshake with an alert, after 1 attempt: ${'handshake failure '.repeat(20).trim()} (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); ${fix}`;
    const clipped = renderTerminal(run([errored('a', long), errored('b', long)]), { color: false });
    expect(clipped).toMatch(/ {4}each: the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure[a-z ]*\u2026; check whether the server asks for a client certificate .* \(http:\/\/ for a plain HTTP one\)\n/);
  });

  it("an agent's body whose own text says \"; see\" is not taken for a fix: the error is clipped at its bound, not kept whole from the body's \"; see\"", () => {
    // As the agent's client writes it (src/agent/http-client.ts): the body quoted after the status, no fix of ours after it.
    const body = `{"error":"bad input; see logs","trace":"${'frame '.repeat(28).trim()}"}`;
    const error = `message turn: agent returned HTTP 500 after 3 attempts: ${body}`;
    const long = `${error} ${'x'.repeat(60)}`;
    expect(long.length).toBeGreaterThan(300);
    const terminal = renderTerminal(run([errored('a', long)]), { color: false });
    const line = terminal.split('\n').find((l) => l.includes('agent returned HTTP 500')) ?? '';
    // Clipped at 300 as a text with no fix is: before, the whole body from its "; see" was kept, past the bound.
    expect(line).toMatch(/agent returned HTTP 500 after 3 attempts: \{"error":"bad input; see logs","trace":"frame .*\u2026$/);
    expect(line).not.toContain('x'.repeat(60));
  });

  it('an item under a cause whose own text is too long for its line shows it below its line, bounded, its fix whole (the comment: in its block)', () => {
    const short = `the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); ${fix}`;
    const what = `the agent answered the TLS handshake with an alert, after 3 attempts: ${'handshake failure '.repeat(20).trim()} (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)`;
    const record = run([errored('a', short), errored('b', short), errored('c', `message turn: ${what}; ${fix}`)]);
    const terminal = renderTerminal(record, { color: false });
    const lines = terminal.split('\n');
    const c = lines.findIndex((l) => /^ {4}. c · /.test(l));
    expect(lines[c]).toMatch(/ · message turn$/);
    expect(lines[c + 1]).toMatch(/^ {8}the agent answered the TLS handshake with an alert, after 3 attempts: handshake failure[a-z ]*\u2026; check whether the server asks for a client certificate .* \(http:\/\/ for a plain HTTP one\)$/);
    expect(lines[c + 1]).toContain('--agent-url (agent.url)');
    expect(renderComment(record, ctx)).toContain('after 3 attempts');
  });

  it("is kept whole on a fixture's own line when the CLI's words make its detail longer than 300 characters; a detail with no fix is clipped at a word", () => {
    const what = 'the agent failed: no answer'.padEnd(257, '.');
    const error = `${what}; raise wait-for-agent (agent.waitForAgent)`;
    expect(error.length).toBe(300);
    const terminal = renderTerminal(run([errored('a', error)]), { color: false });
    // cliWords names the flag ("raise --wait-for-agent (agent.waitForAgent)"): 302 characters, and not cut.
    expect(terminal).toContain(`    ${what}; raise --wait-for-agent (agent.waitForAgent)\n`);
    // Without a fix ("; raise ..."), clipped at 300, at a word (assertions/format.ts, clipAtWord), not mid-name.
    const plain = renderTerminal(run([errored('a', error.replace('; raise', ', raise'))]), { color: false });
    expect(plain).toContain(`    ${what}, raise --wait-for-agent\u2026\n`);
  });
});

describe('an errored fixture whose stream was cut short', () => {
  const errored = (over: Partial<FixtureRecord>): FixtureRecord =>
    fixture('refund-policy', { reply: null, route: null, verdict: null, errored: true, error: 'the stream ended early', errorKind: 'network', detail: 'the stream ended early', drift: null, ...over } as Partial<FixtureRecord>);

  it('lists the tool calls its record keeps, as report.html does: those a cut stream had begun, or those beside the reply its spans errored', () => {
    const cut = renderJUnit(run([errored({ toolCalls: [toolCall('refund', { order: 'A1', amount: 5 }, null), toolCall('track_order', { id: 7 }, null)] })]));
    // JSON as the comment writes it, and JUnit's checks lines: a space after each comma and colon.
    expect(cut).toContain(
      'the stream ended early\n\ntool calls begun before the answer was cut short:\n  tool refund {&quot;order&quot;: &quot;A1&quot;, &quot;amount&quot;: 5}\n  tool track_order {&quot;id&quot;: 7}</error>',
    );
    const traced = renderJUnit(run([errored({ errorKind: 'agent_error', reply: 'Refunded.', route: route('refunds', 'done'), toolCalls: [{ ...toolCall('refund', { order: 'A1' }, { ok: true }), source: 'trace' }] })]));
    expect(traced).toContain('reply:\nRefunded.\n\ntool calls:\n  tool refund {&quot;order&quot;: &quot;A1&quot;} (from trace)</error>');
    // None kept: no heading.
    expect(renderJUnit(run([errored({})]))).not.toContain('tool calls');
  });

  it('the comment and the terminal name the calls a cut stream had begun, with their inputs, on one line under its error (docs/presets.md, "Streamed replies")', () => {
    const error = "the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; anthropic stream, 9 characters received, 7 tool calls begun: refund, lookup, a, b, c, …)";
    const calls = [toolCall('refund', { order: 'A1', amount: 5 }, null), toolCall('lookup', '{"q": "A`1", "fie', null), ...['a', 'b', 'c', 'd', 'e'].map((t) => toolCall(t, {}, null))];
    const r = run([errored({ error, detail: error, toolCalls: calls })]);
    const md = renderComment(r, ctx);
    // JSON in the comment's one form (a persona script's checks, its turns' tool calls): `{"order": "A1"}`.
    expect(md).toContain('**Tool calls begun before the answer was cut short**: `refund {"order": "A1", "amount": 5}`, ``lookup "{\\"q\\": \\"A`1\\", \\"fie"``, `a {}`, `b {}`, `c {}` and 2 more\n');
    // The terminal clips the error's line (300 characters): the calls have their own.
    const t = renderTerminal(r, { color: false });
    expect(t).toContain('\n        tool calls begun before the answer was cut short: refund {"order": "A1", "amount": 5}, lookup "{\\"q\\": \\"A`1\\", \\"fie", a {}, b {}, c {} and 2 more\n');
    // None kept, or the calls beside a reply its spans errored (shown in report.html and JUnit): no such line.
    expect(renderComment(run([errored({ error, detail: error })]), ctx)).not.toContain('Tool calls begun');
    const traced = run([errored({ errorKind: 'agent_error', reply: 'Refunded.', route: route('refunds', 'done'), toolCalls: [toolCall('refund', { order: 'A1' }, { ok: true })] })]);
    expect(renderComment(traced, ctx)).not.toContain('Tool calls begun');
    expect(renderTerminal(traced, { color: false })).not.toContain('tool calls begun');
  });
});

describe('render, then fit', () => {
  it('fits 5,000 fixtures in a comment and says right under the headline what was left out', () => {
    const md = renderComment(many(5000), ctx);
    // Room is left for the accept flow's notice above the report.
    expect(md.length).toBeLessThanOrEqual(65_536 - NOTICE_RESERVE_CHARS);
    expect(md.length).toBeGreaterThan(60_000);
    const blocks = md.split('\n\n');
    expect(blocks[1]).toBe('### 🔴 500 newly failing · 1,500 changed · 3,000 unchanged');
    expect(blocks[2]).toMatch(/^> ✂️ Shown in detail: 10 of 500 newly failing and 10 of 1,500 changed; [\d,]+ more newly failing are listed by name/);
    expect(blocks[2]).toMatch(/[\d,]+ newly failing, 1,490 changed and 3,000 unchanged are only counted/);
    // One story: what is shown in detail, what is listed by name only, and what of the detailed items is left out.
    expect(blocks[2]).toMatch(/are only counted and, of those shown in detail, the whole replies of [\d,]+ fixtures \(their diffs are shown\) are left out, to fit/);
    expect(blocks[2]).not.toMatch(/in full|full replies/);
    expect(blocks[2]).toContain(ctx.summaryUrl as string);
    expect(md).toContain('_… and 1,490 more changed fixtures, only counted here: see the full report._');
    expect(md).toContain('_3,000 unchanged fixtures, only counted here: see the full report._');
    expect(md.indexOf('fixture-00000')).toBeGreaterThan(0);
    expect(md).toContain('Review them first: only 20 of them are shown in detail here');
  });

  it("the notice says a section's table only of the rows it has: what is only counted is never said to be listed", () => {
    const md = renderComment(many(5000), ctx);
    const notice = md.split('\n\n')[2] as string;
    const s = structure(md);
    const section = (title: string): (typeof s.sections)[number] => s.sections.find((x) => x.title === title) as (typeof s.sections)[number];
    const newly = section('Newly failing');
    const changed = section('Changed');
    // Newly failing: 10 in full, some in the table, the rest counted; Changed: 10 in full, none in a table.
    expect(newly.labels.length - newly.full).toBeGreaterThan(0);
    expect(changed.labels.length - changed.full).toBe(0);
    expect(notice).toContain(`Shown in detail: 10 of 500 newly failing and 10 of 1,500 changed; ${newly.labels.length - newly.full} more newly failing are listed by name only, in a table at the end of their section.`);
    expect(notice).not.toContain('the others are listed');
    expect(notice).toContain(`${thousands(newly.counted)} newly failing, ${thousands(changed.counted)} changed and 3,000 unchanged are only counted`);
    for (const x of [newly, changed]) expect(x.labels.length + x.counted).toBe(x.count);
  });

  it('the notice counts a one-row table in the singular, and says no table where the rest is only counted', () => {
    const nf = (l: string): FixtureRecord => fixture(l, { reply: 'n', verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' }, baseline: baseline(l, 'o') });
    const model = buildModel(run(Array.from({ length: 13 }, (_, i) => nf(`a${i}`))));
    const none = { levels: [], rows: 0 };
    const plan = (rows: number): Plan => ({ newly_failing: { levels: Array<Level>(10).fill('brief'), rows }, still_failing: none, changed: none, reworded: none, new: none, not_evaluated: none, errored: none, unchanged: none });
    const p = profile('comment', undefined);
    expect(noticeBlock(model, plan(1), ctx, p)).toMatch(/^> ✂️ Shown in detail: 10 of 13 newly failing; 1 more newly failing is listed by name only, in a table at the end of its section\. 2 newly failing are only counted/);
    expect(noticeBlock(model, plan(0), ctx, p)).toMatch(/^> ✂️ Shown in detail: 10 of 13 newly failing\. 3 newly failing are only counted/);
    expect(noticeBlock(model, plan(3), ctx, p)).toMatch(/^> ✂️ Shown in detail: 10 of 13 newly failing; the others are listed by name only, in a table at the end of their section\. Of those shown in detail, the replies/);
  });

  it('degrades a ~300 KB comment below the limit, newly failing first', () => {
    const long = (i: number, v: string): string => `Paragraph ${i} ${v}. `.repeat(60) + '\n'.repeat(2) + 'Closing words.';
    const fixtures = Array.from({ length: 60 }, (_, i) =>
      fixture(`big-${String(i).padStart(2, '0')}`, {
        reply: long(i, 'new'),
        verdict: i % 2 === 0 ? 'fail' : 'pass',
        drift: { reply: 'different', route: 'same', verdict: i % 2 === 0 ? 'newly_failing' : 'still_passing' },
        baseline: { label: `big-${i}`, reply: long(i, 'old'), route: { conversation: 'main', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-30T10:00:00Z', commit: null },
      }),
    );
    const r = run(fixtures);
    const full = renderSummary(r, ctx);
    expect(full.length).toBeGreaterThan(300_000);
    const md = renderComment(r, ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md.indexOf('Newly failing')).toBeLessThan(md.indexOf('Changed'));
    expect(md.indexOf('<b>big-00</b>')).toBeGreaterThan(0);
    // 10 of each section in full, the other 20 of each in the compact table.
    expect(count(md, /^<details><summary>\S+ <b>big-/m)).toBe(20);
    expect(count(md, /^\| big-\d+ \|/m)).toBe(40);
    // Detail is bought back worst first: the first newly failing item keeps its diff.
    const first = md.slice(md.indexOf('<b>big-00</b>'), md.indexOf('<b>big-02</b>'));
    expect(first).toContain('```diff');
    expect(md.split('\n\n')[2]).toMatch(/^> ✂️ Shown in detail: 10 of 30 newly failing and 10 of 30 changed/);
    expect(md.split('\n\n')[2]).toMatch(/are left out, to fit GitHub's limit of 65,536 characters per comment\./);
    const html = githubHtml(md);
    expect(count(html, /<details[ >]/)).toBe(count(html, '</details>'));
  });

  it('keeps the diffs and lists as many unchanged names as fit', () => {
    const fixtures = Array.from({ length: 2000 }, (_, i) => fixture(`same-${i}`));
    fixtures[0] = fixture('changed-one', {
      reply: 'New words.',
      drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
      baseline: { label: 'changed-one', reply: 'Old words.', route: { conversation: 'main', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-30T10:00:00Z', commit: null },
    });
    const md = renderComment(run(fixtures), ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('- ⟦Old⟧ words.\n+ ⟦New⟧ words.');
    expect(md).toMatch(/> ✂️ [\d,]+ unchanged are only counted, to fit GitHub's limit of 65,536 characters per comment\. Everything is in the \[job summary\]/);
    expect(md).toMatch(/<details><summary>[\d,]+ unchanged fixtures: name, verdict, drift and file<\/summary>/);
    // The job summary has room for all of them.
    expect(renderSummary(run(fixtures), ctx)).toContain('<details><summary>1,999 unchanged fixtures: name, verdict, drift and file</summary>');
  });

  it('clips one huge reply instead of dropping everything', () => {
    const huge = 'x'.repeat(100_000);
    const r = run([fixture('huge', { reply: huge, drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null })]);
    const md = renderComment(r, ctx);
    // Cut, it says where the whole reply is, as the terminal and report.html do.
    expect(md).toContain('(first 4,000 of 100,000 characters; the whole text is in results.json)');
    expect(md).not.toContain('Shortened');
    expect(renderSummary(r, ctx)).toContain('(first 20,000 of 100,000 characters; the whole text is in results.json)');
  });

  it('the last resort\'s cut says how many items it left out, and nothing of them when it left none out (docs/cli.md)', () => {
    // 1,520: room for the headline area and one item's counted line (agreement's "of 12 items" included).
    const md = renderMarkdownReport(mixed(), ctx, { maxChars: 1520 });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(1520);
    // Every item is only counted here (the notice says so): the counted lines the cut kept hold the items shown.
    const counted = [...md.matchAll(/^_(?:… and )?(\d+) [^\n]* only counted here/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(counted).toBeGreaterThan(0);
    expect(md.slice(md.lastIndexOf('\n\n'))).toBe(
      `\n\n> ✂️ Cut to fit the report limit of 1,520 bytes: ${12 - counted} of 12 fixtures left out. The full report is in the [results artifact](https://github.com/acme/shop-bot/actions/runs/9876543210/artifacts/42).\n`,
    );
    // Cut after the last item: no count.
    const later = renderMarkdownReport(mixed(), ctx, { maxChars: 3000 });
    expect(later).toContain('_2 unchanged fixtures, only counted here');
    expect(later.slice(later.lastIndexOf('\n\n'))).toBe('\n\n> ✂️ Cut to fit the report limit of 3,000 bytes. The full report is in the [results artifact](https://github.com/acme/shop-bot/actions/runs/9876543210/artifacts/42).\n');
  });

  it('never exceeds a tiny limit and closes what it opened', () => {
    for (const max of [400, 1000, 3000, 8000]) {
      for (const r of [mixed(), hostile(), many(300)]) {
        const md = renderComment(r, ctx, { maxChars: max });
        expect(md.length).toBeLessThanOrEqual(max);
        const html = toHtml(md);
        expect(count(html, /<details[ >]/)).toBe(count(html, '</details>'));
        expect(count(md, /^```/m) % 2).toBe(0);
        expect(html).not.toMatch(/<script|<img/);
      }
    }
  });

  it("the CLI's --markdown report is the job summary's, not fitted to a comment (docs/cli.md, \"What each command does\")", () => {
    // A run whose comment is fitted to GitHub's 65,536 characters: the report keeps every item in
    // full, and is cut only at its own limit, which it names as docs/cli.md says.
    const r = many(100);
    expect(renderComment(r, ctx).length).toBeLessThanOrEqual(65_536);
    const md = renderMarkdownReport(r, ctx);
    expect(md.length).toBeGreaterThan(65_536);
    expect(utf8Length(md)).toBeLessThanOrEqual(1_048_576);
    expect(md).not.toContain('Cut to fit');
    const small = renderMarkdownReport(r, ctx, { maxChars: 20_000 });
    expect(utf8Length(small)).toBeLessThanOrEqual(20_000);
    expect(small).toContain('the report limit of 20,000 bytes');
  });

  it('keeps the summary under 1 MiB measured in UTF-8 bytes, and diffs only the replies it shows', () => {
    const r = many(3000, 600);
    const emoji = { ...r, fixtures: r.fixtures.map((f) => (f.errored || !f.reply ? f : { ...f, reply: `${f.reply} 😀é⏎`.repeat(2) })) };
    const before = replyDiffs.count;
    const md = renderSummary(emoji, ctx);
    expect(utf8Length(md)).toBeLessThanOrEqual(1_048_576);
    expect(Buffer.byteLength(md)).toBe(utf8Length(md));
    // 1,200 replies differ; the ones shown are diffed, and one more is, to learn that its diff does not fit.
    const shown = count(md, '```diff\n');
    expect(shown).toBeGreaterThan(50);
    expect(replyDiffs.count - before).toBe(shown + 1);
    const small = renderSummary(emoji, ctx, { maxChars: 100_000 });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(100_000);
    expect(small).toContain('job summary limit of 100,000 bytes');
    expect(replyDiffs.count - before).toBeLessThanOrEqual(shown + 1 + count(small, '```diff\n') + 1);
  }, 60_000); // two renderings of 3,000 items with 1,200 long diffs: about 1.5 s of CPU on an idle machine

  it('never says a diff is shown for replies too long to diff', () => {
    const long = (i: number, word: string): string => Array.from({ length: 120 }, (_, k) => `Sentence ${i}-${k} says the order ${word} soon.`).join(' ');
    const fixtures = Array.from({ length: 20 }, (_, i) =>
      fixture(`long-${i}`, { verdict: 'fail', reply: long(i, 'shipped'), baseline: baseline(`long-${i}`, long(i, 'ships')), drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } }),
    );
    const md = renderComment(run(fixtures), ctx);
    expect(md.length).toBeLessThanOrEqual(65_536 - NOTICE_RESERVE_CHARS);
    expect(md).not.toContain('```diff');
    const notice = md.split('\n').find((l) => l.startsWith('> ✂️')) as string;
    expect(notice).not.toContain('their diffs are shown');
    // Shown without their full replies, each says why it has no diff.
    const n = Number(/Of those shown in detail, the replies of (\d+) fixtures too long to diff are left out/.exec(notice)?.[1]);
    expect(n).toBeGreaterThan(0);
    expect(count(md, '_The replies are too long to diff here; compare them in the full report._')).toBe(10);
    expect(count(md, 'Full baseline and new reply')).toBe(10 - n);
  });

  it('the comment diffs no reply beyond the ten it shows in full per section', () => {
    const r = many(600, 300);
    const before = replyDiffs.count;
    const md = renderComment(r, ctx);
    const shown = count(md, '```diff\n');
    // 60 newly failing and 180 changed replies differ: ten of each are shown in full.
    expect(shown).toBe(20);
    expect(replyDiffs.count - before).toBe(shown);
  });

  it('keeps the markdown report free of hidden metadata', () => {
    const md = renderMarkdownReport(mixed());
    expect(md).not.toContain('<!--');
    expect(md).toContain('Newly failing');
  });
});

describe('after acceptance', () => {
  it('heads the comment with the commit, lists accepted and refused, and asks nothing again', () => {
    const md = renderComment(mixed(), acceptanceCtx);
    const html = githubHtml(md);
    const first = /<h3>([\s\S]*?)<\/h3>/.exec(html)?.[1] ?? '';
    expect(first).toBe('✅ Baselines accepted in <a href="https://github.com/acme/shop-bot/commit/c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe"><code>c0ffee0</code></a>');
    expect(md).toContain('**Accepted (5)**: `refund-policy`, `polite-refusal`, `opening-hours`, `escalate-angry`, `new-size-guide`');
    expect(md).toContain('- `gift-cards`: its check was not evaluated, so there is no verdict to store; run it again.');
    expect(md).toContain('- `loyalty-points`: the replay errored, so there is no reply to accept.');
    // The accepted fixtures now match their baselines: nothing new or changed is left to accept.
    const s = structure(md);
    expect(s.sections.find((x) => x.title === 'New, no baseline')?.labels).toEqual(['new-warranty']);
    expect(s.sections.find((x) => x.title === 'Changed')?.labels).toEqual(['gift-cards']);
    expect(s.sections.find((x) => x.title === 'Newly failing')).toBeUndefined();
    expect(md).not.toContain('apply the `accept-baseline` label');
    expect(md).toContain('Nothing to accept');
    expect(s.headline.reduce((n, [, c]) => n + c, 0)).toBe(12);
  });

  it('says "not committed", never "accepted", when a fork got commands instead of a commit', () => {
    const md = renderComment(mixed(), forkCtx);
    expect(md).toContain('### ⏸️ Baselines not committed');
    expect(md).not.toMatch(/Baselines accepted|\*\*Accepted/);
    expect(md).toContain('**Ready to accept (5)**');
    expect(md).toContain('```sh\ngh run download 9876543210 -R acme/shop-bot');
    expect(md).not.toContain('apply the `accept-baseline` label');
    expect(md).toContain('run the commands above');
  });

  it('says "not accepted" with the reason when nothing was accepted', () => {
    const md = renderComment(mixed(), refusedCtx);
    expect(md.split('\n\n')[1]).toBe('### ⛔ Baselines not accepted');
    expect(visibleText(githubHtml(md))).toContain('Nothing to accept: no commit was made.');
    expect(md).toContain('**Refused (2)**');
  });
});

describe('money', () => {
  it.each([
    [0.1, '$0.10'],
    [0.105, '$0.105'],
    [0.1004, '$0.1004'],
    [0.36, '$0.36'],
    [100, '$100.00'],
    [1234.5, '$1,234.50'],
    [0, '$0.00'],
    [1e-9, '< $0.000001'],
    [Number.NaN, '$?'],
  ])('formatUsd(%s) = %s', (value, text) => {
    expect(formatUsd(value)).toBe(text);
  });

  it('the estimated-cost output keeps a cost below a tenth of a cent (usdDecimal): "0.00024", never "0.000"', () => {
    // The Action writes its output with usdDecimal, run or refused (test/action/check.test.ts asserts that on a run).
    expect(usdDecimal(0.00024)).toBe('0.00024');
    expect(usdDecimal(0.06)).toBe('0.060');
    expect(usdDecimal(0)).toBe('0.000');
    expect(usdDecimal(1.5)).toBe('1.500');
    expect(usdDecimal(0.000001)).toBe('0.000001');
    expect(formatUsdPair(0.00024, 0.0001)).toEqual(['$0.00024', '$0.0001']);
  });

  it('never shows a refusal as "$0.10 is above the cap $0.10"', () => {
    expect(formatUsdPair(0.105, 0.1)).toEqual(['$0.105', '$0.10']);
    expect(formatUsdPair(0.100001, 0.1)).toEqual(['$0.100001', '$0.10']);
    expect(formatUsdPair(0.1000001, 0.1)).toEqual(['$0.1000001', '$0.10']);
    expect(formatUsdPair(0.1, 0.1)).toEqual(['$0.10', '$0.10']);
    const above = renderCapRefusal({ usd: 0.105, capUsd: 0.1, aboveCap: true, confirmed: false }, 5, 1, ctx);
    expect(above).toContain('**≈ $0.105 estimated**');
    expect(above).toContain('the cap is **$0.10**');
    const at = renderComment(run([fixture('a')], { estimate: { usd: 0.1, capUsd: 0.1, aboveCap: false, confirmed: false } }), ctx);
    expect(at).toContain('≈ $0.10 estimated (cap $0.10)');
  });
});

describe('purity', () => {
  it('renders byte-identical output and never mutates its input', () => {
    const r = deepFreeze(mixed());
    const c = deepFreeze({ ...acceptanceCtx });
    const once = [renderComment(r, c), renderSummary(r, c), renderTerminal(r, { color: true }), renderJUnit(r), renderMarkdownReport(r, c)];
    const twice = [renderComment(r, c), renderSummary(r, c), renderTerminal(r, { color: true }), renderJUnit(r), renderMarkdownReport(r, c)];
    expect(twice).toEqual(once);
  });
});

describe('cap refusal', () => {
  it('names the estimate, the cap and the three ways to confirm', () => {
    const md = renderCapRefusal({ usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false }, 12, 4, ctx);
    expect(md).toContain('≈ $0.36 estimated');
    expect(md).toContain('$0.10');
    expect(md).toContain('`confirm-cost` label');
    expect(md).toContain('`confirm-cost: true`');
    expect(md).toContain('`--confirm-cost`');
    expect(md).toContain('nothing was spent');
    expect(md.startsWith('<!-- agent-replay:marker=agent-replay:ci.yml -->\n')).toBe(true);
  });
});

describe('terminal', () => {
  it('colours only when asked and respects the width', () => {
    const plain = renderTerminal(mixed(), { color: false, width: 60 });
    expect(plain).not.toContain('\u001b[');
    for (const line of plain.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(renderTerminal(mixed(), { color: true })).toContain('\u001b[31m');
  });

  it('lists at most 50 items per section and counts the rest in one line', () => {
    const record = run(Array.from({ length: 120 }, (_, i) => fixture(`new-${String(i).padStart(3, '0')}`, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } })));
    const lines = renderTerminal(record, { color: false }).split('\n');
    const listed = lines.filter((l) => /^ {2}\+ new-\d{3} /.test(l));
    expect(listed).toHaveLength(50);
    expect(listed.at(-1)).toMatch(/^ {2}\+ new-049 /);
    expect(lines).toContain('  ... and 70 more (every item is in results.json; --markdown and --html render them all)');
  });

  it('lists attention items with their detail, then their reply or its word diff against the baseline', () => {
    const text = renderTerminal(mixed(), { color: false });
    expect(text).toContain(
      '  ✗ refund-policy · fail · newly failing · reply changed · route changed · .agent-replay/fixtures/suite.yml:10\n' +
        '      regex /30 days/i: no match in the reply\n' +
        '      reply vs baseline (- baseline, + new, changed words in ⟦ ⟧):\n' +
        '        - Returns are accepted within ⟦30⟧ days of delivery.\n',
    );
    // A failing reply that did not change is shown as it is: what the agent said.
    expect(text).toMatch(/ {2}✗ still-wrong-currency · fail · still failing · [^\n]+\n {6}contains "EUR": not found\n {6}reply:\n {8}Prices are in USD\.\n/);
    expect(text).toContain('not evaluated 3 (not a failure)');
  });

  it('names the changed-word marks above a reply diff only when the diff shows them', () => {
    const rewritten = fixture('store-locator', {
      verdict: 'fail',
      reply: 'Our flagship store is at Torstraße 1 in Berlin.',
      baseline: baseline('store-locator', 'We only sell online at the moment.'),
      drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
    });
    const text = renderTerminal(run([rewritten]), { color: false });
    expect(text).toContain('      reply vs baseline (- baseline, + new):\n        - We only sell online at the moment.\n');
    expect(text).not.toContain('⟦');
  });

  it('shows the control characters of a reply, a detail and a diff as escapes, so the reader sees them and the terminal acts on none', () => {
    const reply = 'red \u001b[31mRED\u001b[0m bell\u0007 nul\u0000 back\b c1\u009b31m \u202Egnp.exe';
    const changed = fixture('controls', {
      verdict: 'fail',
      reply,
      detail: 'contains "ok": not found in \u001b[2Jcleared',
      baseline: baseline('controls', 'red RED bell nul back c131m gnp.exe'),
      drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
    });
    const text = renderTerminal(run([changed]), { color: false });
    expect(text).toContain('      contains "ok": not found in \\u001b[2Jcleared\n');
    expect(text).toContain('\\u001b[31mRED\\u001b[0m');
    expect(text).toContain('bell\\u0007 nul\\u0000 back\\u0008 c1\\u009b31m \\u202egnp.exe');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
  });

  it('clips a long reply to a few lines and says how many more there are and where', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the reply.`).join('\n');
    const base = mixed();
    const record = { ...base, fixtures: base.fixtures.map((f) => (f.label === 'still-wrong-currency' && !f.errored ? { ...f, reply: long } : f)) };
    const text = renderTerminal(record, { color: false, where: 'out/results.json' });
    expect(text).toContain('        Line 4 of the reply.\n        ... 26 more lines (full text in out/results.json)\n');
    expect(text).not.toContain('Line 5 of the reply.');
  });

  it('does not diff a reply longer than 20,000 characters: says so, and shows the new one', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `Line ${i + 1} of the reply.`).join('\n');
    const changed = (label: string, reply: string, was: string): FixtureRecord =>
      fixture(label, { verdict: 'fail', reply, baseline: baseline(label, was), drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } });
    const before = replyDiffs.count;
    const text = renderTerminal(run([changed('huge', long.replace('Line 7 ', 'Row 7 '), long)]), { color: false });
    expect(replyDiffs.count).toBe(before);
    expect(text).toContain(
      '      reply vs baseline (not diffed: a reply is longer than 20,000 characters; the new one follows):\n        Line 1 of the reply.\n',
    );
    expect(text).toContain('... 1,996 more lines (full text in results.json)');
    // Under the limit, the same change is diffed.
    const short = long.slice(0, 10_000);
    expect(renderTerminal(run([changed('short', short.replace('Line 7 ', 'Row 7 '), short)]), { color: false })).toContain('- ⟦Line⟧ 7 of the reply.');
    expect(replyDiffs.count).toBe(before + 1);
  });
});

describe('an interrupted run', () => {
  it('says so right under the headline in the comment and in the terminal, counting only what finished', () => {
    const record = run(mixed().fixtures.slice(0, 3), { interrupted: true });
    const comment = renderComment(record, ctx);
    const lines = comment.split('\n');
    const head = lines.findIndex((l) => l.startsWith('### '));
    const next = lines.slice(head + 1).filter((l) => l.trim() !== '').slice(0, 2);
    expect(next[0]).toBe('> [!WARNING]');
    expect(next[1]).toContain('**Interrupted.**');
    expect(comment).toContain('Only the 3 fixtures that finished are counted and shown');
    expect(renderTerminal(record, { color: false })).toContain('interrupted: only the 3 fixtures that finished are counted');
  });

  it('says nothing of it when the run completed', () => {
    const record = run(mixed().fixtures.slice(0, 3));
    expect(renderComment(record, ctx)).not.toContain('Interrupted');
    expect(renderTerminal(record, { color: false })).not.toContain('interrupted');
  });
});

describe('the facts line names the baselines only when the run compared with some', () => {
  const newItem = (label: string): FixtureRecord => fixture(label, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } });
  const factsOf = (md: string): string => md.split('\n').find((l) => l.startsWith('≈ $')) ?? '';

  it('a first run (no item has a baseline): the commit alone, in the comment and the job summary, not "against baselines from" a commit that holds none', () => {
    const first = run([newItem('greeting'), newItem('refund')]);
    for (const md of [renderComment(first, ctx), renderSummary(first, ctx)]) {
      expect(factsOf(md)).toContain('commit `3f5e2a9`');
      expect(factsOf(md)).not.toContain('baselines from');
    }
  });

  it('one item with a baseline among new ones: the baselines\' ref is named; after acceptance, the accepted commit is', () => {
    const some = run([newItem('greeting'), fixture('refund')]);
    expect(factsOf(renderComment(some, ctx))).toContain('commit `3f5e2a9` against baselines from `3f5e2a9`');
    const accepted: ReportContext = { ...ctx, acceptance: { accepted: ['greeting', 'refund'], refused: [], skipped: [], commitSha: 'c0ffee0'.padEnd(40, '0'), commitUrl: null, note: null } };
    expect(factsOf(renderComment(run([newItem('greeting'), newItem('refund')]), accepted))).toContain('commit `3f5e2a9` against baselines from `c0ffee0`');
  });
});
