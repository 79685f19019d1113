import { describe, expect, it } from 'vitest';
import { panelMembers } from '../../src/config.js';
import { checkBaselineFile, serializeBaseline } from '../../src/suite/baselines.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

// judge.panel in config.yml (docs/judges.md, "Panels"): sizes, inheritance from `judge`, errors
// with file and line, keys kept secret, and the Action's judge inputs still reaching the members.

const PANEL = `judge:
  provider: openai
  baseUrl: https://gateway.example/v1
  model: gpt-4o
  apiKey: \${JUDGE_API_KEY}
  concurrency: 2
  retries: 1
  panel:
    - { model: gpt-4o-mini }
    - { provider: anthropic, apiKey: "\${ANTHROPIC_KEY}", label: "claude (cheap)" }
    - { baseUrl: "https://other.example/v1/", concurrency: 1 }
`;
const ENV = { JUDGE_API_KEY: 'sk-openai-111', ANTHROPIC_KEY: 'sk-ant-222' };

describe('judge.panel in config.yml', () => {
  it('keeps the keys each member sets; the rest come from judge (another provider: its own defaults, never the judge key)', async () => {
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: PANEL }, { env: ENV });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const judge = r.suite!.config.judge!;
    const members = panelMembers(judge)!;
    const common = { timeoutMs: 30_000, backoffMs: 250 };
    expect(members).toEqual([
      { ...common, provider: 'openai', baseUrl: 'https://gateway.example/v1', model: 'gpt-4o-mini', apiKey: 'sk-openai-111', retries: 1, concurrency: 2, label: null },
      { ...common, provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', apiKey: 'sk-ant-222', retries: 1, concurrency: 2, label: 'claude (cheap)' },
      { ...common, provider: 'openai', baseUrl: 'https://other.example/v1', model: 'gpt-4o', apiKey: 'sk-openai-111', retries: 1, concurrency: 1, label: null },
    ]);
    expect(r.suite!.config.secrets).toEqual(expect.arrayContaining(['sk-openai-111', 'sk-ant-222']));
  });

  it('a judge without a panel has none', async () => {
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: 'judge: { provider: openai, apiKey: k }\n' });
    expect(r.errors).toEqual([]);
    expect(panelMembers(r.suite!.config.judge!)).toBeNull();
    expect(r.suite!.config.judge).not.toHaveProperty('panel');
  });

  it.each([
    [1, 'add members until there are 3, or remove judge.panel to use the judge alone'],
    [2, 'add members until there are 3, or remove judge.panel to use the judge alone'],
    [4, 'remove one member to make 3, or add one to make 5'],
    [7, 'remove 2 members to make 5'],
  ])('refuses a panel of %i, at its line, naming the sizes allowed', async (n, fix) => {
    const members = Array.from({ length: n }, (_, i) => `    - { model: m${i} }`).join('\n');
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: `judge:\n  apiKey: k\n  panel:\n${members}\n` });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${C}:4: judge.panel has ${n} member${n === 1 ? '' : 's'}; a panel has 3 or 5 members (an odd number, so that a majority always exists)`,
    ]);
    expect(r.errors[0]!.fix).toBe(fix);
  });

  it('accepts 5 members', async () => {
    const members = Array.from({ length: 5 }, (_, i) => `    - { model: m${i} }`).join('\n');
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: `judge:\n  apiKey: k\n  panel:\n${members}\n` });
    expect(r.errors).toEqual([]);
    expect(panelMembers(r.suite!.config.judge!)!.map((m) => m.model)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it("refuses a member's bad baseUrl and unknown key at their lines, all at once", async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [C]: `judge:
  apiKey: k
  panel:
    - { model: a }
    - { model: b, baseUrl: "ftp://nope" }
    - { model: c }
