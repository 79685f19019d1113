// Simulated users (docs/simulated-users.md) on every surface: who wrote each user message, from which
// turn the user was simulated live, how the conversation ended, a simulator fault as a grey "not
// evaluated" cause (never an agent failure), the spend line's simulator counts, and the untrusted
// text of the goal, the messages, the done reason and the fault kept inert.

import { describe, expect, it } from 'vitest';
import { renderComment, renderJUnit, renderMarkdownReport, renderSummary, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { personaData } from '../../src/report/html/data.js';
import { spendText } from '../../src/report/spend.js';
import { costWords } from '../../src/report/simulation.js';
import { causeOf, groupCauses, verificationOf } from '../../src/evaluate/index.js';
import type { FixtureRecord, PersonaRecord, ReplayedPersonaRecord, RunRecord } from '../../src/types.js';
import { ctx, fixture, HOSTILE, persona, personaBaseline, personaScripts, refundTurns, run, simulatedRun, simulatedScripts, turn } from './fixtures.js';
import { WELCOME_TURN } from '../../src/report/model.js';
import { count, decodeEntities, deepFreeze, expectGolden, githubHtml, itemHtml, outsideCode, visibleText } from './helpers.js';

/** What a reader sees, tags dropped without adding spaces. */
function words(html: string): string {
  return decodeEntities(html.replace(/<[^>]+>/g, ''));
}

/** One of the simulated scripts of the fixtures (none of them errored). */
function script(label: string): ReplayedPersonaRecord {
  const p = simulatedScripts().find((s) => s.label === label);
  if (!p || p.errored) throw new Error(`no replayed simulated script ${label}`);
  return p;
}

/** The "Turn N · User (who)" labels of an item's transcript, in order. */
function userLabels(html: string): string[] {
  return [...html.matchAll(/<strong>Turn (\d+) · User<\/strong>(?: \(([^)]*)\))?:/g)].map((m) => `${m[1]} ${m[2] ?? '-'}`);
}

describe('golden files', () => {
  it('comment with a script live from turn 3, one replayed whole, one simulator fault', () => expectGolden('simulated.comment.md', renderComment(simulatedRun(), ctx)));
  it('job summary of the same run', () => expectGolden('simulated.summary.md', renderSummary(simulatedRun(), ctx)));
  it('terminal of the same run', () => expectGolden('simulated.terminal.txt', renderTerminal(simulatedRun(), { color: false })));
  it('JUnit of the same run', () => expectGolden('simulated.junit.xml', renderJUnit(simulatedRun())));

  it('renders byte-identical output and never mutates its input', () => {
    const r = deepFreeze(simulatedRun());
    const once = [renderComment(r, ctx), renderSummary(r, ctx), renderTerminal(r, { color: true }), renderJUnit(r), renderHtml(r)];
    expect([renderComment(r, ctx), renderSummary(r, ctx), renderTerminal(r, { color: true }), renderJUnit(r), renderHtml(r)]).toEqual(once);
  });
});

