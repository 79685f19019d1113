// What a pull request changed in its own suite (docs/action.md, "The PR comment", "Suite edited")
// is said on every surface that shows the run: the comment (the model), the terminal and
// report.html, in the same words, with the pull request's text escaped for each.

import { describe, expect, it } from 'vitest';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import type { RunRecord, SuiteEdits } from '../../src/types.js';
import { ctx, fixture, mixed, run } from './fixtures.js';
import { parseRecord } from '../../src/record/index.js';

const EDITS: SuiteEdits = {
  base: 'b'.repeat(40),
  fixtures: [
    { label: 'refund-policy', file: '.agent-replay/fixtures/suite.yml', change: 'assertion', before: 'contains "30 days"', after: null },
    { label: 'opening-hours', file: '.agent-replay/fixtures/suite.yml', change: 'deleted', before: 'regex /9 to 5/', after: null },
    { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'assertion', before: 'toolNotCalled issue_refund', after: null },
  ],
  baselines: [{ file: '.agent-replay/baselines/refund-policy.json', status: 'modified' }],
  unknown: null,
};

const edited = (e: SuiteEdits = EDITS): RunRecord => run(mixed().fixtures, { suiteEdits: e });

describe('the suite edits in the terminal', () => {
  it('says them under the headline in the comment\'s words: each check, script and baseline', () => {
    const text = renderTerminal(edited(), { color: false });
    const at = text.indexOf('This pull request edits the suite.');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(text.indexOf('verdicts:'));
    expect(text).toContain('  These results were measured against the suite as this pull request changes it, compared with its base bbbbbbb.');
    expect(text).toContain('  2 fixture checks changed or removed:\n    - refund-policy in .agent-replay/fixtures/suite.yml: check contains "30 days" is now none (a probe)\n');
    expect(text).toContain('    - opening-hours deleted from .agent-replay/fixtures/suite.yml; its check was regex /9 to 5/\n');
    expect(text).toContain('  1 persona script with checks changed or removed:\n    - refund-dialog in .agent-replay/personas/refund.yml: check toolNotCalled issue_refund removed\n');
    expect(text).toContain('  1 baseline edited outside an accept commit:\n    - .agent-replay/baselines/refund-policy.json changed by a commit that is not an accept commit\n');
    // The comment says the same things.
    const comment = renderComment(edited(), ctx);
    expect(comment).toContain('- `refund-dialog` in `.agent-replay/personas/refund.yml`: check `toolNotCalled issue_refund` removed');
    expect(comment).toContain('**1 persona script with checks changed or removed**');
  });

  it('shows a label\'s control characters as escapes, and says what could not be compared', () => {
    const text = renderTerminal(edited({ ...EDITS, fixtures: [{ ...EDITS.fixtures[0]!, label: 'evil\u001b[2Jlabel' }], baselines: [], unknown: 'GitHub lists only 250 of the 300 commits.' }), { color: false });
    expect(text).not.toContain('\u001b[2J');
    expect(text).toContain('evil\\u001b[2Jlabel in');
    expect(text).toContain('  Not everything could be compared: GitHub lists only 250 of the 300 commits.');
  });

  it('says nothing of it when the record has none', () => {
    expect(renderTerminal(run(mixed().fixtures), { color: false })).not.toContain('edits the suite');
    expect(renderHtml(run(mixed().fixtures))).not.toContain('edits the suite');
  });
});

describe('the suite edits of a checkout (the CLI\'s --base)', () => {
  it('says the checkout edits the suite against the revision given, not a pull request, on every surface', () => {
    const e: SuiteEdits = { ...EDITS, source: 'git', rev: 'origin/main' };
    const text = renderTerminal(edited(e), { color: false });
    expect(text).toContain('This checkout edits the suite, against origin/main.\n  These results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with origin/main (bbbbbbb).\n');
    expect(text).not.toContain('pull request');
    const comment = renderComment(edited(e), ctx);
    expect(comment).toContain('#### ✏️ This checkout edits the suite, against `origin/main`\n\nThese results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with `origin/main` (`bbbbbbb`).');
    expect(renderHtml(edited({ ...e, rev: 'x<b>' }))).toContain('<b>This checkout edits the suite, against <code>x&lt;b&gt;</code>.</b> These results were measured against the suite as this checkout has it');
    // A record of an older CLI names no revision: the commit alone.
    expect(renderTerminal(edited({ ...e, rev: undefined }), { color: false })).toContain('This checkout edits the suite.\n  These results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with bbbbbbb.\n');
  });
});

