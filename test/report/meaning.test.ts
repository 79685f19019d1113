// Meaning on every surface (docs/meaning.md): a Reworded section after Changed, counted in the
// headline and shown as one collapsed block; "changed in meaning: …" and "meaning not checked: …"
// on changed items; `fail-on: meaning_changed`; `compare` naming "changed in meaning" and
// "reworded". Goldens: meaning.*.

import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/evaluate/compare.js';
import { gateRun, isReworded } from '../../src/evaluate/index.js';
import { renderCompareText } from '../../src/report/compare.js';
import { renderHtml } from '../../src/report/html.js';
import { itemsData, type PersonaData } from '../../src/report/html/data.js';
import { SCRIPT } from '../../src/report/html/assets.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import { buildModel, headlineText, meaningModelShown, namesModel, WELCOME_TURN } from '../../src/report/model.js';
import { COMMENT_MAX_CHARS, COMMENT_REWORDED_ROWS } from '../../src/report/profile.js';
import type { FixtureRecord, Meaning, PersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, persona, personaBaseline, refundTurns, resetLines, route, run, turn } from './fixtures.js';
import { differing, meaningRun, scriptChangedAtTurn3, scriptReworded } from './meaning-fixtures.js';
import { expectGolden } from './helpers.js';
import { docsUrl } from '../../src/version.js';

const MEANING = meaningRun();
const labelsOf = (items: readonly { label: string }[]): string[] => items.map((i) => i.label);

describe('sections', () => {
  it('puts replies that differ only in wording under Reworded, every other change under Changed, and counts both in the headline', () => {
    const model = buildModel(MEANING);
    expect(labelsOf(model.sections.reworded)).toEqual(['bold-greeting', 'known-wording', 'reworded-by-judge', 'greeting-dialog']);
    expect(labelsOf(model.sections.changed)).toEqual(['refund-window', 'receipt-needed', 'store-hours', 'check-off', 'slow-reworded', 'refund-dialog']);
    expect(labelsOf(model.sections.unchanged)).toEqual(['unchanged-faq']);
    expect(headlineText(model)).toContain('6 changed · 4 reworded · 1 unchanged');
  });

  it('a reworded reply whose route differs, or whose verdict changed, is Changed', () => {
    const m: Meaning = { value: 'formatting', by: 'normalize', detail: null };
    const routed = differing('r', 'A.', 'a', m, { drift: { reply: 'different', route: 'different', verdict: 'still_passing', meaning: m } } as Partial<FixtureRecord>);
    const passing = differing('p', 'A.', 'a', m, { drift: { reply: 'different', route: 'same', verdict: 'newly_passing', meaning: m } } as Partial<FixtureRecord>);
    expect(isReworded(routed)).toBe(false);
    expect(isReworded(passing)).toBe(false);
    expect(buildModel(run([routed, passing])).sections.changed).toHaveLength(2);
  });
});

describe('fail-on: meaning_changed', () => {
  it('is met by items changed in meaning (facts, judge, a script turn), never by unchecked or reworded ones', () => {
    const g = gateRun(MEANING, ['meaning_changed']);
    expect(g.failed).toBe(true);
    expect(g.offenders).toEqual([{ condition: 'meaning_changed', labels: ['refund-window', 'receipt-needed', 'refund-dialog'], fixtures: 2, scripts: 1 }]);
    const quiet = run(MEANING.fixtures.filter((f) => !['refund-window', 'receipt-needed'].includes(f.label)), { personas: [scriptReworded()] });
    expect(gateRun(quiet, ['newly_failing', 'meaning_changed']).failed).toBe(false);
  });
});

