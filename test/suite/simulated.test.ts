// Simulated users in persona scripts and the simulator section of config.yml (docs/personas.md,
// "Simulated users"): what loads, and every error at once with file:line and the fix.
import { describe, expect, it } from 'vitest';
import { simulatorConfig } from '../../src/simulator/index.js';
import { estimateCost } from '../../src/evaluate/index.js';
import { DEFAULT_COST } from '../../src/config.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

const P = '.agent-replay/personas';

describe('loadSuite: simulated users', () => {
  it('user: {goal, instructions?, maxTurns}; the opening is optional with it; maxTurns is the user\'s', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/a.yml`]: 'label: a\nopening: I want my money back\nuser:\n  goal: Get a refund\n  instructions: Be brief.\n  maxTurns: 8\nexpect: { conversations: [refunds] }\n',
      [`${P}/b.yml`]: 'label: b\nuser: { goal: Ask for the opening hours, maxTurns: 2 }\nexpect: { reply: [ { contains: "9", turn: 2 } ] }\n',
    });
    expect(r.errors).toEqual([]);
    const [a, b] = r.suite!.personas;
    expect(a).toMatchObject({ label: 'a', opening: 'I want my money back', followUps: [], maxTurns: 8, user: { goal: 'Get a refund', instructions: 'Be brief.', maxTurns: 8 } });
    expect(b).toMatchObject({ label: 'b', opening: null, maxTurns: 2, user: { goal: 'Ask for the opening hours', instructions: null, maxTurns: 2 } });
  });

  it('every problem at once, each at its line with the fix', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/a.yml`]: 'label: a\nopening: hi\nfollowUps: [ more ]\nuser: { goal: G, maxTurns: 3 }\nexpect: { conversations: [c] }\n',
      [`${P}/b.yml`]: 'label: b\nmaxTurns: 5\nuser: { goal: G }\nexpect: { conversations: [c] }\n',
      [`${P}/c.yml`]: 'label: c\nuser: { goal: "", maxTurns: 25 }\nexpect: { conversations: [c] }\n',
      [`${P}/d.yml`]: 'label: d\nexpect: { conversations: [c] }\n',
      [`${P}/f.yml`]: 'label: f\nuser: { goal: G, maxTurns: 3, instrutions: x }\nexpect: { reply: [ { contains: x, turn: 4 } ] }\n',
      [`${P}/g.yml`]: 'label: g\nuser: { goal: G, maxTurns: 3 }\nexpect: { reply: [ { contains: x, turn: 3 } ] }\n',
    });
    expect(brief(r.errors)).toEqual([
      `${P}/a.yml:3: persona script "a": followUps and user cannot be used together: follow-ups are a fixed script, a simulated user writes its own messages`,
      `${P}/b.yml:2: persona script "b": maxTurns beside user: a simulated user's turn limit is user.maxTurns`,
      `${P}/b.yml:3: persona script "b": missing required key "maxTurns" in user`,
      `${P}/c.yml:2: persona script "c": user.goal is empty`,
      `${P}/c.yml:2: persona script "c": user.maxTurns must be a whole number of message turns from 1 to 20, found the number 25`,
      `${P}/d.yml:1: persona script "d": missing required key "opening"`,
      `${P}/f.yml:2: persona script "f": unknown key "instrutions" in user; allowed keys: goal, instructions, maxTurns`,
      `${P}/f.yml:3: persona script "f": expect.reply[0]: turn 4 is beyond the script: it has 3 message turns (the opening is turn 1, turn 0 the welcome turn)`,
    ]);
    const fixes = r.errors.map((e) => e.fix);
    expect(fixes[0]).toBe('keep followUps (remove user) for a fixed conversation, or keep user (remove followUps) for a simulated one');
    expect(fixes[1]).toBe('move it under user (user: { ..., maxTurns: 5 }) and remove the script-level maxTurns');
    expect(fixes[6]).toContain('did you mean "instructions"?');
    expect(r.suite).toBeNull();
  });

  it('simulator: in config.yml; each key not given is the judge\'s (a key only goes to its own provider)', async () => {
    const inherit = await load({ [C]: 'judge: { provider: openai, baseUrl: "http://127.0.0.1:1/v1", model: j, apiKey: "${K}" }\nsimulator: { model: s }\n', [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(inherit.errors).toEqual([]);
    expect(simulatorConfig(inherit.suite!.config)).toMatchObject({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 's', apiKey: 'judge-key-1234567' });
    const other = await load({ [C]: 'judge: { provider: openai, model: j, apiKey: k }\nsimulator: { provider: anthropic }\n', [`${F}/ok.yml`]: OK_FIXTURE });
    expect(simulatorConfig(other.suite!.config)).toMatchObject({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', apiKey: null });
    const none = await load({ [`${F}/ok.yml`]: OK_FIXTURE });
    expect(simulatorConfig(none.suite!.config)).toBeNull();
    const bad = await load({ [C]: 'simulator: { baseUrl: "ftp://x", modle: m }\n', [`${F}/ok.yml`]: OK_FIXTURE });
    // Both at once: the misspelt key does not hide the address's check.
    expect(brief(bad.errors)).toEqual([`${C}:1: simulator.baseUrl "ftp://x" uses ftp, not http or https`, `${C}:1: unknown key "modle" in simulator; allowed keys: provider, baseUrl, model, apiKey`]);
    const url = await load({ [C]: 'simulator: { baseUrl: "ftp://x" }\n', [`${F}/ok.yml`]: OK_FIXTURE });
    expect(brief(url.errors)).toEqual([`${C}:1: simulator.baseUrl "ftp://x" uses ftp, not http or https`]);
  });
});

describe('a simulated user with no model to play it', () => {
  it('warns (a baseline can still be replayed) and names the fix', async () => {
    const r = await load({ [`${P}/a.yml`]: 'label: a\nuser: { goal: G, maxTurns: 2 }\nexpect: { conversations: [c] }\n' });
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([`${P}/a.yml:1: 1 persona script has a simulated user (first: "a") but no simulator is configured: a turn the baseline cannot replay is not evaluated`]);
    const configured = await load({ [C]: 'simulator: { provider: anthropic, apiKey: k }\n', [`${P}/a.yml`]: 'label: a\nuser: { goal: G, maxTurns: 2 }\nexpect: { conversations: [c] }\n' });
    expect(configured.warnings).toEqual([]);
  });
});

describe('the estimate of a simulated script', () => {
  it('maxTurns agent turns (+ the welcome turn) and maxTurns simulator calls, plus its criteria', () => {
    const expect_ = { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: ['Confirmed the refund'] };
    const simulated = { opening: null, followUps: [], expect: expect_, user: { goal: 'g', instructions: null, maxTurns: 8 } };
    // 9 agent turns x 0.01 + 8 simulator calls x 0.005 + 1 criterion x 0.005
    expect(estimateCost([], DEFAULT_COST, false, { welcomeTurn: true }, [simulated]).usd).toBe(0.135);
    expect(estimateCost([], { ...DEFAULT_COST, simulatorCallUsd: 0.02 }, false, { welcomeTurn: false }, [simulated, simulated]).usd).toBe(2 * (0.08 + 0.16 + 0.005));
  });

  it('with a scripted opening, one simulator call fewer: the simulator never writes the opening', () => {
    const expect_ = { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] };
    const opened = { opening: 'I want my money back', followUps: [], expect: expect_, user: { goal: 'g', instructions: null, maxTurns: 8 } };
    // 8 agent turns x 0.01 + 7 simulator calls x 0.02 (messages 2 to 8)
    expect(estimateCost([], { ...DEFAULT_COST, simulatorCallUsd: 0.02 }, false, { welcomeTurn: false }, [opened]).usd).toBe(0.22);
    // One message turn, the opening: no simulator call at all.
    expect(estimateCost([], { ...DEFAULT_COST, simulatorCallUsd: 0.02 }, false, { welcomeTurn: false }, [{ ...opened, user: { ...opened.user, maxTurns: 1 } }]).usd).toBe(0.01);
  });
});