describe('the comment', () => {
  const html = githubHtml(renderComment(simulatedRun(), ctx));

  it('marks who wrote each user message: the script, the baseline, the simulator', () => {
    const live = itemHtml(html, 'refund-simulated-live');
    const transcript = live.slice(live.indexOf('<summary>Transcript'));
    expect(userLabels(transcript)).toEqual(['1 script', '2 from the baseline', '3 simulated', '4 simulated']);
    // The first difference is the reply of turn 2, whose message was the baseline's, word for word.
    expect(live).toContain('First difference from the baseline: Turn 2');
  });

  it('says from which turn the user was simulated live, how it ended and what it cost', () => {
    const live = words(itemHtml(html, 'refund-simulated-live'));
    expect(live).toContain('both checks passed · user simulated from turn 3');
    expect(live).toMatch(/Simulated user: goal: Get a refund for order 1234, which arrived broken\. You have the order number\. · user simulated from turn 3 · ended: the simulated user was done: The agent refunded order 1234 to my card\. · 3 simulator calls \(1 retry\)/);
    expect(live).toContain('Transcript: 4 turns · user simulated from turn 3');
  });

  it('says nothing of a live turn when the whole conversation was replayed', () => {
    // Shown in full once something else changed (a criterion newly failing on the same transcript).
    const p = { ...script('refund-simulated-replayed'), verdict: 'fail' as const, drift: { transcript: 'same' as const, route: 'same' as const, verdict: 'newly_failing' as const } };
    const item = words(itemHtml(githubHtml(renderComment(run([], { personas: [p] }), ctx)), 'refund-simulated-replayed'));
    expect(item).not.toContain('simulated from turn');
    expect(item).toContain('user replayed from the baseline');
    expect(item).toContain('ended: the simulated user was done: The agent refunded order 1234. · no simulator call');
  });

  it('shows a simulator fault as not evaluated, grey, under its cause: never as a failure of the agent', () => {
    const md = renderComment(simulatedRun(), ctx);
    const head = md.split('\n').find((l) => l.startsWith('### ')) ?? '';
    expect(head).toBe('### ⚪ Not verified: 1 changed · 1 new · 3 unchanged');
    expect(md).toMatch(/^\*\*Cause\*\*: simulator unreachable\\: HTTP 503\\: the simulator's endpoint failed\\: see its status or log, and run it again$/m);
    const fault = itemHtml(html, 'refund-simulated-fault');
    expect(fault).toMatch(/^<details><summary>⚪ 🎭 script <b>refund-simulated-fault<\/b> · not evaluated · no baseline/);
    expect(fault).toContain('<br>simulator unreachable: HTTP 503 from https:/&#8288;/llm.example.com/v1/chat/completions after 3 attempts: Service Unavailable</summary>');
    expect(words(fault)).toContain('Not evaluated: the simulator could not play the user, so the agent was not measured (not a failure).');
    expect(fault).not.toMatch(/❌|fail(?:ed|s|ing)?\b(?! to)/);
    expect(fault).not.toContain('errored');
  });

  it('groups simulator faults into one cause, whatever the URL, body or attempt count', () => {
    // As the engine records a fault: the simulation names it and every check carries it.
    const withFault = (label: string, fault: string): ReplayedPersonaRecord => {
      const p = script('refund-simulated-fault');
      return { ...p, label, simulation: { ...p.simulation!, fault }, checks: p.checks.map((c) => ({ ...c, detail: fault })) };
    };
    const base = script('refund-simulated-fault');
    const other = withFault('other', 'simulator unreachable: HTTP 503 from https://other.example/v1 after 1 attempt: busy');
    const groups = groupCauses([base, other], null);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ what: 'simulator unreachable: HTTP 503', labels: ['refund-simulated-fault', 'other'] });
    expect(causeOf(withFault('x', 'simulator answered no usable JSON: {"mess'), null)?.what).toBe('simulator answered no usable JSON');
    // The gate counts it as not evaluated (unverified), not as errored and not as failed.
    expect(verificationOf({ fixtures: [], personas: [base] })).toMatchObject({ verified: false, errored: 0, notEvaluated: 1 });
  });

  it('counts simulator calls and replayed turns on the facts line only when there were some', () => {
    const facts = (r: RunRecord): string => renderComment(r, ctx).split('\n').find((l) => l.includes('estimated')) ?? '';
    expect(facts(simulatedRun())).toContain('11 agent turns, 2 judge calls made, 4 simulator calls made (3 retries), 4 user turns replayed from baselines · agent');
    const none = { ...simulatedRun(), spend: { agentTurns: 3, agentRetries: 0, judgeCalls: 0, judgeReused: 0, simulatorCalls: 0, simulatorRetries: 0, baselineTurns: 0 } };
    expect(facts(none)).toContain('· 3 agent turns · agent');
    expect(spendText({ agentTurns: 4, agentRetries: 0, judgeCalls: 0, judgeReused: 0, simulatorCalls: 0, baselineTurns: 3 })).toBe('4 agent turns, 3 user turns replayed from baselines');
    expect(spendText({ agentTurns: 4, agentRetries: 0, judgeCalls: 0, judgeReused: 0, simulatorCalls: 1 })).toBe('4 agent turns, 1 simulator call made');
  });

  it('leaves scripted follow-ups exactly as before: no source, no simulated-user line', () => {
    const md = renderComment(run([], { personas: personaScripts() }), ctx);
    expect(md).not.toMatch(/Simulated user|simulated from turn|\(script\)|from the baseline\)|simulator/);
  });
});

