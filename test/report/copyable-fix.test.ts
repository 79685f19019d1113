// A fix the comment tells the user to copy is copied as written (src/report/escape.ts, escapeFix;
// docs/security.md, "Agent text is data"): where the escaping would break a word with an invisible
// word joiner (U+2060: `@type`, `#1`, `:x:`, `GH-1`), a fix's word is a code span instead, in which
// GitHub makes no mention, reference or emoji. Pasted into config.yml, `"@` + U+2060 + `type"` is a
// path no answer has. The agent's words outside a fix keep the word joiner; in a fix, they are as inert in code.
import { describe, expect, it } from 'vitest';
import { escapeFix, escapeInline, WJ } from '../../src/report/escape.js';
import { renderAcceptSummary, renderComment, renderSummary } from '../../src/report/index.js';
import { renderMergeRefused } from '../../src/report/merge-refused.js';
import { otherLabelWords } from '../../src/action/accept.js';
import { renderConfigErrors } from '../../src/report/config-errors.js';
import { decodeEntities, githubHtml, outsideCode, visibleText } from './helpers.js';
import { ctx, fixture, persona, run } from './fixtures.js';
import type { ErrorKind, FixtureRecord, PersonaRecord } from '../../src/types.js';
import { renderCalibrationMarkdown } from '../../src/calibrate/render.js';
import { summarizeCalibration } from '../../src/calibrate/summary.js';
import { calibrationOf } from '../calibrate/calibration.js';

/** What a reader selects and copies: every text of the page, code included, tags dropped, entities decoded. */
const copied = (html: string): string => decodeEntities(html.replace(/<[^>]+>/g, ''));
/** A mention, a reference or an emoji GitHub would make of the text outside code. */
const LINKED = /@[A-Za-z0-9]|#[A-Za-z0-9]|:[a-z_+-]+:|\bGH-\d/i;

const errored = (label: string, errorKind: ErrorKind, error: string) =>
  fixture(label, { reply: null, route: null, verdict: null, errored: true, error, errorKind, detail: error, drift: null });
const missingReply = (path: string, set = '') =>
  `message turn: response has no string at "reply" (found nothing; the response is an object (keys: a); its text may be at "${path}")${set}`;