describe('surfaces (goldens)', () => {
  it("the run's data agrees with itself: each fact a meaning names is in the reply it is said of", () => {
    // A golden whose line says "numbers 50 → 90" over a baseline with no 50 misleads its reviewer.
    const said = (meaning: Meaning | null | undefined, before: string | null | undefined, now: string | null, where: string): void => {
      for (const f of meaning?.facts?.baseline ?? []) expect(before ?? '', `${where}: the baseline says ${f.value}`).toContain(f.value);
      for (const f of meaning?.facts?.now ?? []) expect(now ?? '', `${where}: the new reply says ${f.value}`).toContain(f.value);
    };
    for (const f of MEANING.fixtures) said(f.drift?.meaning, f.baseline?.reply, f.reply, f.label);
    for (const p of MEANING.personas ?? []) p.turns.forEach((t, i) => said(t.meaning, p.baseline?.transcript[i]?.reply, t.reply, `${p.label} turn ${t.index}`));
  });

  it('PR comment, job summary, terminal and JUnit', () => {
    expectGolden('meaning.comment.md', renderComment(MEANING, ctx));
    expectGolden('meaning.summary.md', renderSummary(MEANING, ctx));
    expectGolden('meaning.terminal.txt', renderTerminal(MEANING, { color: false }));
    expectGolden('meaning.junit.xml', renderJUnit(MEANING));
  });

  it('the comment names the changed meaning, escapes the judge difference, and gathers reworded items in one collapsed block', () => {
    const md = renderComment(MEANING, ctx);
    expect(md).toContain('changed in meaning: numbers 30 → 14');
    expect(md).toContain('meaning not checked: meaning judge unreachable: no answer from the meaning judge within 30,000\u00a0ms');
    expect(md).toContain('turn 3 changed in meaning: numbers 50 → 90');
    // The script's first difference is a reworded turn 1; the turn that changed in meaning gets its own diff.
    // With the message it answered, as the first difference shows its own.
    expect(md).toContain('**Turn 3 changed in meaning\\: numbers 50 → 90**\n\n**Turn 3 · User**: It arrived broken\n\n**Baseline → new reply**');
    // The turn that decided the drift comes first; the reworded first difference follows, named as such.
    const script = md.slice(md.indexOf('<b>refund-dialog</b>'));
    const decided = script.indexOf('**Turn 3 changed in meaning');
    expect(decided).toBeGreaterThan(-1);
    expect(script.indexOf('**First difference from the baseline: Turn 1** (reworded)')).toBeGreaterThan(decided);
    const t = renderTerminal(MEANING, { color: false });
    const lines = t.slice(t.indexOf('refund-dialog'));
    expect(lines.indexOf('turn 3 changed in meaning: numbers 50 → 90')).toBeGreaterThan(-1);
    expect(lines.indexOf('Turn 1 reply vs baseline, reworded (- baseline, + new')).toBeGreaterThan(lines.indexOf('turn 3 changed in meaning: numbers 50 → 90'));
    // report.html's transcript says each differing turn's meaning, so the turn that decided is told from the rewording.
    const turns = (itemsData([scriptChangedAtTurn3()])[0] as PersonaData).turns;
    expect(turns.map((x) => x.baseline?.meaning ?? null)).toEqual([null, 'reworded', null, 'changed in meaning: numbers 50 → 90']);
    expect(md).not.toContain('<b>@admin</b>');
    expect(md).not.toContain('@admin');
    const section = md.slice(md.indexOf('Reworded (4)'));
    expect(section.startsWith('Reworded (4)')).toBe(true);
    expect(section).toContain('<details><summary>4 reworded items');
    // One line per item, how it was decided, and inside its file's link (a summary, a control, holds
    // no link) and its diff; nothing else of the item.
    expect(section).toContain('<summary><b>reworded-by-judge</b> · judge 0.93 · suite.yml:30</summary>\n\n[suite.yml\\:30](https://github.com/acme/shop-bot/blob/');
    expect(section).toContain('<summary><b>known-wording</b> · known variant · ');
    expect(section).toContain('<summary><b>bold-greeting</b> · formatting · ');
    // A script's welcome turn is named as the transcript names it, not a bare "Turn 0", and as
    // report.html names it: "Turn 0 (welcome)" on every surface (docs/meaning.md, "In the comment").
    expect(section).toContain('**Turn 0 (welcome)**\n\n');
    expect(md).toContain('**Turn 0 (welcome) · Agent**');
    expect(SCRIPT).toContain("'Turn 0 (welcome) \\u00b7 Agent'");
    expect(section.slice(0, section.indexOf('Unchanged ('))).not.toContain('Message for');
  });

  it('a script whose first difference is only its message shows the turn that changed in meaning first, with its diff, on the terminal as in the comment', () => {
    // The script's turn 1 message was edited (its reply the same); turn 3 changed in meaning.
    const changed = scriptChangedAtTurn3();
    const turns = changed.turns.map((t) => (t.index === 1 ? { ...t, message: 'I would like a refund', reply: (changed.baseline?.transcript[1]?.reply as string), meaning: undefined } : t));
    const script = { ...changed, turns } as PersonaRecord;
    const t = renderTerminal(run([], { personas: [script] }), { color: false });
    const lines = t.slice(t.indexOf('refund-dialog')).split('\n');
    const decided = lines.findIndex((l) => l.trim() === 'Turn 3 changed in meaning: numbers 50 → 90 (- baseline, + new, changed words in ⟦ ⟧):');
    expect(decided).toBeGreaterThan(-1);
    // The diff shows the 50 and the 90 the line names.
    expect(lines.slice(decided + 1, decided + 4)).toEqual(['        @@ 1 unchanged sentence @@', '        - A colleague will refund ⟦50⟧ EUR within 5 days.', '        + A colleague will refund ⟦90⟧ EUR within 5 days.']);
    const first = lines.findIndex((l) => l.trim() === "first difference from the baseline: Turn 1: the script's message changed, the reply the same");
    expect(first).toBeGreaterThan(decided);
    // Only its route: which route, from which.
    const routed = { ...changed, turns: changed.turns.map((x) => (x.index === 1 ? { ...turns[1], message: x.message, route: route('refunds', 'lookup') } : x)) } as PersonaRecord;
    expect(renderTerminal(run([], { personas: [routed] }), { color: false })).toContain('\n      first difference from the baseline: Turn 1: route refunds / identify → refunds / lookup, the reply the same\n');
    // The comment, from the same record: the same turn first, the first difference after.
    const md = renderComment(run([], { personas: [script] }), ctx);
    expect(md.indexOf('**First difference from the baseline: Turn 1**')).toBeGreaterThan(md.indexOf('**Turn 3 changed in meaning'));
  });

  it('a script whose line names no turn of its first difference: that difference says its meaning, and an edited message is shown where the line names it (comment and terminal)', () => {
    // Found walking persona scripts: the welcome turn only reworded was shown as a plain first
    // difference under "turns 4 → 3" or "the user's message of turn 2 is not the baseline's", and the
    // edited follow-up the line names was shown nowhere but report.html.
    const reworded = { value: 'reworded', by: 'judge', detail: null, score: 0.93 } as const;
    const base = refundTurns();
    const welcome = turn(0, null, 'Hello, Shop Bot here! What can I do for you?', route('main', 'welcome'), { meaning: reworded });
    const edited = persona('refund-edited', {
      baseline: personaBaseline('refund-edited', base),
      turns: base.map((t) => (t.index === 0 ? welcome : t.index === 2 ? { ...t, message: 'Order 1234 please' } : t)),
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'turns', detail: "the user's message of turn 2 is not the baseline's" } },
    } as Partial<PersonaRecord>);
    const shorter = persona('refund-shorter', {
      baseline: personaBaseline('refund-shorter', base),
      turns: [welcome, ...base.slice(1, 3)],
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'turns', detail: 'turns 4 \u2192 3' } },
    } as Partial<PersonaRecord>);
    const r = run([], { personas: [edited, shorter] });
    const md = renderComment(r, ctx);
    const one = md.slice(md.indexOf('<b>refund-edited</b>'), md.indexOf('<b>refund-shorter</b>'));
    const decided = one.indexOf("**Turn 2: the user's message is not the baseline's**\n\n**Turn 2 · User**: Order 1234 please\n\nThe script's message changed; the baseline sent: Order 1234");
    expect(decided).toBeGreaterThan(-1);
    expect(one.indexOf(`**First difference from the baseline: ${WELCOME_TURN}** (reworded)`)).toBeGreaterThan(decided);
    expect(md.slice(md.indexOf('<b>refund-shorter</b>'))).toContain(`**First difference from the baseline: ${WELCOME_TURN}** (reworded)`);
    const t = renderTerminal(r, { color: false });
    const lines = t.slice(t.indexOf('refund-edited')).split('\n').map((l) => l.trim());
    // Named as the diff below it names its turn ("Turn 2 reply vs baseline"): turnName.
    const said = lines.indexOf("Turn 2: the script's message changed; the baseline sent: Order 1234");
    expect(said).toBeGreaterThan(-1);
    expect(lines.findIndex((l) => l.startsWith(`${WELCOME_TURN} reply vs baseline, reworded (- baseline, + new`))).toBeGreaterThan(said);
    expect(t.slice(t.indexOf('refund-shorter'))).toContain(`${WELCOME_TURN} reply vs baseline, reworded (- baseline, + new`);
    // The edited turn is the first difference, its reply another: the terminal's diff says the message changed, as the comment does.
    const at2 = { ...edited, turns: edited.turns.map((x, i) => (x.index === 0 ? (base[i] as typeof x) : x.index === 2 ? { ...x, reply: 'Order 1234: a kettle. What went wrong?' } : x)) } as PersonaRecord;
    const both = renderTerminal(run([], { personas: [at2] }), { color: false });
    expect(both).toContain("Turn 2 reply vs baseline, the script's message changed (- baseline, + new");
    expect(both).not.toContain('Turn 2: the script');
    expect(renderComment(run([], { personas: [at2] }), ctx)).toContain("**First difference from the baseline: Turn 2**\n\n**Turn 2 · User**: Order 1234 please\n\nThe script's message changed; the baseline sent: Order 1234");
    // A line that names the turn already does not say it twice.
    const atTurn3 = scriptChangedAtTurn3();
    const first3 = { ...atTurn3, turns: atTurn3.turns.map((x, i) => (x.index === 1 ? (base[i] as typeof x) : x)) } as PersonaRecord;
    expect(renderTerminal(run([], { personas: [first3] }), { color: false })).toContain('Turn 3 reply vs baseline (- baseline, + new');
    expect(renderComment(run([], { personas: [first3] }), ctx)).toContain('**First difference from the baseline: Turn 3**\n');
  });

  it('the terminal gives a reworded item one line', () => {
    const text = renderTerminal(MEANING, { color: false });
    const block = text.slice(text.indexOf('Reworded (4)'));
    const lines = block.split('\n').slice(1, 5);
    expect(lines[2]).toMatch(/^ {2}≈ reworded-by-judge · reworded \(judge 0\.93\) · \.agent-replay\/fixtures\/suite\.yml:\d+$/);
    expect(block.split('\n')[5]).not.toMatch(/^ {4}/);
  });

  it('JUnit: a reworded item passes with its line in system-out; a changed one says how its meaning changed', () => {
    const xml = renderJUnit(MEANING);
    const testcase = (label: string): string => new RegExp(`<testcase [^>]*name="${label}"[^>]*?(/>|>[\\s\\S]*?</testcase>)`).exec(xml)?.[0] ?? '';
    expect(testcase('reworded-by-judge')).toContain('<system-out>pass · still passing · reply changed · reworded (judge 0.93)</system-out>');
    expect(testcase('refund-window')).toContain('changed in meaning: numbers 30 → 14');
    expect(testcase('receipt-needed')).toContain('&lt;b&gt;@admin&lt;/b&gt;');
    expect(xml).not.toContain('<failure');
  });

  it('report.html shows the Reworded section and escapes the judge difference', () => {
    const html = renderHtml(MEANING, {});
    expect(html).toContain('Reworded');
    expect(html).toContain('changed in meaning: numbers 30 → 14');
    expect(html).not.toContain('<b>@admin</b>');
  });
});