describe("a repeated script's simulator calls", () => {
  it('counts every attempt, as spend does, then the shown attempt\'s; none at all reads as before', () => {
    const p = script('refund-simulated-live');
    const s = p.simulation as NonNullable<PersonaRecord['simulation']>;
    const attempt = (calls: number, retries: number, errored = false) => ({ ...p, errored, simulation: { ...s, calls, retries } });
    expect(costWords({ ...p, attempts: [attempt(3, 1), attempt(2, 0), attempt(0, 0)] }, { ...s, calls: 3, retries: 1 })).toBe('5 simulator calls (1 retry) over 3 attempts (3 in attempt 1)');
    expect(costWords({ ...p, attempts: [attempt(1, 0, true), attempt(0, 0)] }, { ...s, calls: 0, retries: 0 })).toBe('1 simulator call over 2 attempts (none in attempt 2)');
    expect(costWords({ ...p, attempts: [attempt(0, 0), attempt(0, 0)] }, { ...s, calls: 0, retries: 0 })).toBe('no simulator call');
    expect(costWords(p, s)).toBe('3 simulator calls (1 retry)');
  });
});

describe("the footer's word when nothing is to accept", () => {
  const fault = (): PersonaRecord => simulatedScripts().find((s) => s.label === 'refund-simulated-fault') as PersonaRecord;
  const newErrored = (label: string): FixtureRecord =>
    fixture(label, { reply: null, route: null, verdict: null, errored: true, error: 'message turn: agent returned HTTP 503 after 1 attempt', errorKind: 'http', detail: 'x', drift: null, baseline: null } as Partial<FixtureRecord>);
  const footer = (r: RunRecord): string => renderComment(r, ctx).split('\n').find((l) => l.startsWith('Nothing')) ?? '';

  it('a new script that was not evaluated has no baseline to differ from: said as such, never "no reply differs from its baseline"', () => {
    expect(footer(run([], { personas: [fault()] }))).toBe('Nothing to accept: `refund-simulated-fault` is new and was not evaluated, and a baseline is stored only for a pass or fail.');
    expect(renderSummary(run([], { personas: [fault()] }), ctx)).toContain('Nothing to accept: `refund-simulated-fault` is new and was not evaluated, and a baseline is stored only for a pass or fail.');
  });

  it('beside items whose replies are their baselines, both are said; new items counted, errored ones as errored', () => {
    expect(footer(run([fixture('refund-policy')], { personas: [fault()] }))).toBe(
      'Nothing to accept: `refund-simulated-fault` is new and was not evaluated, and a baseline is stored only for a pass or fail; no pass or fail reply differs from its baseline.',
    );
    expect(footer(run([newErrored('a'), newErrored('b')]))).toBe('Nothing to accept: the 2 new fixtures errored, and a baseline is stored only for a pass or fail.');
    expect(footer(run([newErrored('a')], { personas: [fault()] }))).toBe('Nothing to accept: the 2 new items were not evaluated or errored, and a baseline is stored only for a pass or fail.');
    // Every item with its baseline: the words as before.
    expect(footer(run([fixture('refund-policy')]))).toBe('Nothing to accept: no pass or fail reply differs from its baseline.');
  });
});