describe('the suite edits of what a persona script replays', () => {
  it('names the parts it replays no more, now too, or in place of others, and counts each script once', () => {
    const file = '.agent-replay/personas/refund.yml';
    const e: SuiteEdits = {
      ...EDITS,
      fixtures: [
        EDITS.fixtures[2]!,
        { label: 'refund-dialog', kind: 'persona', file, change: 'script', before: 'opening "I want my money back"', after: 'opening "Hi"' },
        { label: 'hours', kind: 'persona', file, change: 'script', before: 'mock find_order answers {"status": "shipped"}', after: null },
        { label: 'late', kind: 'persona', file, change: 'script', before: null, after: 'follow-up "thanks" (turn 2)' },
      ],
      baselines: [],
    };
    const text = renderTerminal(edited(e), { color: false });
    expect(text).toContain(
      '  3 persona scripts with checks or what is replayed changed:\n' +
        `    - refund-dialog in ${file}: check toolNotCalled issue_refund removed\n` +
        `    - refund-dialog in ${file}: replayed opening "I want my money back" is now opening "Hi"\n` +
        `    - hours in ${file}: replays mock find_order answers {"status": "shipped"} no more\n` +
        `    - late in ${file}: replays follow-up "thanks" (turn 2) now too\n`,
    );
    const comment = renderComment(edited({ ...e, fixtures: e.fixtures.slice(1, 2) }), ctx);
    expect(comment).toContain('**1 persona script with what is replayed changed**');
    expect(comment).toContain(`- \`refund-dialog\` in \`${file}\`: replayed \`opening "I want my money back"\` is now \`opening "Hi"\``);
  });
});

describe('the suite edits of a fixture\'s message and an item\'s repeat', () => {
  it('names the message replayed in place of another and the repeat old and new, and counts each fixture once', () => {
    const file = '.agent-replay/fixtures/suite.yml';
    const e: SuiteEdits = {
      ...EDITS,
      fixtures: [
        EDITS.fixtures[0]!,
        { label: 'refund-policy', file, change: 'script', before: 'message "Can I get my money back?"', after: 'message "Hi"' },
        { label: 'refund-policy', file, change: 'repeat', before: 'repeat count 3, minPass 3', after: 'repeat count 3, minPass 1' },
        { label: 'hours', file, change: 'repeat', before: null, after: 'repeat count 5, minPass 1' },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'repeat', before: 'repeat count 2, minPass 2', after: null },
      ],
      baselines: [],
    };
    const text = renderTerminal(edited(e), { color: false });
    expect(text).toContain(
      '  2 fixtures with checks, what is replayed or repeat changed:\n' +
        `    - refund-policy in ${file}: check contains "30 days" is now none (a probe)\n` +
        `    - refund-policy in ${file}: replayed message "Can I get my money back?" is now message "Hi"\n` +
        `    - refund-policy in ${file}: repeat count 3, minPass 3 is now repeat count 3, minPass 1\n` +
        `    - hours in ${file}: config.yml's repeat (none of its own) is now repeat count 5, minPass 1\n`,
    );
    expect(text).toContain("  1 persona script with repeat changed:\n    - refund-dialog in .agent-replay/personas/refund.yml: repeat count 2, minPass 2 is now config.yml's repeat (none of its own)\n");
    const comment = renderComment(edited({ ...e, fixtures: e.fixtures.slice(1, 2) }), ctx);
    expect(comment).toContain('**1 fixture with what is replayed changed**');
    expect(comment).toContain(`- \`refund-policy\` in \`${file}\`: replayed \`message "Can I get my money back?"\` is now \`message "Hi"\``);
  });
});

