// The configuration errors comment (src/report/config-errors.ts): a fix's line as it should read
// keeps its indentation on GitHub, and stays inert data whatever the file held.

import { describe, expect, it } from 'vitest';
import { renderConfigErrors, terminalIssue } from '../../src/report/config-errors.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';
import type { ConfigIssue } from '../../src/suite/issues.js';
import { COMMENT_MAX_CHARS, NOTICE_RESERVE_CHARS } from '../../src/report/profile.js';
import { allCodeBlocks, githubHtml, outsideCode, visibleText } from './helpers.js';

const issue = (line: number, message: string, fix: string): ConfigIssue => ({ file: '.agent-replay/config.yml', line, column: 1, message, fix });

describe('renderConfigErrors: the line as it should read', () => {
  it('keeps its indentation in a code block of the list item; a line without any stays a code span', () => {
    const md = renderConfigErrors(
      [
        issue(3, 'invalid YAML: line 3 is indented deeper than "url" on line 2', 'indent it by 2 spaces (not 3), as "url" is on line 2, so that line 3 reads\n      timeoutMs: 5'),
        issue(5, 'unknown key "mesage"', 'did you mean "message"? rename the key, so that line 5 reads\n    message: hi'),
        issue(7, 'a quoted regex', "put the value in single quotes, so that line 7 reads\n      regex: '\\d+'\n  or keep the double quotes and double the backslash"),
      ],
      DEFAULT_CONTEXT,
    );
    const html = githubHtml(md);
    expect(allCodeBlocks(html)).toEqual(["  timeoutMs: 5\n", "  regex: '\\d+'\n"]);
    expect(html).toContain('<code>message: hi</code>');
    // One list, an item per error, the words after a block in its item.
    expect(html.match(/<li>/g)).toHaveLength(3);
    expect(visibleText(html)).toContain('or keep the double quotes and double the backslash');
  });

  it('stays within GitHub\'s limit for a comment however long the fixes to copy are, the errors left out counted', () => {
    // 50 fixes of two whole lines of 990 characters each (a fix keeps its lines to copy whole: boundIssues).
    const long = Array.from({ length: 50 }, (_, i) => issue(i + 1, `invalid YAML: the value on line ${String(i + 1)} ends at the ' after "don"`, `write each ' inside the value twice (''), so that line ${String(i + 1)} reads\n    message: '${'x'.repeat(980)}'\n  or\n    message: "${'y'.repeat(980)}"`));
    const md = renderConfigErrors(long, DEFAULT_CONTEXT);
    expect(md.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS - NOTICE_RESERVE_CHARS);
    const shown = md.match(/^- `/gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(10);
    expect(md).toContain(`- … and ${String(50 - shown)} more (see the job log)`);
    // Each one shown whole.
    expect(md.match(new RegExp(`x{980}`, 'g'))).toHaveLength(shown);
  });

  it('groups the digits of the counts, of all and of those left out: "1,100 configuration errors", "and 1,0xx more"', () => {
    const many = Array.from({ length: 1_100 }, (_, i) => issue(i + 1, `unknown key "k${String(i)}"`, 'remove it'));
    const md = renderConfigErrors(many, DEFAULT_CONTEXT);
    expect(md).toContain('**1,100 configuration errors** in the suite.');
    const shown = md.match(/^- `/gm)?.length ?? 0;
    expect(1_100 - shown).toBeGreaterThanOrEqual(1_000);
    expect(md).toContain(`- … and ${(1_100 - shown).toLocaleString('en-US')} more (see the job log)`);
  });

  it('ends with the validate command as typed, naming a suite in another folder', () => {
    // Was: "Run `agent-replay validate` locally", a command no shell runs as typed, and without the suite's folder.
    const one = [issue(2, 'unknown key "mesage"', 'rename it')];
    expect(renderConfigErrors(one, DEFAULT_CONTEXT)).toContain('Run `npx agent-replay validate` locally to check the suite before pushing.');
    expect(renderConfigErrors(one, { ...DEFAULT_CONTEXT, suite: 'apps/sales/.agent-replay' })).toContain('Run `npx agent-replay validate --dir apps/sales/.agent-replay` locally to check the suite before pushing.');
  });

  it('a line that holds markdown, HTML or a fence is shown as written and starts nothing', () => {
    const hostile = '  x: "``` <img src=x onerror=alert(1)> @octocat #1 ~~~"';
    const md = renderConfigErrors([issue(2, 'hostile', `so that line 2 reads\n    ${hostile}\n  then check it`)], DEFAULT_CONTEXT);
    const html = githubHtml(md);
    expect(allCodeBlocks(html)).toEqual([`${hostile}\n`]);
    expect(outsideCode(html)).not.toMatch(/<img|@octocat|```/);
    expect(visibleText(html)).toContain('then check it');
    expect(html.match(/<li>/g)).toHaveLength(1);
  });
});

describe("renderConfigErrors: the issue's file", () => {
  it('is one code span whatever its name holds: a backtick as written, a line break as ⏎, no heading started', () => {
    const md = renderConfigErrors([{ file: '.agent-replay/fixtures/a`b\n\n# c <i>.yml', line: 2, column: 1, message: 'unknown key "mesage"', fix: 'rename it' }], DEFAULT_CONTEXT);
    const html = githubHtml(md);
    // Before, the backtick became ' and the blank line ended the item: "# c <i>.yml:2:1`" was a heading.
    expect(html).toContain('<li><code>.agent-replay/fixtures/a`b ⏎  ⏎ # c &lt;i&gt;.yml:2:1</code>: unknown key');
    expect(html).not.toMatch(/<h1/);
    expect(html.match(/<li>/g)).toHaveLength(1);
  });
});

describe('terminalIssue: an issue as the terminal and the Action log show it', () => {
  it("keeps the file's name on its line, a line break in it as ⏎, and shows each control character as its escape", () => {
    // Was terminalBlock(formatIssue(issue)): the name's line break split `file:line:column: message` over two lines.
    const shown = terminalIssue({ file: 'my\nsuite/s\u001b[2Jx.yml', line: 2, column: 3, message: 'unknown key "\u009b1m"', fix: 'rename it, so that line 2 reads\n    message: hi\u0007' });
    expect(shown).toBe(String.raw`my ⏎ suite/s\u001b[2Jx.yml:2:3: unknown key "\u009b1m"` + '\n  fix: rename it, so that line 2 reads\n' + String.raw`    message: hi\u0007`);
  });
});