describe('the terminal, JUnit and report.html', () => {
  it('the terminal names the live turn, the ending and the calls; a fault is grey', () => {
    const t = renderTerminal(simulatedRun(), { color: false });
    expect(t).toContain('simulated user: user simulated from turn 3 · ended: the simulated user was done: The agent refunded order 1234 to my card. · 3 simulator calls (1 retry)');
    expect(t).toContain('Turn 2 reply vs baseline (- baseline, + new, changed words in ⟦ ⟧, user message from the baseline):');
    expect(t).toContain('simulator unreachable: HTTP 503 from https://llm.example.com/v1/chat/completions after 3 attempts: Service Unavailable · 0 of 2 checks passed');
    const coloured = renderTerminal(simulatedRun(), { color: true });
    expect(coloured.split('\n')[0]).toContain('\u001b[90m');
    expect(coloured.split('\n')[0]).not.toContain('\u001b[31m');
  });

  it('a conversation ended by the turn limit names the setting and where it is set, on every surface', () => {
    const live = script('refund-simulated-live');
    const p: PersonaRecord = { ...live, simulation: { ...(live.simulation as NonNullable<PersonaRecord['simulation']>), endedBy: 'max_turns', doneReason: null } };
    const said = `ended: the turn limit was reached on turn 4 (user.maxTurns: 4 in ${p.file}:${p.line})`;
    const r = run([], { personas: [p] });
    expect(renderTerminal(r, { color: false })).toContain(said);
    expect(words(itemHtml(githubHtml(renderComment(r, ctx)), 'refund-simulated-live'))).toContain(said);
    expect(renderJUnit(r)).toContain(said);
    expect(personaData(p).simulation?.facts).toContain(said);
  });

  it("a conversation that got no further than the welcome turn names its last reply as every surface names that turn: Turn 0 (welcome)", () => {
    // The simulator could not write the first message (no opening): only the agent's welcome was answered.
    const fault = simulatedScripts().find((s) => s.label === 'refund-simulated-fault') as ReplayedPersonaRecord;
    const p: PersonaRecord = { ...fault, turns: [turn(0, null, 'Welcome to Example Outfitters! How can I help?', null)], simulation: { ...(fault.simulation as NonNullable<PersonaRecord['simulation']>), calls: 1 } };
    const t = renderTerminal(run([], { personas: [p] }), { color: false });
    expect(t).toContain(`      last reply, ${WELCOME_TURN}:\n        Welcome to Example Outfitters! How can I help?\n`);
    expect(t).not.toContain('(turn 0)');
    expect(renderComment(run([], { personas: [p] }), ctx)).toContain(`**${WELCOME_TURN} · Agent**`);
    // A message turn keeps its number, in the same words.
    expect(renderTerminal(simulatedRun(), { color: false })).toContain('      last reply, Turn 1:\n');
  });

  it('a first difference at the welcome turn is named as every surface names it, Turn 0 (welcome), in both of the terminal\'s lines', () => {
    const base = personaBaseline('refund-dialog', refundTurns());
    const drift = { transcript: 'different', route: 'same', verdict: 'still_passing' } as PersonaRecord['drift'];
    // Its reply differs: the diff's head.
    const reworded = persona('refund-dialog', { baseline: base, drift, turns: refundTurns().map((t) => (t.index === 0 ? { ...t, reply: `${t.reply} We are here 24/7.` } : t)) });
    const t = renderTerminal(run([], { personas: [reworded] }), { color: false });
    expect(t).toContain(`      ${WELCOME_TURN} reply vs baseline (- baseline, + new`);
    expect(t).not.toContain('turn 0 reply');
    // Its reply the same, its route another: the first difference's line.
    const rerouted = persona('refund-dialog', { baseline: base, drift, turns: refundTurns().map((t) => (t.index === 0 ? { ...t, route: { conversation: 'main', stage: 'greet' } } : t)) });
    expect(renderTerminal(run([], { personas: [rerouted] }), { color: false })).toContain(`      first difference from the baseline: ${WELCOME_TURN}: route main / welcome → main / greet, the reply the same\n`);
  });

  it('the turn that changed in meaning shows the message it answered and who wrote it, in the comment as in the terminal', () => {
    const live = script('refund-simulated-live');
    const changed = { value: 'changed' as const, by: 'judge' as const, detail: 'the order is now lost', score: 0.1, reused: false };
    // The opening's reply is reworded (the first difference); turn 2, whose message came from the baseline, changed in meaning.
    const p = {
      ...live,
      turns: live.turns.map((t) =>
        t.source === 'script' ? { ...t, reply: `${t.reply} Anything else?`, meaning: { ...changed, value: 'reworded' as const, detail: null, score: 0.95 } } : t.source === 'baseline' ? { ...t, meaning: changed } : t,
      ),
      drift: { ...live.drift, meaning: { ...changed, detail: 'turn 2 changed in meaning: the order is now lost' } },
    } as PersonaRecord;
    const turn2 = p.turns.find((t) => t.source === 'baseline');
    const md = renderComment(run([], { personas: [p] }), ctx);
    expect(md).toContain(`**Turn 2 changed in meaning\\: the order is now lost**\n\n**Turn 2 · User** (from the baseline): ${String(turn2?.message)}\n\n**Baseline → new reply**`);
    expect(renderTerminal(run([], { personas: [p] }), { color: false })).toContain('Turn 2 changed in meaning: the order is now lost (- baseline, + new, changed words in ⟦ ⟧, user message from the baseline):');
  });

  it("a diff's key names who wrote its turn's user message in words that read: from the script, from the baseline, simulated", () => {
    const live = script('refund-simulated-live');
    // The reply to the scripted opening differs too: it is the first difference now.
    const p = { ...live, turns: live.turns.map((t) => (t.source === 'script' ? { ...t, reply: `${t.reply} Anything else?` } : t)) } as PersonaRecord;
    const opening = p.turns.find((t) => t.source === 'script')?.index;
    const t = renderTerminal(run([], { personas: [p] }), { color: false });
    expect(t).toContain(`Turn ${String(opening)} reply vs baseline (- baseline, + new, user message from the script):`);
    expect(t).not.toContain('user message script');
  });

  it('a first difference that is only the simulated user\'s message is said as such on every surface, never as the script\'s edit', () => {
    const live = script('refund-simulated-live');
    const base = live.baseline?.transcript ?? [];
    // Turn 2 replied as the baseline did: the first difference is turn 3, whose message the simulator wrote anew.
    const p = { ...live, turns: live.turns.map((t, i) => (i === 1 ? { ...t, reply: base[1]?.reply as string } : t)) } as PersonaRecord;
    const md = renderComment(run([], { personas: [p] }), ctx);
    expect(md).toContain('The simulated user wrote another message; the baseline sent: Yes, refund it to my card please.');
    expect(renderTerminal(run([], { personas: [p] }), { color: false })).toContain('\n      first difference from the baseline: Turn 3: the simulated user wrote another message, the reply the same\n');
    const turn3 = personaData(p).turns.find((t) => t.index === 3);
    expect(turn3?.baseline).toMatchObject({ message: 'Yes, refund it to my card please.', messageChanged: 'The simulated user wrote another message' });
    // JUnit says it in its own form, under the message (found walking persona scripts: it said nothing).
    expect(renderJUnit(run([], { personas: [p] }))).toContain('  [3] User (simulated): A refund to my card, please.\n  [3] The simulated user wrote another message; the baseline sent: Yes, refund it to my card please.\n');
    // A script's own edit, likewise; an unchanged message says nothing.
    const edited = { ...p, turns: p.turns.map((t, i) => (i === 1 ? { ...t, message: 'Order 1234, broken', source: undefined } : i > 1 ? { ...t, message: base[i]?.message ?? t.message, source: undefined } : { ...t, source: undefined })) } as PersonaRecord;
    const xml = renderJUnit(run([], { personas: [edited] }));
    expect(xml).toContain("  [2] User: Order 1234, broken\n  [2] The script&apos;s message changed; the baseline sent: Order 1234. It arrived broken.\n");
    expect(xml).not.toContain('[3] The');
  });

  it('JUnit skips a simulator fault (never a failure or an error) and keeps who wrote each message', () => {
    const xml = renderJUnit(simulatedRun());
    expect(xml).toContain('failures="0" errors="0" skipped="1"');
    const fault = xml.slice(xml.indexOf('name="refund-simulated-fault"'));
    expect(fault).toMatch(/^name="refund-simulated-fault" file="\.agent-replay\/personas\/refunds\.yml" line="\d+" time="1\.500">\n {6}<skipped message="not evaluated \(not a failure\): simulator unreachable: HTTP 503/);
    expect(fault).toContain('[1] User (script): I want my money back');
    const failing = { ...script('refund-simulated-live'), verdict: 'fail' as const, drift: { transcript: 'different' as const, route: 'same' as const, verdict: 'newly_failing' as const } };
    const body = renderJUnit(run([], { personas: [failing] }));
    expect(body).toContain('  [2] User (from the baseline): Order 1234. It arrived broken.');
    expect(body).toContain('  [3] User (simulated): A refund to my card, please.');
    expect(body).toContain('  user simulated from turn 3 · ended: the simulated user was done');
  });

  it('report.html carries the sources, the simulation facts and the fault as data, and the fault as the row\'s why', () => {
    const data = personaData(script('refund-simulated-live'));
    expect(data.turns.map((t) => t.source)).toEqual(['script', 'from the baseline', 'simulated', 'simulated']);
    expect(data.simulation?.facts).toEqual(['user simulated from turn 3', 'ended: the simulated user was done: The agent refunded order 1234 to my card.', '3 simulator calls (1 retry)']);
    const page = renderHtml(simulatedRun());
    expect(page).toContain('<span class="why">simulator unreachable: HTTP 503 from https://llm.example.com/v1/chat/completions after 3 attempts: Service Unavailable</span>');
    expect(personaData(personaScripts()[0] as PersonaRecord)).not.toHaveProperty('simulation');
  });
});

describe('untrusted text from the simulator and the agent stays inert', () => {
  const hostile = (): RunRecord => {
    const live = script('refund-simulated-live');
    const turns = live.turns.map((t) => (t.source === 'simulator' ? { ...t, message: `${HOSTILE} @reviewer` } : t));
    const sim = { ...live.simulation!, goal: `Goal ${HOSTILE}`, doneReason: `Done ${HOSTILE}` };
    const fault = script('refund-simulated-fault');
    return run([], {
      personas: [
        { ...live, turns, simulation: sim, verdict: 'fail', drift: { transcript: 'different', route: 'same', verdict: 'newly_failing' } },
        { ...fault, simulation: { ...fault.simulation!, fault: `simulator returned no usable JSON: ${HOSTILE}` } },
      ],
    });
  };

  it('injects no HTML, mentions nobody, keeps <details> balanced', () => {
    for (const md of [renderComment(hostile(), ctx), renderMarkdownReport(hostile(), ctx)]) {
      const html = githubHtml(md);
      expect(html).not.toMatch(/<script|<img|<h[12]>/i);
      expect(html).not.toContain('<strong>bold</strong>');
      expect(outsideCode(html)).not.toMatch(/@someone|@reviewer|#123|GH-45/);
      expect(count(html, /<details[ >]/)).toBe(count(html, '</details>'));
      expect(visibleText(html)).toContain('simulator returned no usable JSON: | a | b |');
    }
    const page = renderHtml(hostile());
    expect(page.slice(0, page.indexOf('<script type="application/json"'))).not.toMatch(/<script>alert|<img/);
    const xml = renderJUnit(hostile());
    expect(xml).not.toMatch(/<script/);
    expect(xml).not.toContain('\u001b');
    const text = renderTerminal(hostile(), { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202E');
  });

  it('a fixture-only run mentions no simulator', () => {
    expect(renderComment(run([], { personas: [persona('plain')] }), ctx)).not.toMatch(/simulat/i);
  });
});