describe('suite edits that could not be compared', () => {
  it('never says the pull request edits the suite when nothing was found: not known, and why, on every surface', () => {
    const e: SuiteEdits = { ...EDITS, fixtures: [], baselines: [], unknown: 'the pull request could not be compared with its base: GitHub answered 403.' };
    const text = renderTerminal(edited(e), { color: false });
    expect(text).not.toContain('This pull request edits the suite');
    expect(text).toContain(
      'Not known whether this pull request edits the suite.\n  These results were measured against the suite as this pull request changes it; no edit was found in what could be compared with its base bbbbbbb.\n' +
        '  Not everything could be compared: the pull request could not be compared with its base: GitHub answered 403.\n',
    );
    const comment = renderComment(edited(e), ctx);
    expect(comment).toContain('#### ✏️ Not known whether this pull request edits the suite\n\nThese results were measured against the suite as this pull request changes it; no edit was found in what could be compared with its base `bbbbbbb`.\n\nNot everything could be compared: the pull request could not be compared with its base');
    expect(comment).not.toContain('This pull request edits the suite');
    expect(renderHtml(edited(e))).toContain('<b>Not known whether this pull request edits the suite.</b> These results were measured against the suite as this pull request changes it; no edit was found in what could be compared with its base <code>bbbbbbb</code>.</p><p>Not everything could be compared: ');
    // From git (run --base) alike.
    const g = renderTerminal(edited({ ...e, source: 'git', rev: 'main', unknown: 'the working tree could not be compared with main (bbbbbbb): fatal: bad object.' }), { color: false });
    expect(g).toContain('Not known whether this checkout edits the suite, against main.\n  These results were measured against the suite as this checkout has it (uncommitted and untracked files included); no edit was found in what could be compared with main (bbbbbbb).\n');
    // With something found and something not compared, the title stands, and the block says what was not compared.
    const partial = renderTerminal(edited({ ...EDITS, unknown: 'GitHub lists only the first 300 files this pull request changes.' }), { color: false });
    expect(partial).toContain('This pull request edits the suite.');
    expect(partial).toContain('  Not everything could be compared: GitHub lists only the first 300 files this pull request changes.');
  });
});

describe('the headline of a run against an edited suite', () => {
  it('never says "No regressions" when the suite was edited: every item unchanged against a rewritten baseline is no proof; a comparison that found nothing keeps it', () => {
    // A baseline edited by hand to the new wrong reply, the check weakened: every item reads unchanged.
    const same = [fixture('refund-policy'), fixture('greeting')];
    const bare = run(same);
    expect(renderComment(bare, ctx)).toContain('### ✅ No regressions: 2 unchanged');
    for (const e of [EDITS, { ...EDITS, fixtures: [], baselines: [], config: [{ file: '.agent-replay/config.yml', setting: 'stats.alpha', change: 'setting' as const, before: '0.05', after: '0.5' }] }, { ...EDITS, fixtures: [], baselines: [], workflows: [{ file: '.github/workflows/agent-replay.yml', status: 'modified' }] }]) {
      const r = run(same, { suiteEdits: e });
      expect(renderComment(r, ctx)).toContain('### ✅ No new failures: 2 unchanged\n');
      expect(renderTerminal(r, { color: false })).toContain('agent-replay: No new failures: 2 unchanged\n');
      expect(renderComment(r, ctx)).not.toContain('No regressions');
    }
    // Nothing found (not everything compared): the run's own words stand, the block says what was not compared.
    expect(renderComment(run(same, { suiteEdits: { ...EDITS, fixtures: [], baselines: [], unknown: 'GitHub answered 403.' } }), ctx)).toContain('### ✅ No regressions: 2 unchanged');
  });
});