describe('the meaning judge named beside the judge (docs/meaning.md, "The meaning judge")', () => {
  const withMeaning = (judge: string | null, model: string | null): RunRecord => ({ ...MEANING, judge: { name: judge }, meaning: { check: 'judge', model, promptVersion: 'meaning-1' } });
  const surfaces = (r: RunRecord): string[] => [renderComment(r, ctx), renderSummary(r, ctx), renderTerminal(r, { color: false }), renderHtml(r, {})];

  it('names a meaning.model of its own on the comment, summary, terminal and report.html, escaped', () => {
    const [comment, summary, terminal, html] = surfaces(withMeaning('openai gpt-4o-mini', 'gpt-4.1-mini<b>'));
    expect(comment).toContain('judge: openai gpt-4o-mini · meaning judge: gpt-4.1-mini&lt;b&gt;');
    expect(summary).toContain('judge: openai gpt-4o-mini · meaning judge: gpt-4.1-mini&lt;b&gt;');
    expect(terminal).toContain('judge: openai gpt-4o-mini · meaning judge: gpt-4.1-mini<b>');
    expect(html).toContain('judge openai gpt-4o-mini · meaning judge gpt-4.1-mini&lt;b&gt;');
    // A run whose only model is the meaning judge's names it too.
    expect(renderTerminal(withMeaning(null, 'gpt-4.1-mini'), { color: false })).toContain('meaning judge: gpt-4.1-mini');
  });

  it('says nothing more when the judge\u2019s name names the model: the judge itself, a member of its panel, or a label whose words spell it (the demo\u2019s)', () => {
    for (const r of [withMeaning('openai gpt-4o-mini', 'gpt-4o-mini'), withMeaning('panel of 3: openai gpt-4o-mini, anthropic claude-haiku-4-5, openai o3', 'claude-haiku-4-5'), withMeaning('demo judge (keyword rules, not a real model)', 'demo-judge'), { ...withMeaning('openai gpt-4o-mini', 'gpt-4.1-mini'), meaning: { check: 'facts', model: null, promptVersion: 'meaning-1' } } as RunRecord]) {
      for (const text of surfaces(r)) expect(text).not.toMatch(/ · meaning judge:? /);
    }
  });

  // The record names the meaning judge's provider: a judge named "openai gpt-4o-mini" does not name
  // another provider's model of that name, which is shown with its provider.
  it('names a meaning judge of another provider whose model has the judge\u2019s model\u2019s name, with its provider', () => {
    const provided = (judge: string, provider: 'openai' | 'anthropic', model: string): RunRecord => ({ ...withMeaning(judge, model), meaning: { check: 'judge', model, provider, promptVersion: 'meaning-1' } });
    const [comment, summary, terminal, html] = surfaces(provided('openai gpt-4o-mini', 'anthropic', 'gpt-4o-mini'));
    expect(comment).toContain('judge: openai gpt-4o-mini · meaning judge: anthropic gpt-4o-mini');
    expect(summary).toContain('judge: openai gpt-4o-mini · meaning judge: anthropic gpt-4o-mini');
    expect(terminal).toContain('judge: openai gpt-4o-mini · meaning judge: anthropic gpt-4o-mini');
    expect(html).toContain('judge openai gpt-4o-mini · meaning judge anthropic gpt-4o-mini');
    expect(renderTerminal(provided('panel of 3: openai gpt-4o-mini, anthropic claude-haiku-4-5, openai o3', 'openai', 'claude-haiku-4-5'), { color: false })).toContain('meaning judge: openai claude-haiku-4-5');
    // The judge itself, a member of its panel, and a label that names no provider: nothing more.
    for (const r of [provided('openai gpt-4o-mini', 'openai', 'gpt-4o-mini'), provided('panel of 3: openai gpt-4o-mini, anthropic claude-haiku-4-5, openai o3', 'anthropic', 'claude-haiku-4-5'), provided('demo judge (keyword rules, not a real model)', 'openai', 'demo-judge')]) {
      expect(renderTerminal(r, { color: false })).not.toMatch(/ · meaning judge:? /);
    }
  });
});

