// An errored or not evaluated item is listed under the cause the run's causes grouped it by
// (src/evaluate/causes.ts, groupCauses; src/report/model.ts, buildModel): one decision, read by the
// model, so that a cause whose fix names the suite's config file (config.yaml) still heads its items.
import { describe, expect, it } from 'vitest';
import { noReplyAt } from '../../src/agent/response.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
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
  });
});