describe('a fix the comment gives to copy is copied exactly', () => {
  for (const [surface, render] of [
    ['the PR comment', renderComment],
    ['the job summary', renderSummary],
  ] as const) {
    it(`${surface}: the config line a missing reply's fix gives reads as written, "@type" with no invisible character`, () => {
      const html = githubHtml(render(run([errored('a', 'missing_reply', missingReply('@type'))]), ctx));
      expect(copied(html)).toContain('set agent.response.reply: "@type" in config.yml if that is the reply');
      expect(copied(html)).not.toMatch(/"@\u2060type" in config/);
      expect(decodeEntities(outsideCode(html)).replace(/\u2060/g, '')).not.toMatch(/@type" in config/);
    });

    it(`${surface}: a proxy's credentials as the fix writes them, http://user:password@host:port, with no invisible character`, () => {
      const html = githubHtml(render(run([errored('a', 'http', 'agent returned HTTP 407 Proxy Authentication Required')]), ctx));
      expect(copied(html)).toContain('give them in HTTP_PROXY (http://user:password@host:port)');
      expect(visibleText(html)).not.toMatch(LINKED);
    });

    it(`${surface}: a path the agent's answer chose is quoted in code, and mentions no one`, () => {
      const html = githubHtml(render(run([errored('a', 'missing_reply', missingReply('@octocat'))]), ctx));
      expect(copied(html)).toContain('set agent.response.reply: "@octocat" in config.yml');
      expect(decodeEntities(outsideCode(html))).not.toMatch(/@octocat/);
    });
  }

  // The line made with the record written two ways: the line that sets the path, read from config.yml.
  const withSet = (render: typeof renderComment) =>
    githubHtml(render(run([errored('a', 'missing_reply', missingReply('@type', '; agent.response.reply is set at .agent-replay/config.yml:6'))]), ctx));
  it.each([['the PR comment', renderComment] as const, ['the job summary', renderSummary] as const])('%s: "change ... to" with the path that sets it', (_s, render) => {
    expect(copied(withSet(render))).toContain('change agent.response.reply at .agent-replay/config.yml:6 to "@type" if that is the reply');
  });
});

describe("a configuration error's fix, in the comment shown instead of a report", () => {
  it('quotes the line to write as written: "order #5521" with no invisible character, and links no issue', () => {
    const issue = { file: '.agent-replay/fixtures/a.yml', line: 3, column: 10, message: 'message on line 3 ends before "#5521"', fix: 'quote message if # is part of it (message: "Where is order #5521?"), or write to @octocat' };
    const html = githubHtml(renderConfigErrors([issue], ctx));
    expect(copied(html)).toContain('fix: quote message if # is part of it (message: "Where is order #5521?"), or write to @octocat');
    expect(visibleText(html).replace(/\u2060/g, '')).not.toMatch(/@octocat|order #5521/);
  });
});

describe('escapeFix', () => {
  /** The text of each code span, as GitHub renders it. */
  const spans = (md: string): string[] => [...githubHtml(md).matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => decodeEntities(m[1] as string));

  it('a word with a backtick run stays one code span, its fence longer than the run', () => {
    const md = escapeFix('set x: "a`@b``c" in config.yml');
    expect(spans(md)).toEqual(['"a`@b``c"']);
    expect(copied(githubHtml(md))).toBe('set x: "a`@b``c" in config.yml\n');
  });

  it('a word that starts or ends with a backtick is padded, and copied without the padding', () => {
    expect(spans(escapeFix('to `@x`'))).toEqual(['`@x`']);
  });

  it('the agent\'s markup in a fix is neither markup nor a mention: code, or escaped text', () => {
    const html = githubHtml(escapeFix('set x: @octocat **bold** <b>x</b> [a](https://evil.example/) #12 :smile: GH-1'));
    expect(outsideCode(html)).not.toMatch(/<strong>|<b>|<a |<img/);
    expect(visibleText(html)).not.toMatch(LINKED);
    expect(spans(escapeFix('@octocat #12 :smile: GH-1'))).toEqual(['@octocat', '#12', ':smile:', 'GH-1']);
  });

  it('parentheses, a stop and a colon after the word stay outside the code', () => {
    expect(escapeFix('(http://u:p@h:1), or "@type": set')).toBe('\\(`http://u:p@h:1`\\), or `"@type"`\\: set');
  });

  it('text with nothing to break is escapeInline\'s, to the character', () => {
    for (const text of ['set agent.response.reply: data.items in config.yml', 'a *b* `c` <d> | e_f www.x.com https://x.y', 'check agent-url (agent.url)']) {
      expect(escapeFix(text)).toBe(escapeInline(text));
    }
  });
});

// The fix after the "; " of an item's line (escapeDetail, escapeHtmlDetail), and calibrate's Next: line.
const WHAT = "message turn: the agent's reply named @alice and #12";
const FIX = 'name @type in agent.mapping, as :smile: says';
const ERROR = `${WHAT}; ${FIX}`;

const erroredWithFix = (label: string): FixtureRecord =>
  fixture(label, { reply: null, route: null, verdict: null, errored: true, errorKind: 'network', error: ERROR, detail: ERROR, drift: null } as Partial<FixtureRecord>);

/** The comment's lines that hold the error, each split at the fix's "; ". */
function errorLines(markdown: string): { said: string; fix: string }[] {
  return markdown
    .split('\n')
    .filter((l) => l.includes('alice') && l.includes('agent.mapping'))
    .map((l) => {
      const at = l.indexOf('12; name ');
      return { said: l.slice(0, at + 4), fix: l.slice(at + 4) };
    });
}

function expectCopiedAsWritten(lines: { said: string; fix: string }[], html: boolean): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const { said, fix } of lines) {
    // The agent's words: still no mention nor reference.
    expect(said).toContain(`@${WJ}alice`);
    expect(said).toContain(`#${WJ}12`);
    // The fix: no word joiner, its words to copy in code.
    expect(fix).not.toContain(WJ);
    expect(fix).not.toContain('\u2060');
    expect(fix).toContain(html ? '<code>@type</code>' : '`@type`');
    expect(fix).toContain(html ? '<code>:smile:</code>' : '`:smile:`');
  }
}