describe('does the judge\u2019s name name the meaning model (docs/meaning.md, "The meaning judge")', () => {
  // [judge name or label, meaning model, named]
  const cases: [string, string, boolean][] = [
    // One word: the model itself, in any case; never a part of it or a longer model.
    ['mini', 'mini', true],
    ['Mini', 'mini', true],
    ['GPT-4o-mini', 'gpt-4o-mini', true],
    ['gpt', 'gpt-4o', false],
    ['demo', 'demo-judge', false],
    ['gpt-4o-mini', 'gpt-4o', false],
    ['openai gpt-4o-mini', 'gpt-4o', false],
    // Several words that spell it in order, with spaces for its dashes or underscores.
    ['demo judge (keyword rules, not a real model)', 'demo-judge', true],
    ['Demo Judge', 'demo_judge', true],
    ['fast gpt-4o mini judge', 'gpt-4o-mini', true],
    ['openai gpt-4o-mini', 'GPT-4o-Mini', true],
    ['panel of 3: openai gpt-4o-mini, anthropic claude-haiku-4-5, openai o3', 'claude-haiku-4-5', true],
    // The parts apart or out of order do not name it.
    ['judge for demo', 'demo-judge', false],
    ['mini gpt 4o', 'gpt-4o-mini', false],
    ['gpt 4o fast mini', 'gpt-4o-mini', false],
    ['', 'gpt-4o', false],
  ];
  it.each(cases)('%j names %j: %s', (name, model, named) => {
    expect(namesModel(name, model)).toBe(named);
    expect(meaningModelShown({ judge: { name }, meaning: { check: 'judge', model, promptVersion: 'meaning-1' } })).toBe(named ? null : model);
  });
});

