// An errored or not evaluated item is listed under the cause the run's causes grouped it by
// (src/evaluate/causes.ts, groupCauses; src/report/model.ts, buildModel): one decision, read by the
// model, so that a cause whose fix names the suite's config file (config.yaml) still heads its items,
// and JUnit's test case of each item names the same cause (src/report/junit.ts).
import { describe, expect, it } from 'vitest';
import { noReplyAt } from '../../src/agent/response.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJUnit, xmlAttr, xmlText } from '../../src/report/junit.js';
import { escapeInline } from '../../src/report/escape.js';
import { ctx, fixture, run } from './fixtures.js';

const error = `message turn: ${noReplyAt({ data: { text: 'Hi' } }, 'reply', undefined)}`;
const item = (label: string) => fixture(label, { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'missing_reply', detail: error, drift: null });

describe('an item under its cause, with the config file the record names', () => {
  it.each(['config.yml', 'config.yaml'])('a missing reply in a suite with %s: its items are listed under the cause and its fix', (configName) => {
    const record = { ...run([item('a'), item('b')]), configName };
    const cause = `all 2: no reply at "reply" in the agent's answers: the answer's text may be at "data.text": set agent.response.reply: data.text in ${configName} if that is the reply, or check agent.preset`;
    const terminal = renderTerminal(record, { color: false, where: 'results.json', gate: null });
    const section = terminal.slice(terminal.indexOf('Errored (2)'));
    expect(section.split('\n').slice(1, 2)).toEqual([`  ${cause}`]);
    expect(section).toMatch(/\n {4}\S+ a\b/);
    const comment = renderComment(record, ctx);
    const errored = comment.slice(comment.indexOf('Errored'));
    expect(errored).toContain(`**all 2\\: no reply at "reply" in the agent's answers\\: the answer's text may be at "data.text"\\: set agent.response.reply\\: data.text in ${configName} if that is the reply, or check agent.preset**`);
    expect(renderHtml(record)).toMatch(/<h3 class="cause">all 2: no reply at /);
    // JUnit's test case of each item: the cause the comment lists it under, with the same config file.
    const junit = renderJUnit(record);
    const said = xmlText(cause.replace(/^all 2: /, ''));
    for (const label of ['a', 'b']) {
      const testcase = junit.slice(junit.indexOf(`name="${label}"`));
      expect(testcase.slice(0, testcase.indexOf('</testcase>'))).toContain(`\ncause: ${said}\n`);
    }
  });
});

describe('a judge not reached two ways: one cause each, in every report', () => {
  it('a refused connection and a host that did not resolve are two causes, and JUnit names each item the one the comment lists it under', () => {
    const judged = (label: string, reason: string) => fixture(label, { verdict: 'not_evaluated', detail: `judge unreachable: ${reason} after 3 attempts` });
    const record = run([judged('a', 'connection refused at 127.0.0.1:9 (ECONNREFUSED)'), judged('b', 'the host name judge.test did not resolve (ENOTFOUND)')]);
    const refused = 'judge unreachable: connection refused at 127.0.0.1:9 (ECONNREFUSED): nothing listens there: check judge-base-url (judge.baseUrl) and that the judge is running';
    const unresolved = 'judge unreachable: the host name judge.test did not resolve (ENOTFOUND): check the host name in judge-base-url (judge.baseUrl)';
    // It was one cause, "all 2: ... connection refused ...", with b under it.
    const comment = renderComment(record, ctx);
    expect(comment).toContain(escapeInline(`1 of 2: ${refused}`));
    expect(comment).toContain(escapeInline(`1 of 2: ${unresolved}`));
    const junit = renderJUnit(record);
    for (const [label, cause] of [['a', refused], ['b', unresolved]] as const) {
      const testcase = junit.slice(junit.indexOf(`name="${label}"`));
      expect(testcase.slice(0, testcase.indexOf('</testcase>'))).toContain(`; ${xmlAttr(`cause: ${cause}`)}"`);
    }
  });
});

// A group's cause says what all its items share, and each item's line what is its own
// (src/evaluate/causes.ts, causeGroups): never one item's deadline or address said for them all.
describe('items of one cause worded differently: the cause says what they share', () => {
  const panel = (first: string, second: string) => `judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed): openai m1: ${first}; openai m2: ${second}`;
  const judged = (label: string, detail: string) => fixture(label, { verdict: 'not_evaluated', detail });

  it("a panel's members with time limits of their own: no item's deadline in the cause, each item's on its line", () => {
    const record = run([judged('a', panel('no answer from the judge within 30,000 ms', 'no answer from the judge within 30,000 ms')), judged('b', panel('no answer from the judge within 90,000 ms (2 attempts)', 'no answer from the judge within 30,000 ms'))]);
    // The members' own limit and address, else the judge's (docs/judges.md, "Panels"), in the plural (it read "if the judge is slow", "that it is up").
    const cause =
      "all 2: judge unreachable: no answer from the judge: raise those members' timeoutMs (judge.panel, else judge.timeoutMs) in config.yml if the judges are slow, or check those members' baseUrls (judge.panel, else judge-base-url (judge.baseUrl)) and that they are up";
    const comment = renderComment(record, ctx);
    expect(comment).toContain(`**${escapeInline(cause)}**`);
    expect(comment).toContain('<br>judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed): openai m1: no answer from the judge within 90,000 ms (2 attempts);');
    const terminal = renderTerminal(record, { color: false, where: 'results.json', gate: null });
    expect(terminal).toContain(`  ${cause.replace('judge-base-url (judge.baseUrl)', '--judge-url (judge.baseUrl)')}\n`);
    expect(terminal).not.toMatch(/all 2: [^\n]*30,000/);
  });

  it('members refused at addresses of their own: the cause names no address', () => {
    const refused = (port: number) => `connection refused at 127.0.0.1:${port} (ECONNREFUSED)`;
    const record = run([judged('a', panel(refused(11434), refused(11434))), judged('b', panel(refused(8080), refused(8080)))]);
    const comment = renderComment(record, ctx);
    expect(comment).toContain(`**${escapeInline("all 2: judge unreachable: connection refused: nothing listens there: check those members' baseUrls (judge.panel, else judge-base-url (judge.baseUrl)) and that the judges are running")}**`);
    expect(renderHtml(record)).toContain('<h3 class="cause">all 2: judge unreachable: connection refused: nothing listens there');
    // Items worded alike keep the whole words.
    const alike = renderComment(run([judged('a', panel(refused(11434), refused(11434))), judged('b', panel(refused(11434), refused(11434)))]), ctx);
    expect(alike).toContain(escapeInline('all 2: judge unreachable: connection refused at 127.0.0.1:11434 (ECONNREFUSED): nothing listens there'));
  });
});
