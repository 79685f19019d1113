// The text shared by the items of one cause group, said once; each item keeps only what differs.
import { describe, expect, it } from 'vitest';
import { groupText, sharedLine } from '../../src/report/cause-details.js';
import type { Item } from '../../src/report/model.js';

const errored = (label: string, error: string): Item => ({ label, errored: true, error, verdict: null, detail: '' }) as unknown as Item;

describe('groupText', () => {
  it('one text for all, same turn: said once with the turn, the items add nothing', () => {
    const text = 'message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running';
    const items = ['a', 'b', 'c'].map((l) => errored(l, text));
    const g = groupText(items);
    expect(sharedLine(g, 3)).toBe(`each: ${text}`);
    expect(items.map((i) => g.own.get(i))).toEqual(Array(3).fill({ turn: null, text: null }));
  });

  it('different turns: the shared text without the turn, each item its turn', () => {
    const a = errored('a', 'welcome turn: agent returned HTTP 503 after 3 attempts');
    const b = errored('b', 'turn 2: agent returned HTTP 503 after 3 attempts');
    const g = groupText([a, b]);
    expect(sharedLine(g, 2)).toBe('each: agent returned HTTP 503 after 3 attempts');
    expect([g.own.get(a), g.own.get(b)]).toEqual([{ turn: 'welcome turn', text: null }, { turn: 'turn 2', text: null }]);
  });

  it('one item with another text: "2 of them", and that item shows its whole text', () => {
    const same = ['a', 'b'].map((l) => errored(l, 'message turn: agent returned HTTP 503 after 3 attempts'));
    const odd = errored('c', 'message turn: agent returned HTTP 503 after 2 attempts, 1 rate-limited');
    const g = groupText([...same, odd]);
    expect(sharedLine(g, 3)).toBe('2 of them: agent returned HTTP 503 after 3 attempts');
    expect(g.own.get(odd)).toEqual({ turn: null, text: 'message turn: agent returned HTTP 503 after 2 attempts, 1 rate-limited' });
  });

  it('no two alike: nothing shared, every item shows its text as before', () => {
    const g = groupText([errored('a', 'x failed'), errored('b', 'y failed')]);
    expect(sharedLine(g, 2)).toBeNull();
    expect(g.own.size).toBe(0);
  });

  it('an item whose text is too long for its line shows its turn on its line: the cause sums the text up, its block holds it, the terminal its long text', () => {
    const body = `the agent reported a call to issue_refund that no mock answered; ${'more advice, '.repeat(30)}done`;
    const long = errored('a', `turn 3: ${body}`);
    const short = errored('b', 'turn 2: a call to find_order that no mock answered');
    const g = groupText([long, short]);
    expect(sharedLine(g, 2)).toBeNull();
    expect(g.own.get(long)).toEqual({ turn: 'turn 3', text: null, long: body });
    expect(g.own.has(short)).toBe(false);
    // Several lines are too long for one line too.
    const page = errored('c', 'agent returned HTTP 500:\n<html>\n<body>oops</body>');
    expect(groupText([page]).own.get(page)).toEqual({ turn: null, text: null, long: 'agent returned HTTP 500:\n<html>\n<body>oops</body>' });
  });
});