describe('a reason the meaning was not checked, shared by several items', () => {
  const FACTS = 'the facts are the same and meaning.check is facts, which asks no model';
  const unchecked = (detail: string): Meaning => ({ value: 'unchecked', by: null, detail });
  function sharedRun(): RunRecord {
    resetLines();
    const script = scriptChangedAtTurn3();
    return run(
      [
        differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', unchecked(FACTS)),
        differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', unchecked(FACTS)),
        differing('greeting', 'Hi!', 'Hello!', unchecked(FACTS)),
        differing('timed-out', 'We are open every day.', 'Our shops open daily.', unchecked('meaning judge unreachable: no answer from the meaning judge within 30,000 ms')),
      ],
      { personas: [{ ...script, drift: { ...script.drift, meaning: unchecked(`turn 3 meaning not checked: ${FACTS}`) } } as PersonaRecord] },
    );
  }

  it('the comment says it once under the section heading; each item reads "meaning not checked" (a script names its turn); another reason stays on its item', () => {
    const md = renderComment({ ...sharedRun(), judge: { name: null } }, ctx);
    const changed = md.slice(md.indexOf('Changed (5)'));
    // No judge in the record: adding one is the fix (it makes meaning.check judge).
    expect(changed).toContain(`Meaning not checked for 4 of the 5\\: ${FACTS}; add a judge to config.yml, which makes meaning.check judge, to have a model tell rewording from a change in meaning \\([docs/meaning.md#&#8288;configuration](${docsUrl('meaning.md', 'Configuration')})\\).`);
    expect(md.split(FACTS)).toHaveLength(2);
    expect(changed).toContain('<b>refund</b> · pass · still passing · reply changed · meaning not checked · ');
    expect(changed).toContain(' · transcript changed · turn 3 meaning not checked · ');
    expect(changed).toContain('meaning not checked: meaning judge unreachable: no answer from the meaning judge within 30,000\u00a0ms');
  });

  it('a cause that says the facts agree once a number word is read, shared, gets the same fix', () => {
    const WORDS = 'the facts agree once "two" is read as 2 and meaning.check is facts, which asks no model';
    resetLines();
    const record = run([
      differing('tent', 'The tent has a 2-year warranty.', 'The tent has a two-year warranty.', unchecked(WORDS)),
      differing('stove', 'The stove has a 2-year warranty.', 'The stove has a two-year warranty.', unchecked(WORDS)),
    ]);
    const text = renderTerminal({ ...record, judge: { name: null } }, { color: false });
    expect(text).toContain(`Changed (2)\n  Meaning not checked for all 2: ${WORDS}; add a judge to config.yml, which makes meaning.check judge, to have a model tell rewording from a change in meaning (${docsUrl('meaning.md', 'Configuration')})\n`);
  });

  it('the terminal likewise, once under the title', () => {
    const text = renderTerminal({ ...sharedRun(), judge: { name: null } }, { color: false });
    expect(text).toContain(`Changed (5)\n  Meaning not checked for 4 of the 5: ${FACTS}; add a judge to config.yml, which makes meaning.check judge, to have a model tell rewording from a change in meaning (${docsUrl('meaning.md', 'Configuration')})\n`);
    // With a judge configured, check: facts was chosen: the fix is to choose judge.
    const judged = renderTerminal({ ...sharedRun(), judge: { name: 'openai gpt-4.1-mini' } }, { color: false });
    expect(judged).toContain(`${FACTS}; set meaning.check: judge to have the judge tell rewording from a change in meaning (${docsUrl('meaning.md', 'Configuration')})\n`);
    expect(text.split(FACTS)).toHaveLength(2);
    expect(text).toContain('~ hours · pass · still passing · reply changed · meaning not checked · ');
  });

  it("names the suite's config file in the fix: a config.yaml suite is told to add a judge to config.yaml", () => {
    const yaml = { ...sharedRun(), judge: { name: null }, configName: 'config.yaml' };
    const fix = 'add a judge to config.yaml, which makes meaning.check judge';
    expect(renderTerminal(yaml, { color: false })).toContain(`Meaning not checked for 4 of the 5: ${FACTS}; ${fix}`);
    expect(renderComment(yaml, ctx)).toContain(`Meaning not checked for 4 of the 5\\: ${FACTS}; ${fix}`);
  });

  it('a meaning judge that could not be reached, shared by an agent\'s reworded replies: the line says which settings to check', () => {
    resetLines();
    const down = unchecked('meaning judge unreachable: HTTP 503 after 3 attempts: overloaded');
    const record = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', down), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', down)]);
    // The terminal names the CLI's flag, the comment the Action's input (evaluate/causes.ts, JUDGE_URL_SETTING).
    // A 5xx: its endpoint failed (test/evaluate/model-down-fixes.test.ts has every status's fix, over a real client).
    const fix = "the meaning judge's endpoint failed: see its status or log, and run it again";
    expect(renderTerminal(record, { color: false })).toContain(`Changed (2)\n  Meaning not checked for all 2: meaning judge unreachable: HTTP 503 after 3 attempts: overloaded; ${fix}\n`);
    expect(renderComment(record, ctx)).toContain("overloaded; the meaning judge's endpoint failed\\: see its status or log, and run it again.");
  });

  it("repeated items whose attempts' meanings were not checked share the cause, each naming its own attempt on its line, with the cause's fix", () => {
    resetLines();
    const reason = 'meaning judge unreachable: HTTP 503 after 3 attempts: overloaded';
    const repeat = { repeat: { count: 4, minPass: 4, passed: 4, flaky: false } };
    // The same cause in attempt 2 of one item, attempt 4 of another, and an item run once: one cause, its fix said once.
    const record = run([
      differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', unchecked(`attempt 2: ${reason}`), repeat),
      differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', unchecked(`attempt 4: ${reason}`), repeat),
      differing('greeting', 'Hi!', 'Hello!', unchecked(reason)),
    ]);
    const fix = "the meaning judge's endpoint failed: see its status or log, and run it again";
    const text = renderTerminal(record, { color: false });
    expect(text).toContain(`Changed (3)\n  Meaning not checked for all 3: ${reason}; ${fix}\n`);
    expect(text).toContain('~ refund · pass 4/4 · still passing · reply changed · meaning not checked: attempt 2 · ');
    expect(text).toContain('~ hours · pass 4/4 · still passing · reply changed · meaning not checked: attempt 4 · ');
    expect(text).toContain('~ greeting · pass · still passing · reply changed · meaning not checked · ');
    const md = renderComment(record, ctx);
    expect(md).toContain(`Meaning not checked for all 3\\: ${reason.replaceAll(':', '\\:')}; ${fix.replace(':', '\\:')}.`);
    expect(md).toContain('<b>hours</b> · pass 4/4 · still passing · reply changed · meaning not checked: attempt 4 · ');
    // Two items whose attempt 2 names it: the shared line names no attempt, which would read as one attempt of the run.
    resetLines();
    const both = run([
      differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', unchecked(`attempt 2: ${reason}`), repeat),
      differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', unchecked(`attempt 2: ${reason}`), repeat),
    ]);
    const two = renderTerminal(both, { color: false });
    expect(two).toContain(`Changed (2)\n  Meaning not checked for all 2: ${reason}; ${fix}\n`);
    expect(two).not.toContain('Meaning not checked for all 2: attempt');
    // An attempt named with no cause has nothing to share: each item keeps its words.
    resetLines();
    const bare = renderTerminal(run([
      differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', { value: 'unchecked', by: null, detail: 'attempt 2' }, repeat),
      differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', { value: 'unchecked', by: null, detail: 'attempt 2' }, repeat),
    ]), { color: false });
    expect(bare).not.toContain('Meaning not checked for');
    expect(bare).toContain('~ hours · pass 4/4 · still passing · reply changed · meaning not checked: attempt 2 · ');
  });

  it("a meaning judge that could not be reached whose reason says its own fix: the shared line says that fix alone, not the general one after it", () => {
    resetLines();
    const own = "point NODE_EXTRA_CA_CERTS at that CA's certificate (a PEM file) in the environment agent-replay runs in";
    const refused = unchecked(`meaning judge unreachable: its TLS certificate is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT); ${own}`);
    const record = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', refused), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', refused)]);
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain(`Changed (2)\n  Meaning not checked for all 2: meaning judge unreachable: its TLS certificate is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT); ${own}\n`);
    expect(terminal).not.toContain('meaning.model (else judge.model) and');
    expect(renderComment(record, ctx)).not.toContain('meaning.model (else judge.model) and');
  });

  it("a meaning judge that answered and whose answer stalled, or was not HTTP, is not said unreachable: the judge's words, and their fix", () => {
    resetLines();
    const stalled = unchecked("meaning judge unreachable: the meaning judge's answer (HTTP 200) did not end within 200 ms (3 attempts)");
    const record = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', stalled), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', stalled)]);
    const text = renderTerminal(record, { color: false });
    expect(text).toContain("Changed (2)\n  Meaning not checked for all 2: the meaning judge's answer did not end within 200 ms; the meaning judge answered and its body stopped: a meaning judge or a gateway in front of it that stalls; raise judge.timeoutMs if it is only slow\n");
    expect(text).not.toContain('unreachable');
    const garbage = unchecked('meaning judge unreachable: the meaning judge at 127.0.0.1:9 gave an answer that is not valid HTTP after 3 attempts');
    const other = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', garbage), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', garbage)]);
    expect(renderTerminal(other, { color: false })).toContain("Meaning not checked for all 2: the meaning judge answered with something that is not HTTP; something other than the meaning judge's HTTP server answers there: check the port in meaning.baseUrl (else --judge-url (judge.baseUrl))\n");
    expect(renderComment(other, ctx)).toContain('the meaning judge answered with something that is not HTTP');
  });

  it('a meaning judge that answered, in the words written since 2026-12-06 ("gave no usable answer"): the same shared line, and an item alone never says "unreachable"', () => {
    resetLines();
    const garbage = unchecked("meaning judge gave no usable answer: the meaning judge at 127.0.0.1:9 gave an answer that is not valid HTTP; something other than the meaning judge's HTTP server answers there: check the port in judge.baseUrl");
    const two = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', garbage), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', garbage)]);
    expect(renderTerminal(two, { color: false })).toContain("Meaning not checked for all 2: the meaning judge answered with something that is not HTTP; something other than the meaning judge's HTTP server answers there: check the port in meaning.baseUrl (else --judge-url (judge.baseUrl))\n");
    const stalled = unchecked("meaning judge gave no usable answer: the meaning judge's answer (HTTP 200) did not end within 200 ms (3 attempts)");
    const both = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', stalled), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', stalled)]);
    expect(renderTerminal(both, { color: false })).toContain("Meaning not checked for all 2: the meaning judge's answer did not end within 200 ms; the meaning judge answered and its body stopped");
    // One item: its own line, on every surface, says what answered.
    const one = run([differing('refund', 'A 30 day window.', 'Thirty days to return.', garbage)]);
    for (const text of [renderTerminal(one, { color: false }), renderComment(one, ctx), renderHtml(one)]) {
      expect(text).toContain('meaning judge gave no usable answer: the meaning judge at 127.0.0.1:9 gave an answer that is not valid HTTP');
      expect(text).not.toContain('unreachable');
    }
    // Its fix names the meaning judge's address where it is set (its own, else the judge's): the Action's input in the comment, the CLI's flag in the terminal (cliWords).
    const named = run([differing('refund', 'A 30 day window.', 'Thirty days to return.', unchecked("meaning judge gave no usable answer: the meaning judge at 127.0.0.1:9 gave an answer that is not valid HTTP; something other than the meaning judge's HTTP server answers there: check the port in meaning.baseUrl (else judge-base-url (judge.baseUrl))"))]);
    const terminal = renderTerminal(named, { color: false });
    expect(terminal).toContain("answers there: check the port in meaning.baseUrl (else --judge-url (judge.baseUrl)) · ");
    expect(terminal).not.toContain('judge-base-url');
    expect(renderComment(named, ctx)).toContain('check the port in meaning.baseUrl (else judge-base-url (judge.baseUrl))');
  });

  it('a meaning judge that answered without a usable score, shared by several items: the line says what to change, as a rubric judge\'s cause does', () => {
    resetLines();
    const prose = unchecked('meaning judge gave no usable answer: "I think these are probably similar, maybe."');
    const record = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', prose), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', prose)]);
    const fix = `use a meaning judge model that follows the prompt (meaning.model, else judge.model), or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')})`;
    expect(renderTerminal(record, { color: false })).toContain(`Changed (2)\n  Meaning not checked for all 2: meaning judge gave no usable answer: "I think these are probably similar, maybe."; ${fix}\n`);
    const outside = unchecked('meaning judge gave no usable answer: score 7 is outside [0,1]');
    const two = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', outside), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', outside)]);
    expect(renderTerminal(two, { color: false })).toContain(`score 7 is outside [0,1]; ${fix}\n`);
    // What the endpoint sent and no model wrote (not JSON) is not the model's to fix.
    const endpoint = unchecked('meaning judge gave no usable answer: response is not JSON: "<html>"');
    const three = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', endpoint), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', endpoint)]);
    expect(renderTerminal(three, { color: false })).not.toContain('follows the prompt');
    // An answer cut at the token limit, or an HTTP 200 that is an error, is not the prompt's to fix either: each says its own (docs/judges.md, "What the judge reads").
    const shapes: [string, string][] = [
      ['meaning judge gave no usable answer: the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read', 'raise the output-token limit of meaning.model (else judge.model)'],
      ['meaning judge gave no usable answer: no choices[0].message.content: an error in the HTTP 200 answer: "overloaded"', 'read the error the item quotes: check meaning.model (else judge.model)'],
    ];
    for (const [reason, words] of shapes) {
      const r = unchecked(reason);
      const text = renderTerminal(run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', r), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', r)]), { color: false });
      expect(text).toContain(words);
      expect(text).not.toContain('follows the prompt');
    }
    // A request agent-replay could not make sent nothing: no setting is at fault, and the line says so (as the judge's and the simulator's causes do).
    const ours = unchecked('meaning judge call failed: no boundary could be drawn');
    const four = run([differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', ours), differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', ours)]);
    expect(renderTerminal(four, { color: false })).toContain(
      'Meaning not checked for all 2: meaning judge call failed: no boundary could be drawn; agent-replay could not make the request, and sent nothing: run it again, and report it with this message if it happens again\n',
    );
  });

  it('one item alone keeps its reason on its line, as do JUnit and report.html, which show each item by itself', () => {
    resetLines();
    const one = run([differing('refund', 'A 30 day window.', 'Thirty days to return.', unchecked(FACTS))]);
    expect(renderComment(one, ctx)).toContain(`meaning not checked: ${FACTS}`);
    expect(renderComment(one, ctx)).not.toContain('Meaning not checked for');
    expect(renderJUnit(sharedRun()).split(FACTS).length - 1).toBe(4);
  });
});