`,
    });
    expect(brief(r.errors)).toEqual([`${C}:5: judge.panel[1].baseUrl "ftp://nope" uses ftp, not http or https`]);
    const r2 = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: 'judge:\n  panel:\n    - { model: a }\n    - { modle: b }\n    - { model: c }\n' });
    expect(r2.suite).toBeNull();
    expect(r2.errors).toHaveLength(1);
    expect(r2.errors[0]).toMatchObject({ file: C, line: 4 });
    expect(r2.errors[0]!.message).toMatch(/modle/);
  });

  it('warns about a member with no API key for a provider of its own, at its line, never quoting a key', async () => {
    const r = await load(
      { [`${F}/ok.yml`]: OK_FIXTURE, [C]: 'judge:\n  apiKey: ${JUDGE_API_KEY}\n  panel:\n    - { model: a }\n    - { provider: anthropic }\n    - { model: c }\n' },
      { env: ENV },
    );
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([
      `${C}:5: judge.panel[1] (anthropic claude-haiku-4-5) has no API key: anthropic will refuse its calls and the panel may not reach a majority`,
    ]);
    expect(JSON.stringify(r.warnings)).not.toContain('sk-openai-111');
  });

  it("the Action's judge inputs still work: members that do not set a key follow the overridden judge", async () => {
    const r = await load(
      { [`${F}/ok.yml`]: OK_FIXTURE, [C]: PANEL },
      { env: ENV, overrides: { judge: { model: 'input-model', apiKey: 'input-key-333' } } },
    );
    expect(r.errors).toEqual([]);
    const members = panelMembers(r.suite!.config.judge!)!;
    expect(members.map((m) => [m.model, m.apiKey])).toEqual([
      ['gpt-4o-mini', 'input-key-333'],
      ['claude-haiku-4-5', 'sk-ant-222'],
      ['input-model', 'input-key-333'],
    ]);
    // A change of the judge's provider keeps the panel (it comes only from config.yml).
    const r2 = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [C]: PANEL }, { env: ENV, overrides: { judge: { provider: 'anthropic' } } });
    expect(panelMembers(r2.suite!.config.judge!)).toHaveLength(3);
  });
});

describe('a baseline that keeps a panel result', () => {
  const members = (scores: (number | null)[]) =>
    scores.map((score, i) => ({ label: `openai m${i}`, score, rationale: score === null ? null : `r${i}`, reason: score === null ? 'HTTP 503' : null }));
  const baseline = (verdict: 'pass' | 'fail', scores: (number | null)[], score: number) => ({
    label: 'b',
    reply: 'x',
    route: null,
    verdict,
    judge: { score, rationale: 'r0', fingerprint: { model: 'panel: openai/m0, openai/m1, openai/m2', promptVersion: '2', criteria: [{ criterion: 'c', threshold: 0.7 }] }, members: members(scores) },
    acceptedAt: '2026-12-01T00:00:00Z',
    commit: null,
  });

  it('round-trips through the stable form, members in order', () => {
    const b = baseline('pass', [0.9, 0.9, 0.2], 0.9);
    const text = serializeBaseline(b);
    const read = checkBaselineFile('b.json', 'b', text);
    expect(read.errors).toEqual([]);
    expect(read.baseline).toEqual(b);
  });

  it('is checked against its members\' majority, not the median: a hand edit that contradicts it is refused at its line', () => {
    // Median 0.75 >= 0.7, but only 2 of 5 members pass: the verdict the panel gave is fail.
    const five = { ...baseline('fail', [0.9, 0.9, 0.6, 0.1, null], 0.75) };
    five.judge.fingerprint.model = 'panel: five';
    expect(checkBaselineFile('b.json', 'b', serializeBaseline(five)).errors).toEqual([]);
    const edited = { ...five, verdict: 'pass' as const };
    const r = checkBaselineFile('b.json', 'b', serializeBaseline(edited));
    expect(r.baseline).toBeNull();
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '19: baseline: judge.members (a panel) give fail (2 of 5 pass at threshold 0.7), which contradicts the accepted verdict "pass"',
    ]);
  });
});

describe('a persona baseline that keeps a panel result per criterion', () => {
  const persona = (verdict: 'pass' | 'fail', scores: number[]) => ({
    label: 'p',
    kind: 'persona' as const,
    transcript: [{ message: 'hi', reply: 'hello', route: null }],
    visited: [],
    outcome: null,
    verdict,
    judge: {
      model: 'panel: openai/m0, openai/m1, openai/m2',
      promptVersion: '2',
      transcriptHash: 'h',
      criteria: [{ criterion: 'c', threshold: 0.7, score: 0.9, rationale: 'r', members: scores.map((score, i) => ({ label: `m${i}`, score, rationale: 'r', reason: null })) }],
    },
    acceptedAt: '2026-12-01T00:00:00Z',
    commit: null,
  });

  it('round-trips with its members; a pass the members do not give by majority is refused', () => {
    const ok = persona('pass', [0.9, 0.9, 0.2]);
    const read = checkBaselineFile('p.json', 'p', serializeBaseline(ok));
    expect(read.errors).toEqual([]);
    expect(read.persona).toEqual(ok);
    const edited = checkBaselineFile('p.json', 'p', serializeBaseline(persona('pass', [0.9, 0.2, 0.2])));
    expect(edited.persona).toBeUndefined();
    expect(edited.errors.map((e) => e.message)).toEqual([
      'persona baseline: judge.criteria[0].members (a panel) do not pass by majority at threshold 0.7, which contradicts the accepted verdict "pass"',
    ]);
  });
});