describe('the files that run the check a pull request changed', () => {
  const RUNS: SuiteEdits = {
    base: 'b'.repeat(40),
    fixtures: [],
    baselines: [],
    workflows: [
      { file: '.github/workflows/agent-replay.yml', status: 'modified' },
      { file: 'dist/index.js', status: 'modified', action: './', by: '.github/workflows/dogfood.yml' },
      { file: 'scripts/setup.sh', status: 'modified', by: '.github/workflows/agent-replay.yml' },
      { file: 'tools/replay/run.sh', status: 'added', action: './tools/replay', by: '.github/workflows/agent-replay.yml' },
    ],
    unknown: null,
  };

  it('counts each kind, names what uses or names each file, and says the results were measured by what the pull request changed, on every surface', () => {
    const comment = renderComment(edited(RUNS), ctx);
    expect(comment).toContain(
      '#### ✏️ This pull request edits what runs the check\n\nThese results were measured by the check as this pull request changes what runs it, compared with its base `bbbbbbb`.\n\n' +
        '**4 files that run the check (1 workflow file, 2 files of local actions, 1 file a step names) changed: they can change what the check runs and with which inputs (`fail-on`, `repeat`, the judge), and rewrite the checked-out suite (fixtures, baselines, `config.yml`) or the agent\'s address before the check reads them, none of which is compared, and can write any results**\n\n' +
        '- `.github/workflows/agent-replay.yml` changed\n' +
        "- `dist/index.js` changed, a file of this repository's own action (`./`), which `.github/workflows/dogfood.yml` uses\n" +
        '- `scripts/setup.sh` changed, named by a `run:` step of `.github/workflows/agent-replay.yml`\n' +
        '- `tools/replay/run.sh` added, a file of the local action `./tools/replay`, which `.github/workflows/agent-replay.yml` uses',
    );
    const one = renderComment(edited({ ...RUNS, workflows: RUNS.workflows!.slice(2, 3) }), ctx);
    expect(one).toContain('**1 file a step names changed: it can change what the check runs and with which inputs (`fail-on`, `repeat`, the judge), and rewrite the checked-out suite (fixtures, baselines, `config.yml`) or the agent\'s address before the check reads them, none of which is compared, and can write any results**');
    // A workflow's own steps can rewrite the checked-out suite as well: said in the workflows' heading too.
    const workflow = renderComment(edited({ ...RUNS, workflows: RUNS.workflows!.slice(0, 1) }), ctx);
    expect(workflow).toContain(
      "**1 workflow file changed: a workflow decides what the check runs and with which inputs (`fail-on`, `repeat`, the judge), and its steps can rewrite the checked-out suite (fixtures, baselines, `config.yml`) or the agent's address before the check reads them, none of which is compared, and a run of a workflow a pull request changed can write any results**",
    );
    const text = renderTerminal(edited(RUNS), { color: false });
    expect(text).toContain('This pull request edits what runs the check.');
    expect(text).toContain("dist/index.js changed, a file of this repository's own action (./), which .github/workflows/dogfood.yml uses");
    const html = renderHtml(edited(RUNS));
    expect(html).toContain('<li><code>scripts/setup.sh</code> changed, named by a <code>run:</code> step of <code>.github/workflows/agent-replay.yml</code></li>');
    // results.json keeps what uses or names each file (schema version 1).
    expect(parseRecord(JSON.stringify(edited(RUNS)), 'results.json').suiteEdits?.workflows).toEqual(RUNS.workflows);
  });
});