describe('500 reworded items', () => {
  it('stay one small collapsed block in the comment, after the items that need attention', () => {
    resetLines();
    const m: Meaning = { value: 'reworded', by: 'judge', detail: null, score: 0.92 };
    const many = Array.from({ length: 500 }, (_, i) => differing(`faq-${String(i).padStart(3, '0')}-${'x'.repeat(40)}`, `Answer number ${i} in these words.`, `Answer number ${i} put another way.`, m));
    const failing = fixture('broken', { verdict: 'fail', detail: 'reply does not contain "Reply"', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } } as Partial<FixtureRecord>);
    const md = renderComment(run([failing, ...many]), ctx);
    expect(md.length).toBeLessThan(COMMENT_MAX_CHARS / 2);
    expect(md).toContain('1 newly failing · 500 reworded');
    expect(md.indexOf('broken')).toBeLessThan(md.indexOf('Reworded (500)'));
    const section = md.slice(md.indexOf('Reworded (500)'));
    expect(section.match(/<details><summary>500 reworded fixtures/g)).toHaveLength(1);
    // Its summary says how many diffs are inside: 10, not "each" of the 500.
    expect(section).toContain('<details><summary>500 reworded fixtures: name, how it was decided and file; the first 10 diffs inside</summary>');
    expect(section.split('\n').filter((l) => l.startsWith('- faq-'))).toHaveLength(COMMENT_REWORDED_ROWS);
    expect(section).toContain('440 more reworded fixtures, only counted here');
    // The notice says why: the comment names a bounded number of reworded items; it is far from GitHub's limit.
    const notice = md.split('\n\n')[2] as string;
    expect(notice).toMatch(/^> ✂️ Of 500 reworded, the comment shows 10 with their diff and 50 more by name \(it names no more than 50\); 440 are only counted\. Everything is in /);
    expect(notice).not.toContain('to fit');
  });
});