describe("a fix on an item's line in the comment", () => {
  it("a fixture's line (its <summary>)", () => {
    const lines = errorLines(renderComment(run([erroredWithFix('a')]), ctx)).filter((l) => l.said.includes('<summary>'));
    expectCopiedAsWritten(lines, true);
  });

  it('the line the items of one cause share ("each: ...")', () => {
    const lines = errorLines(renderComment(run([erroredWithFix('a'), erroredWithFix('b')]), ctx)).filter((l) => l.said.startsWith('each'));
    expectCopiedAsWritten(lines, false);
  });

  it("a persona script's line and its **Stopped** line", () => {
    const record = run([], { personas: [persona('p', { errored: true, error: ERROR, verdict: null } as Partial<PersonaRecord>)] } as never);
    const lines = errorLines(renderComment(record, ctx));
    expectCopiedAsWritten(lines.filter((l) => l.said.includes('<summary>')), true);
    expectCopiedAsWritten(lines.filter((l) => l.said.startsWith('**Stopped**')), false);
  });
});

describe("calibrate's Next: line", () => {
  it('is a step to copy: a baseline named with @ is in code, no word joiner in it', () => {
    const one = { criterion: 'C', kind: 'fixture', label: '@team', file: 'f.yml', line: 1, baselineFile: '.agent-replay/baselines/@team.json', reason: 'which check failed is not known' } as const;
    const c = calibrationOf(summarizeCalibration({ targets: [], skipped: [one], withoutBaseline: [] }, [], null), 0, null);
    const next = renderCalibrationMarkdown(c)
      .split('\n')
      .find((l) => l.startsWith('Next: '));
    expect(next).toContain('@team');
    expect(next).not.toContain(WJ);
  });
});

// The other lines that quote a reason a fix of ours may end (escapeDetail): a merge refused for a
// results file the record layer could not read ("does not exist; give the path of ..."), and an
// accept refused for GitHub's answer ("; give the job a valid one").
describe('a fix on the other lines that quote a reason', () => {
  it.each([
    ['a merge refused', () => errorLines(renderMergeRefused(ERROR, ctx, { shards: true, files: 2 }))],
    ['an accept refused', () => errorLines(renderAcceptSummary({ kind: 'refused', pr: 1, reason: ERROR }))],
  ] as const)('%s', (_surface, lines) => {
    expectCopiedAsWritten(lines(), false);
  });
});

// The accept job run for another label than its step's (accept.ts otherLabelWords): the step's
// accept-label to set and the job's if: to give are copied as written, "#urgent" with no word joiner
// (was: the whole line escapeInline's, "#" + U+2060 + "urgent" in both).
describe("the accept job's summary for another label", () => {
  it('gives the if: and the accept-label to copy as written, and links nothing', () => {
    const reason = otherLabelWords('#urgent', '@team:ok', 7, '.github/workflows/accept.yml');
    const html = githubHtml(renderAcceptSummary({ kind: 'other-label', pr: 7, reason }));
    expect(copied(html)).toContain(`if: github.event.label.name == '@team:ok' (to accept with "#urgent" instead, set accept-label: "#urgent" on the step as well).`);
    expect(copied(html).slice(copied(html).indexOf('; give '))).not.toContain('\u2060');
    // The heading's own #7 aside (it names the pull request).
    expect(visibleText(html.slice(html.indexOf('</h2>')))).not.toMatch(LINKED);
  });
});