describe('the suite edits in report.html', () => {
  it('is a notice at the top with each label, file and check in a <code>, escaped', () => {
    const html = renderHtml(edited({ ...EDITS, fixtures: [...EDITS.fixtures, { label: 'x<script>alert(1)</script>', file: 'f.yml', change: 'deleted', before: null, after: null }] }));
    const start = html.indexOf('<div class="notice suite-edits">');
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(html.indexOf('<main>'));
    const notice = html.slice(start, html.indexOf('</div>', start));
    expect(notice).toContain('<b>This pull request edits the suite.</b> These results were measured against the suite as this pull request changes it, compared with its base <code>bbbbbbb</code>.');
    expect(notice).toContain('<li><code>refund-policy</code> in <code>.agent-replay/fixtures/suite.yml</code>: check <code>contains &quot;30 days&quot;</code> is now none (a probe)</li>');
    expect(notice).toContain('<p>1 baseline edited outside an accept commit:</p><ul><li><code>.agent-replay/baselines/refund-policy.json</code> changed by a commit that is not an accept commit</li></ul>');
    expect(notice).toContain('<code>x&lt;script&gt;alert(1)&lt;/script&gt;</code> deleted from <code>f.yml</code>; its check was none (a probe)');
    expect(notice).not.toContain('<script>');
  });

  it('says the baselines of a git comparison (the CLI\'s --base) changed since the base, accept commits not told apart', () => {
    const e: SuiteEdits = { ...EDITS, fixtures: [], source: 'git' };
    const html = renderHtml(edited(e));
    expect(html).toContain('<p>1 baseline changed since the base (git cannot tell an accept commit apart: baselines accepted on this branch are listed too):</p>');
    expect(html).toContain('<code>.agent-replay/baselines/refund-policy.json</code> changed since the base</li>');
    expect(renderComment(edited(e), ctx)).toContain('- `.agent-replay/baselines/refund-policy.json` changed since the base');
  });
});