describe('the call to accept', () => {
  it('counts reworded items apart from the new or changed ones: they need no acceptance, and says what accepting writes for them', () => {
    const md = renderComment(MEANING, ctx);
    expect(md).toContain('**To accept** the 6 new or changed pass/fail results as baselines');
    expect(md).toContain("label to this pull request. The 4 reworded items need no acceptance; accepting also stores their new wording as their baseline replies, the baselines' wordings kept as known variants where they differ by more than formatting.");
  });

  it('with only reworded items, says nothing needs accepting and what accepting would keep', () => {
    resetLines();
    const m: Meaning = { value: 'reworded', by: 'judge', detail: null, score: 0.92 };
    const md = renderComment(run([differing('faq-1', 'Open 9 to 5.', 'We open at 9 and close at 5.', m), differing('faq-2', 'Free shipping.', 'Shipping costs nothing.', m)]), ctx);
    expect(md).toContain(
      "**Nothing needs accepting**: the 2 reworded items mean the same as their baselines. To store their new wording as their baseline replies, the baselines' wordings kept as known variants where they differ by more than formatting, so that later runs decide their wordings with no meaning call, apply the `accept-baseline` label to this pull request.",
    );
    expect(md).not.toContain('new or changed');
  });

  it("names the reworded items whose tallies the run's attempts replace as a list in a sentence: \"a, b and 2 more\" (docs/architecture.md, words.ts)", () => {
    resetLines();
    const m: Meaning = { value: 'reworded', by: 'judge', detail: null, score: 0.92 };
    const NOW = 'Shipping costs nothing.';
    const attempt = { errored: false, error: null, errorKind: null, reply: NOW, route: null, verdict: 'pass' as const, detail: '', score: null, rationale: null, durationMs: 10 };
    const items = Array.from({ length: 7 }, (_, i) =>
      differing(`faq-${i}`, 'Free shipping.', NOW, m, {
        repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
        attempts: [attempt, attempt, attempt],
        baseline: { ...baseline(`faq-${i}`, 'Free shipping.'), attempts: { passed: 2, total: 3 } },
      }),
    );
    const md = renderComment(run(items), ctx);
    const tally = (i: number): string => `\`faq-${i}\`: attempts passed 2/3 → 3/3`;
    expect(md).toContain(`with the run's attempts for 7 of them (${[0, 1, 2, 3, 4].map(tally).join(', ')} and 2 more)`);
  });
});

