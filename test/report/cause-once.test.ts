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