describe('the settings of config.yml a pull request changed', () => {
  const CONFIG: SuiteEdits = {
    ...EDITS,
    fixtures: [],
    baselines: [],
    config: [
      { file: '.agent-replay/config.yml', setting: 'judge.model', change: 'setting', before: '"gpt-4o-mini"', after: '"gpt-4o"' },
      { file: '.agent-replay/config.yml', setting: 'judge.apiKey', change: 'secret', before: 'set', after: 'set' },
      { file: '.agent-replay/config.yml', setting: 'repeat.minPass', change: 'setting', before: '2', after: '3', default: 'after' },
      { file: '.agent-replay/config.yml', setting: 'stats.alpha', change: 'setting', before: '0.05', after: '0.1', default: 'before' },
      { file: '.agent-replay/config.yml', setting: 'repeat.max', change: 'setting', before: '5', after: null },
    ],
  };

  it('says each old and new, a default as the default and "not set" only without one, a credential only changed, in the same words on every surface, and results.json keeps them (schema version 1)', () => {
    const text = renderTerminal(edited(CONFIG), { color: false });
    expect(text).toContain(
      '  5 settings of config.yml changed (every item\'s replay or verdict can differ):\n' +
        '    - judge.model in .agent-replay/config.yml: "gpt-4o-mini" is now "gpt-4o"\n' +
        '    - judge.apiKey in .agent-replay/config.yml: changed (a credential: its value is not shown)\n' +
        '    - repeat.minPass in .agent-replay/config.yml: 2 is now 3 (the default)\n' +
        '    - stats.alpha in .agent-replay/config.yml: 0.05 (the default) is now 0.1\n' +
        '    - repeat.max in .agent-replay/config.yml: 5 is now not set\n' +
        // The Action's inputs that set an edited setting over config.yml are not compared: said once.
        // After the settings, not one of them (the head counts 5).
        "    An input of the workflow step sets its setting over config.yml when a step gives it (judge-model over judge.model, judge-api-key over judge.apiKey, repeat-max over repeat.max); the run does not record its step's inputs, and inputs are not compared.\n",
    );
    const comment = renderComment(edited(CONFIG), ctx);
    expect(comment).toContain('- `judge.model` in `.agent-replay/config.yml`: `"gpt-4o-mini"` is now `"gpt-4o"`');
    expect(comment).toContain('- `stats.alpha` in `.agent-replay/config.yml`: `0.05` (the default) is now `0.1`');
    // config.yml is code, as in the group's head; the sentence is the rule, not a claim about this run's inputs (not recorded).
    expect(comment).toContain(
      "- `repeat.max` in `.agent-replay/config.yml`: `5` is now not set\n\nAn input of the workflow step sets its setting over `config.yml` when a step gives it (`judge-model` over `judge.model`, `judge-api-key` over `judge.apiKey`, `repeat-max` over `repeat.max`); the run does not record its step's inputs, and inputs are not compared.",
    );
    expect(comment).not.toContain('- An input of the workflow step');
    expect(renderHtml(edited(CONFIG))).toContain('<li><code>judge.model</code> in <code>.agent-replay/config.yml</code>: <code>&quot;gpt-4o-mini&quot;</code> is now <code>&quot;gpt-4o&quot;</code></li>');
    const record = edited(CONFIG);
    expect(parseRecord(JSON.stringify(record), 'results.json').suiteEdits?.config).toEqual(CONFIG.config);
    expect(() => parseRecord(JSON.stringify({ ...record, suiteEdits: { ...CONFIG, config: [{ ...CONFIG.config![0]!, change: 'other' }] } }), 'results.json')).toThrow();
    expect(() => parseRecord(JSON.stringify({ ...record, suiteEdits: { ...CONFIG, config: [{ ...CONFIG.config![0]!, default: 'neither' }] } }), 'results.json')).toThrow();
    // Neither side writes it and another setting changed it (a judge added): each side said by default.
    const both = renderComment(edited({ ...CONFIG, config: [{ file: '.agent-replay/config.yml', setting: 'meaning.check', change: 'setting', before: '"facts"', after: '"judge"', default: 'both' }] }), ctx);
    expect(both).toContain('- `meaning.check` in `.agent-replay/config.yml`: `"facts"` (the default) is now `"judge"` (the default)\n');
    // From git (run --base) the flags that set one are named; an edit none sets says nothing of them.
    const git = renderTerminal(edited({ ...CONFIG, source: 'git', rev: 'main' }), { color: false });
    expect(git).toContain('    A flag of the command sets its setting over config.yml when a command gives it (--repeat-max over repeat.max); the run does not record its flags, and flags are not compared.\n');
    expect(renderHtml(edited(CONFIG))).toContain('</ul><p>An input of the workflow step sets its setting over <code>config.yml</code> when a step gives it');
    const alone = renderTerminal(edited({ ...CONFIG, config: [CONFIG.config![3]!] }), { color: false });
    expect(alone).toContain('    - stats.alpha in .agent-replay/config.yml: 0.05 (the default) is now 0.1\nverdicts:');
    expect(alone).not.toContain('sets its setting over');
  });

  it('says a config.yml that does not read, or is too large to read, in our words only (a record read back may hold anything)', () => {
    const broken: SuiteEdits = { ...CONFIG, config: [{ file: '.agent-replay/config.yml', setting: null, change: 'unreadable', before: 'does not read as YAML (line 3)<script>\u001b[2J', after: null }] };
    const text = renderTerminal(edited(broken), { color: false });
    expect(text).toContain('  config.yml not compared:\n    - .agent-replay/config.yml at the base does not read as YAML (line 3)script2J: its settings were not compared\n');
    const html = renderHtml(edited(broken));
    const notice = html.slice(html.indexOf('<div class="notice suite-edits">'), html.indexOf('</div>', html.indexOf('<div class="notice suite-edits">')));
    expect(notice).toContain('<code>.agent-replay/config.yml</code> at the base does not read as YAML (line 3)script2J: its settings were not compared');
    const large: SuiteEdits = { ...CONFIG, config: [{ file: '.agent-replay/config.yml', setting: null, change: 'unreadable', before: 'does not read as YAML (line 2)', after: 'is over 1 MB (GitHub gives no text of a file that large)' }] };
    expect(renderComment(edited(large), ctx)).toContain(
      '**`config.yml` not compared**\n\n- `.agent-replay/config.yml` at the base does not read as YAML (line 2) and at the head is over 1 MB (GitHub gives no text of a file that large): its settings were not compared\n',
    );
  });
});
