// `agent-replay accept` writes and clears variants (docs/meaning.md, "Variants" and "Repeats"), end
// to end: a real run against a loopback agent, its record given the meanings the runner records
// (drift.meaning, each attempt's meaning against attempt 1), real baseline files read and written,
// and the next run reading the variants back.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeRecord } from '../../src/record/index.js';
import type { FixtureRecord, Meaning } from '../../src/types.js';
import type { AgentHandler } from '../support/agent-server.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { docsUrl } from '../../src/version.js';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

const OLD_REFUND = 'Refunds are accepted within 30 days.';
const NEW_REFUND = 'You can return items within 30 days for a full refund.';
/** Each attempt of "wobbly" words the same facts its own way; attempt 2 of "jumpy" changes a number. */
const WOBBLY = ['Shipping is free over $50.', 'Orders over $50 ship for free.', 'Free shipping on orders above $50.'];
const JUMPY = ['Returns within 30 days.', 'Returns within 14 days.', 'You may return items for 30 days.'];

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
  const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
  const replies: Record<string, string> = { refund: NEW_REFUND, hours: 'Open 9 to 5.', sundays: 'Closed on Sundays.', wobbly: WOBBLY[attempt - 1] ?? '?', jumpy: JUMPY[attempt - 1] ?? '?' };
  return { json: { reply: replies[String(body.message)] ?? '?', route: null, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: refund, message: refund, assert: { contains: "30 days" } }
  - { label: hours, message: hours }
  - { label: sundays, message: sundays }
  - { label: wobbly, message: wobbly, assert: { contains: "50" }, repeat: { count: 3 } }
  - { label: jumpy, message: jumpy, repeat: { count: 3 } }
`;

const REWORDED: Meaning = { value: 'reworded', by: 'judge', detail: 'the same refund window', score: 0.93, reused: false };
const changed = (from: string, to: string): Meaning => ({
  value: 'changed',
  by: 'facts',
  detail: `numbers ${from} → ${to}`,
  facts: { baseline: [{ kind: 'number', value: from }], now: [{ kind: 'number', value: to }] },
});

/** The meanings the runner records for this run: on the drift of the items with a baseline, on each attempt after the first. */
function withMeanings(f: FixtureRecord): FixtureRecord {
  if (f.errored) return f;
  if (f.label === 'refund') return fixtureRecord({ drift: { ...f.drift, meaning: REWORDED } }, f);
  if (f.label === 'sundays') return fixtureRecord({ drift: { ...f.drift, meaning: { value: 'formatting', by: 'normalize', detail: null } } }, f);
  if (f.label === 'hours') return fixtureRecord({ drift: { ...f.drift, meaning: changed('6', '5') } }, f);
  const meanings = f.label === 'wobbly' ? [REWORDED, REWORDED] : [changed('30', '14'), REWORDED];
  return fixtureRecord({ attempts: f.attempts?.map((a, i) => (i === 0 ? a : { ...a, meaning: meanings[i - 1] })) }, f);
}

describe('accept writes variants', () => {
  it('keeps the previous reply of a reworded item, clears a changed one, accepts reworded attempts with two variants and refuses a changed attempt', async () => {
    const agent = await serve(handler);
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`,
      fixtures: { 'f.yml': FIXTURES },
      baselines: [
        { ...baseline('refund', OLD_REFUND, null, 'pass'), variants: ['Returns: 30 days.'] },
        { ...baseline('hours', 'Open 9 to 6.', null, 'pass'), variants: ['We open at 9 and close at 6.'] },
        baseline('sundays', '**Closed** on Sundays.', null, 'pass'),
      ],
    });
    const dir = join(cwd, '.agent-replay', 'baselines');
    const stored = async (label: string) => JSON.parse(await readFile(join(dir, `${label}.json`), 'utf8')) as Record<string, unknown>;

    expect((await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    // The run read the stored variants into its record.
    expect(record.fixtures.find((f) => f.label === 'refund')?.baseline?.variants).toEqual(['Returns: 30 days.']);
    await writeFile(join(cwd, 'r.json'), serializeRecord({ ...record, fixtures: record.fixtures.map(withMeanings) }));

    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    // The refusal says what to do, as the comment's sentence does (report/blocks.ts refusalSentence).
    expect(r.stdout).toContain(
      'refused   jumpy: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14; find out why the agent answers differently, or accept after a run whose attempts agree · .agent-replay/fixtures/f.yml:6\n',
    );
    expect(r.stdout).toContain('4 accepted, 1 refused, 0 unchanged');
    // A reworded item is accepted for its wordings, as the comment's "Nothing needs accepting" says: its line says so.
    expect(r.stdout).toContain('accepted  refund (pass; reworded: its earlier wording kept as a known variant) → ');
    expect(r.stdout).toContain('accepted  hours (pass) → ');
    // Reworded in formatting only: the new wording is stored and the earlier one is not a variant, as the line says.
    expect(r.stdout).toContain('accepted  sundays (pass; reworded: its new wording stored, the earlier one differing only in formatting) → ');
    expect(await stored('sundays')).toMatchObject({ reply: 'Closed on Sundays.' });
    expect(await stored('sundays')).not.toHaveProperty('variants');
    expect(r.stdout).toContain('accepted  wobbly (pass) → ');

    // Reworded: the previous reply and its variants, newest first, right under the new reply.
    expect(await stored('refund')).toMatchObject({ reply: NEW_REFUND, variants: [OLD_REFUND, 'Returns: 30 days.'] });
    expect(await readFile(join(dir, 'refund.json'), 'utf8')).toContain(`"reply": "${NEW_REFUND}",\n  "variants": [\n    "${OLD_REFUND}",\n    "Returns: 30 days."\n  ],\n  "route"`);
    // Changed in meaning: cleared.
    const hours = await stored('hours');
    expect(hours.reply).toBe('Open 9 to 5.');
    expect(hours).not.toHaveProperty('variants');
    // Three reworded attempts: attempt 1's reply, the other two its variants, with the attempts.
    expect(await stored('wobbly')).toMatchObject({ reply: WOBBLY[0], variants: [WOBBLY[1], WOBBLY[2]], attempts: { passed: 3, total: 3 } });

    // The next run compares against them: its record carries the variants, and accepting it again writes nothing for refund.
    expect((await cli(['run', '--out', 'r2.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const next = await readResults(join(cwd, 'r2.json'));
    expect(next.fixtures.find((f) => f.label === 'refund')?.baseline?.variants).toEqual([OLD_REFUND, 'Returns: 30 days.']);
    expect(next.fixtures.find((f) => f.label === 'wobbly')?.baseline?.variants).toEqual([WOBBLY[1], WOBBLY[2]]);
    const before = await readFile(join(dir, 'refund.json'), 'utf8');
    const again = await cli(['accept', '--results', 'r2.json', '--only', 'refund,hours'], cwd);
    expect(again.stdout).toContain('0 accepted, 0 refused, 2 unchanged');
    expect(await readFile(join(dir, 'refund.json'), 'utf8')).toBe(before);
  });
});

describe('repeated items against an agent that rewords every reply, without a judge', () => {
  it('are refused as not checked for meaning, the reason and its fix said once for every item that shares it, each item on its own line', async () => {
    // Every attempt words the same facts anew; no judge, so meaning.check is facts (docs/meaning.md, "Configuration").
    const words: Record<string, string[]> = {
      wobbly: WOBBLY,
      refund: ['Refunds within 30 days.', 'You have 30 days to get a refund.', 'A refund is possible for 30 days.'],
    };
    const rewording: AgentHandler = (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
      return { json: { reply: words[String(body.message)]?.[attempt - 1] ?? 'Open 9 to 5.', route: null, ended: false } };
    };
    const agent = await serve(rewording);
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`,
      fixtures: {
        'f.yml': `fixtures:
  - { label: wobbly, message: wobbly, repeat: { count: 3 } }
  - { label: hours, message: hours, repeat: { count: 3 } }
  - { label: refund, message: refund, repeat: { count: 3 } }
`,
      },
    });
    expect((await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        "refused   2 items: replies vary across 3 attempts, their meaning not checked: attempts 2 and 3: the facts are the same and meaning.check is facts, which asks no model; have a model check their meaning (meaning.check: judge, the default once the suite's config has a judge: ",
        '), or accept after a run whose attempts agree\n          wobbly · .agent-replay/fixtures/f.yml:2\n          refund · .agent-replay/fixtures/f.yml:4\n',
      ].join(`${docsUrl('meaning.md', 'Configuration')}`),
    );
    expect(r.stdout.split('their meaning not checked')).toHaveLength(2);
    // The item whose attempts agree word for word is accepted.
    expect(r.stdout).toContain('accepted  hours (pass) → ');
    expect(r.stdout).toContain('1 accepted, 2 refused, 0 unchanged');
  });
});

describe('a refusal read from the results file, on the terminal', () => {
  it('shows control sequences and bidi overrides as escapes (a judge\'s words, a hand-edited record)', async () => {
    const agent = await serve(handler);
    const cwd = await makeProject({ config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`, fixtures: { 'f.yml': FIXTURES } });
    expect((await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    const hostile: Meaning = { value: 'changed', by: 'judge', detail: 'numbers \u001b[2J\u001b]0;owned\u0007 30 \u202E→ 14', score: 0.1, reused: false };
    const fixtures = record.fixtures.map((f) => (f.label === 'jumpy' ? fixtureRecord({ attempts: f.attempts?.map((a, i) => (i === 0 ? a : { ...a, meaning: hostile })) }, f) : f));
    await writeFile(join(cwd, 'r.json'), serializeRecord({ ...record, fixtures }));
    const r = await cli(['accept', '--results', 'r.json', '--only', 'jumpy'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const shown = 'numbers \\u001b[2J\\u001b]0;owned\\u0007 30 \\u202e→ 14';
    expect(r.stdout).toContain(`refused   jumpy: replies differ in meaning across 3 attempts: attempt 2: ${shown}; attempt 3: ${shown}; find out why`);
    for (const c of ['\u001b', '\u0007', '\u202E']) expect(r.stdout).not.toContain(c);
  });
});