describe('a script whose welcome turn changed in meaning', () => {
  // Its record keeps the detail stored, "turn 0 changed in meaning: ..."; every surface names that turn as it names it elsewhere.
  const welcomeChanged = (): PersonaRecord => {
    const base = refundTurns().map((t) => (t.index === 0 ? { ...t, reply: 'Hello! Refunds take 5 days.' } : t));
    const now = base.map((t) => (t.index === 0 ? { ...t, reply: 'Hello! Refunds take 9 days.', meaning: { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 5 → 9' } } : t));
    return persona('welcome-changed', {
      turns: now,
      baseline: personaBaseline('welcome-changed', base),
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: 'turn 0 changed in meaning: numbers 5 → 9' } },
    } as Partial<PersonaRecord>);
  };

  it('reads "turn 0 (welcome) changed in meaning" on its line in the terminal, the comment, report.html, JUnit and compare', () => {
    const p = welcomeChanged();
    const r = run([], { personas: [p] });
    const said = 'turn 0 (welcome) changed in meaning: numbers 5 → 9';
    const terminal = renderTerminal(r, { color: false });
    expect(terminal).toContain(said);
    expect(renderComment(r, ctx)).toContain(`· ${said} ·`);
    expect(renderJUnit(r)).toContain(said);
    expect(renderHtml(r, {})).toContain(said);
    for (const text of [terminal, renderJUnit(r)]) expect(text).not.toMatch(/turn 0(?! \(welcome\))/);
    // The stored detail is left as it was written: what reads it back reads that.
    expect(p.drift?.meaning?.detail).toBe('turn 0 changed in meaning: numbers 5 → 9');
    const earlier = { ...p, turns: p.baseline!.transcript.map((b, i) => ({ ...p.turns[i]!, reply: b.reply, meaning: null })), drift: { ...p.drift!, transcript: 'same' as const, meaning: null } } as PersonaRecord;
    const c = compareRuns(run([], { startedAt: '2026-11-30T00:00:00.000Z', personas: [earlier] }), r);
    expect(renderCompareText(c)).toContain('changed in meaning: turn 0 (welcome): numbers 5 → 9');
  });
});

describe('compare', () => {
  it('names "changed in meaning" and "reworded" where the later run was compared with the earlier run\'s replies', () => {
    const before: RunRecord = {
      ...MEANING,
      startedAt: '2026-11-30T00:00:00.000Z',
      fixtures: MEANING.fixtures.map((f) => ({ ...f, reply: f.baseline?.reply ?? f.reply, drift: f.errored ? f.drift : { ...f.drift, reply: 'same', meaning: null }, slower: undefined }) as FixtureRecord),
      personas: [],
    };
    const after: RunRecord = { ...MEANING, personas: [] };
    const c = compareRuns(before, after);
    const causeOf = (label: string): string | undefined => c.changes.find((x) => x.label === label)?.cause;
    expect(causeOf('refund-window')).toBe('meaning_changed');
    expect(causeOf('receipt-needed')).toBe('meaning_changed');
    expect(causeOf('reworded-by-judge')).toBe('reworded');
    expect(causeOf('bold-greeting')).toBe('reworded');
    // Not checked, or not computed: the reply changed, as before.
    expect(causeOf('store-hours')).toBe('reply_changed');
    expect(causeOf('check-off')).toBe('reply_changed');
    const text = renderCompareText(c);
    expect(text).toContain('changed in meaning: numbers 30 → 14');
    expect(text).toMatch(/\d+ reworded/);
  });

  it("says a script's turn once: \"changed in meaning: turn 3: ...\", not the cause twice", () => {
    const script = MEANING.personas.find((p) => p.drift?.meaning?.value === 'changed')!;
    const earlier = { ...script, turns: script.turns.map((t, i) => ({ ...t, reply: script.baseline?.transcript[i]?.reply ?? t.reply })), drift: { ...script.drift!, transcript: 'same' as const, meaning: null } };
    const before: RunRecord = { ...MEANING, startedAt: '2026-11-30T00:00:00.000Z', fixtures: [], personas: [earlier as PersonaRecord] };
    const text = renderCompareText(compareRuns(before, { ...MEANING, fixtures: [], personas: [script] }));
    expect(text).toContain('changed in meaning: turn 3: numbers 50 → 90');
    expect(text).not.toContain('changed in meaning: turn 3 changed in meaning');
  });

  // A repeated script's meaning may be another attempt's, named before the turn (evaluate/finish.ts attemptMeaningDetail).
  it("says a repeated script's attempt and turn once: \"changed in meaning: attempt 2: turn 3: ...\"", () => {
    const script = MEANING.personas.find((p) => p.drift?.meaning?.value === 'changed')!;
    const meaning = { ...script.drift!.meaning!, detail: `attempt 2: ${script.drift!.meaning!.detail}` };
    const later = { ...script, drift: { ...script.drift!, meaning } } as PersonaRecord;
    const earlier = { ...script, turns: script.turns.map((t, i) => ({ ...t, reply: script.baseline?.transcript[i]?.reply ?? t.reply })), drift: { ...script.drift!, transcript: 'same' as const, meaning: null } };
    const before: RunRecord = { ...MEANING, startedAt: '2026-11-30T00:00:00.000Z', fixtures: [], personas: [earlier as PersonaRecord] };
    const text = renderCompareText(compareRuns(before, { ...MEANING, fixtures: [], personas: [later] }));
    expect(text).toContain('changed in meaning: attempt 2: turn 3: numbers 50 → 90');
    expect(text).not.toContain('turn 3 changed in meaning');
  });

  it('names "reply changed" when the later run had other baselines than the earlier run\'s replies', () => {
    const before: RunRecord = { ...MEANING, startedAt: '2026-11-30T00:00:00.000Z', fixtures: MEANING.fixtures.map((f) => ({ ...f, reply: `${f.reply ?? ''} (older)` }) as FixtureRecord), personas: [] };
    const c = compareRuns(before, { ...MEANING, personas: [] });
    expect(c.changes.find((x) => x.label === 'refund-window')?.cause).toBe('reply_changed');
  });
});
