// Report mode reads the records of its own suite (docs/action.md, "Two suites in one repository"):
// another suite's, downloaded beside them, are skipped; none of its own is an error naming the
// files and the fix. The pure choice, without starting the Action (report.test.ts runs one report
// step with both suites' artifacts).

import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asideWords, mergeReportResults, otherSuitesUnread, ownSuiteResults, readResults, reportSuiteDir, unreadWords, type ReadResults } from '../../src/action/report.js';
import { mergeRecords, serializeRecord } from '../../src/record/index.js';
import { tempDir } from '../support/temp.js';
import type { RunRecord } from '../../src/types.js';
import { fixture, run } from '../report/fixtures.js';

const record = (suitePath?: string): RunRecord => ({ ...(suitePath === undefined ? {} : { suitePath }) }) as RunRecord;
const at = (file: string, suitePath?: string): ReadResults => ({ file, record: record(suitePath) });
const SALES = 'shards/agent-replay-results-apps-sales-.agent-replay-1111111/results.json';

describe('ownSuiteResults', () => {
  it("keeps the step's suite's records and those that do not say, skips another suite's", () => {
    const read = [at('shards/a/results.json', '.agent-replay'), at(SALES, 'apps/sales/.agent-replay'), at('shards/old/results.json')];
    // One that does not say goes with the step whose pattern downloads it: read as its suite's run.
    expect(ownSuiteResults(read, '.agent-replay')).toEqual({ kept: [read[0], at('shards/old/results.json', '.agent-replay')], skipped: [{ file: SALES, suitePath: 'apps/sales/.agent-replay' }] });
    // The dir input as a workflow may spell it: ./apps/sales/.agent-replay/ is that folder.
    expect(ownSuiteResults(read, './apps/sales/.agent-replay/').kept).toEqual([read[1], at('shards/old/results.json', 'apps/sales/.agent-replay')]);
  });

  it("a record without suitePath beside a re-run of the step's suite that says it: the merge reads them as this step does, one run given twice, the later one used", () => {
    // Was: kept as the step's suite's run, then refused by the merge as two runs that cannot be told to be of one suite.
    const first = run([fixture('a'), fixture('b')], { startedAt: '2026-12-01T09:00:00.000Z' });
    const rerun = run([fixture('a'), fixture('b', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', suitePath: 'apps/a/.agent-replay' });
    const read: ReadResults[] = [
      { file: 'shards/old/results.json', record: first },
      { file: 'shards/new/results.json', record: rerun },
    ];
    const { kept } = ownSuiteResults(read, 'apps/a/.agent-replay');
    const lines: string[] = [];
    const merged = mergeRecords(
      kept.map((r) => r.record),
      kept.map((r) => r.file),
      (l) => lines.push(l),
    );
    expect(merged.fixtures.map((f) => f.reply)).toEqual(['Reply for a.', 'again']);
    expect(merged.suitePath).toBe('apps/a/.agent-replay');
    expect(lines).toEqual(['the whole run is given twice (shards/old/results.json and shards/new/results.json: the same items at one commit, a re-run): shards/new/results.json is used (it started later)']);
    // With a dir input that is no folder inside the repository nothing says its suite: the merge still refuses them, as the CLI's report does.
    const outside = ownSuiteResults(read, '/abs/suite').kept;
    expect(() => mergeRecords(outside.map((r) => r.record), outside.map((r) => r.file))).toThrow(/shards\/old\/results\.json does not say its suite folder/);
  });

  it("two runs that cannot be told to be of one suite: report mode's fix is its own (the dir input, or one artifact downloaded), the CLI's keeps its words", () => {
    // Was: "give one of them alone", the CLI's words, where the step is given a folder of downloaded artifacts.
    const first = run([fixture('a')], { startedAt: '2026-12-01T09:00:00.000Z' });
    const rerun = run([fixture('a')], { startedAt: '2026-12-01T10:00:00.000Z', suitePath: 'apps/a/.agent-replay' });
    const outside = ownSuiteResults(
      [
        { file: 'shards/old/results.json', record: first },
        { file: 'shards/new/results.json', record: rerun },
      ],
      '/abs/suite',
    ).kept;
    const refusal = (): string => {
      try {
        mergeReportResults(outside, () => {});
      } catch (e) {
        return (e as Error).message;
      }
      return 'merged';
    };
    expect(refusal()).toMatch(
      /a merge cannot tell that they are runs of one suite, so it does not read them as one run given twice \(a re-run of the check\); report one of them: give this step the suite's folder in the repository as dir \(its check step's\), where a record without suitePath is a run of that suite and the one that started last is used, or download one of their artifacts only \(narrow the download step's pattern, or the results input, to it\): for a re-run, the one that started last, shards\/new\/results\.json$/,
    );
    expect(refusal()).not.toContain('give one of them alone');
    expect(() => mergeRecords(outside.map((r) => r.record), outside.map((r) => r.file))).toThrow(/; give one of them alone: for a re-run, the one that started last, shards\/new\/results\.json$/);
  });

  it("a re-run beside the run it re-ran: report mode's fix is one of their artifacts, the CLI's keeps its words", () => {
    // Was: "give one record of each run (the run itself, or the re-run alone)", the CLI's words, in report mode too.
    const first = run([fixture('a'), fixture('b')], { startedAt: '2026-12-01T09:00:00.000Z' });
    const rerun = run([fixture('b')], { startedAt: '2026-12-01T10:00:00.000Z', selection: { rerunOf: 'results.json', only: null, labels: ['b'] } });
    const kept: ReadResults[] = [
      { file: 'shards/run/results.json', record: first },
      { file: 'shards/rerun/results.json', record: rerun },
    ];
    expect(() => mergeReportResults(kept, () => {})).toThrow(
      /shards\/rerun\/results\.json replayed part of the suite \(by the CLI's run --rerun results\.json\): a merge does not read a re-run over the run it re-ran; report one record of each run: download the run's artifact or the re-run's, not both \(narrow the download step's pattern, or the results input, to it\)$/,
    );
    expect(() => mergeRecords(kept.map((r) => r.record), kept.map((r) => r.file))).toThrow(
      /shards\/rerun\/results\.json replayed part of the suite \(--rerun results\.json\): .*; give one record of each run \(the run itself, or the re-run alone\)$/,
    );
  });

  it("a record of part of the suite is said to be the CLI's run's in report mode (no input of the Action replays part of it), by its flags in the CLI's", () => {
    // Was: "replayed part of the suite (--rerun results.json)", "a run of part of the suite (--only b)": flags of no Action input.
    const only = run([fixture('b')], { startedAt: '2026-12-01T10:00:00.000Z', selection: { rerunOf: null, only: ['b'], labels: ['b'] } });
    const shard = run([fixture('b')], { shard: { index: 2, total: 2, suiteHash: 'h' } });
    const kept: ReadResults[] = [
      { file: 'shards/s2/results.json', record: shard },
      { file: 'shards/only/results.json', record: only },
    ];
    expect(() => mergeReportResults(kept, () => {})).toThrow(/; shards\/only\/results\.json is a run of part of the suite \(by the CLI's run --only b\), not a shard: /);
    expect(() => mergeRecords(kept.map((r) => r.record), kept.map((r) => r.file))).toThrow(/; shards\/only\/results\.json is a run of part of the suite \(--only b\), not a shard: /);
  });

  it("a whole run beside the shards it holds: report mode's fix downloads the whole runs' or the shards' artifacts (init's pattern named), the CLI's gives the shards' files", () => {
    // Was: "download the shards' artifacts only, agent-replay-results-<commit>-shard-*" from the CLI's report too, which is given files.
    const whole = run([fixture('a'), fixture('b')]);
    const shard = (index: number, label: string): RunRecord => run([fixture(label)], { shard: { index, total: 2, suiteHash: 'h' } });
    const kept: ReadResults[] = [
      { file: 'shards/merged/results.json', record: whole },
      { file: 'shards/s1/results.json', record: shard(1, 'a') },
      { file: 'shards/s2/results.json', record: shard(2, 'b') },
    ];
    expect(() => mergeReportResults(kept, () => {})).toThrow(
      "; shards/merged/results.json is a whole run, not a shard: give either it or the shard records, not both (download the whole run's artifacts or the shards', not both: in the download step, pattern: agent-replay-results-<commit>?(-attempt-*) (init's) takes the whole runs only, agent-replay-results-<commit>-shard-* the shards only)",
    );
    expect(() => mergeRecords(kept.map((r) => r.record), kept.map((r) => r.file))).toThrow(
      /; shards\/merged\/results\.json is a whole run, not a shard: give either it or the shard records, not both \(give the shards' results files only, those run --shard wrote\)$/,
    );
  });

  it("a shard given twice, one of part of it: report mode's line says to re-run the shard's job, the CLI's keeps its flags", () => {
    // Was: "replay the whole shard (run --shard 1/2 without --rerun or --only, or re-run its job)" in report mode's log, CLI flags first.
    const first = run([fixture('a')], { shard: { index: 1, total: 2, suiteHash: 'h' }, startedAt: '2026-12-01T09:00:00.000Z' });
    const part = run([fixture('a', { reply: 'again' })], { shard: { index: 1, total: 2, suiteHash: 'h' }, startedAt: '2026-12-01T10:00:00.000Z', selection: { rerunOf: 's1.json', only: null, labels: ['a'] } });
    const second = run([fixture('b')], { shard: { index: 2, total: 2, suiteHash: 'h' } });
    const kept: ReadResults[] = [
      { file: 'shards/s1/results.json', record: first },
      { file: 'shards/s1-rerun/results.json', record: part },
      { file: 'shards/s2/results.json', record: second },
    ];
    const report: string[] = [];
    mergeReportResults(kept, (l) => report.push(l));
    expect(report).toEqual([
      "shard 1/2 is given twice (shards/s1/results.json and shards/s1-rerun/results.json): shards/s1/results.json is used (it holds the whole shard, shards/s1-rerun/results.json only part of it: by the CLI's run --rerun s1.json); to merge a re-run, re-run the shard's job, whose artifact holds the whole shard (or replay it whole with the CLI's run --shard 1/2, without --rerun or --only)",
    ]);
    const cli: string[] = [];
    mergeRecords(kept.map((r) => r.record), kept.map((r) => r.file), (l) => cli.push(l));
    expect(cli).toEqual([
      'shard 1/2 is given twice (shards/s1/results.json and shards/s1-rerun/results.json): shards/s1/results.json is used (it holds the whole shard, shards/s1-rerun/results.json only part of it: --rerun s1.json); to merge a re-run, replay the whole shard (run --shard 1/2 without --rerun or --only, or re-run its job)',
    ]);
  });

  it("only another suite's records: an error naming the file, its suite and the dir to set", () => {
    const read = [at(SALES, 'apps/sales/.agent-replay'), at('shards/x/results.json', 'apps/x/.agent-replay')];
    expect(() => ownSuiteResults(read, '.agent-replay')).toThrow(
      `report mode: no results file is a run of .agent-replay, this step's dir input: ${SALES} is a run of the suite in apps/sales/.agent-replay (its suitePath) (2 files in all, runs of apps/sales/.agent-replay, apps/x/.agent-replay). ` +
        "Set dir: apps/sales/.agent-replay on this step when it reports that suite (as its check step's dir), or download this suite's results artifacts only " +
        "(pattern: agent-replay-results-<commit>*, the commit the runs recorded, such as agent-replay-results-${{ github.event.workflow_run.head_sha }}*: the default folder's artifacts are named by the commit alone, and agent-replay-results-* takes every suite's)",
    );
    // A suite in another folder: its pattern names its folder, then the commit, which ends the
    // folder's name (agent-replay-results-apps-x-.agent-replay-* takes apps/x/.agent-replay-v2's too).
    expect(() => ownSuiteResults([at('shards/a/results.json', '.agent-replay')], 'apps/x/.agent-replay')).toThrow(
      "or download this suite's results artifacts only (pattern: agent-replay-results-apps-x-.agent-replay-<commit>*, the commit the runs recorded, such as agent-replay-results-apps-x-.agent-replay-${{ github.event.workflow_run.head_sha }}*: " +
        "the commit ends the folder's name, and agent-replay-results-apps-x-.agent-replay-* also takes the artifacts of a folder whose name goes on from this one's (apps/x/.agent-replay-v2))",
    );
  });

  it("an artifact's suitePath is shown on one line, its control characters as escapes", () => {
    expect(() => ownSuiteResults([at(SALES, 'evil\n::error::x\u001b[31m')], 'apps/sales/.agent-replay')).toThrow(/suite in evil ⏎ ::error::x\\u001b\[31m \(its suitePath\)/);
  });

  it("a dir input outside the repository cannot be told from a record: one suite's records are kept, as before; two suites' are refused, as the CLI's report refuses them", () => {
    const read = [at(SALES, 'apps/sales/.agent-replay'), at('shards/old/results.json')];
    expect(ownSuiteResults(read, '/abs/suite')).toEqual({ kept: read, skipped: [] });
    const two = [...read, at('shards/a/results.json', '.agent-replay'), at('shards/s2/results.json', 'apps/sales/.agent-replay/')];
    expect(() => ownSuiteResults(two, '/abs/suite')).toThrow(
      `report mode: the results files are runs of 2 suites (their suitePath): ${SALES}, shards/s2/results.json are runs of the suite in apps/sales/.agent-replay; shards/a/results.json is a run of the suite in .agent-replay. ` +
        "A report is of one suite, and these would be merged as one run, so they were not merged: this step's dir input, /abs/suite, is no folder inside the repository, so none of them can be told to be its suite. " +
        "Report each suite in its own step, with its folder as dir (its check step's) and its results artifacts only: dir: apps/sales/.agent-replay with pattern: agent-replay-results-apps-sales-.agent-replay-<commit>*, then dir: .agent-replay with pattern: agent-replay-results-<commit>* " +
        '(shards/old/results.json does not say its suite: it goes with the step whose pattern downloads it)',
    );
    // An artifact's file and suite are shown on one line.
    expect(() => ownSuiteResults([at('shards/a/results.json', '.agent-replay'), at('shards/x\n::error::y/results.json', 'apps/x\u001b[31m')], '../up')).toThrow(/shards\/x ⏎ ::error::y\/results\.json is a run of the suite in apps\/x\\u001b\[31m\. A report/);
  });
});

describe('otherSuitesUnread: a results file that cannot be read, set aside only when its artifact is another suite\'s', () => {
  const why = 'not valid JSON (Unexpected end of JSON input, at line 1, column 21): the file ends before the record does';
  const unread = (file: string) => ({ file, why });
  const SHA = '1111111';
  it("by the nearest folder named as a results artifact: another suite's is set aside, this suite's, or none, still refuses", () => {
    const files = [
      unread(`shards/agent-replay-results-apps-sales-.agent-replay-${SHA}-shard-2-of-2/results.json`),
      unread(`shards/agent-replay-results-${SHA}-attempt-2/results.json`),
      unread('shards/loose/results.json'),
      unread(`shards/agent-replay-results-apps-sales-.agent-replay-v2-${SHA}/sub/results.json`),
    ];
    const def = otherSuitesUnread(files, '.agent-replay');
    expect(def.aside.map((a) => a.artifact)).toEqual([`agent-replay-results-apps-sales-.agent-replay-${SHA}-shard-2-of-2`, `agent-replay-results-apps-sales-.agent-replay-v2-${SHA}`]);
    expect(def.unread).toEqual([files[1], files[2]]);
    // From the sales suite's step: its own artifact refuses; v2's (a folder whose name goes on from this one's) and the default suite's are set aside.
    const sales = otherSuitesUnread(files, './apps/sales/.agent-replay/');
    expect(sales.unread).toEqual([files[0], files[2]]);
    expect(sales.aside.map((a) => a.file)).toEqual([files[1]!.file, files[3]!.file]);
    // A dir input outside the repository cannot be told from an artifact's name: every file refuses, as before.
    expect(otherSuitesUnread(files, '/abs/suite')).toEqual({ aside: [], unread: files });
    // What is left is counted alone: the other suite's files are not "of" this report.
    expect(unreadWords(def.unread, 2)).toMatch(/^report mode: 2 of 4 results files could not be read, so nothing was merged/);
  });
});

describe("otherSuitesUnread: a file in no artifact's folder (a download by name, or merge-multiple) that says it is another suite's", () => {
  it("is set aside by the suitePath it names, as a record that is read is skipped: JSON of schema version 1 only, another folder inside the repository; this suite's, none, or another version's still refuses", async () => {
    // Was: "report mode: 1 of 3 results files could not be read, so nothing was merged", for a file its own suite's report step reads.
    const cwd = await tempDir('report-aside-');
    const sales = JSON.parse(serializeRecord(run([fixture('a')], { suitePath: 'apps/sales/.agent-replay' }))) as Record<string, unknown> & { fixtures: Record<string, unknown>[] };
    // Written by a newer agent-replay whose verdicts this one does not know: schema version 1, not read here.
    const newer = (suitePath: unknown, schemaVersion = 1) => JSON.stringify({ ...sales, schemaVersion, suitePath, tool: { ...(sales.tool as object), version: '9.0.0' }, fixtures: [{ ...sales.fixtures[0], verdict: 'flaky' }] });
    const files = {
      'sales.json': newer('apps/sales/.agent-replay/'),
      'own.json': newer('.agent-replay'),
      'outside.json': newer('../elsewhere'),
      'v2.json': newer('apps/sales/.agent-replay', 2),
      'cut.json': newer('apps/sales/.agent-replay').slice(0, 200),
      'in-own-artifact.json': newer('apps/sales/.agent-replay'),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
    const { read, unread } = await readResults(Object.keys(files).map((name) => join(cwd, name)), cwd);
    expect(read).toEqual([]);
    expect(unread.map((u) => u.suitePath)).toEqual(['apps/sales/.agent-replay/', '.agent-replay', '../elsewhere', undefined, undefined, 'apps/sales/.agent-replay']);
    // The last one as if in the default suite's artifact's folder (a download by pattern): the folder decides, as for any file.
    const placed = unread.map((u) => (u.file === 'in-own-artifact.json' ? { ...u, file: 'shards/agent-replay-results-1111111/results.json' } : u));
    const def = otherSuitesUnread(placed, '.agent-replay');
    expect(def.aside.map((a) => [a.file, a.artifact, a.suitePath])).toEqual([['sales.json', null, 'apps/sales/.agent-replay']]);
    expect(def.unread.map((u) => u.file)).toEqual(['own.json', 'outside.json', 'v2.json', 'cut.json', 'shards/agent-replay-results-1111111/results.json']);
    expect(asideWords(def.aside[0]!, '.agent-replay')).toBe(
      `report: set aside sales.json, which could not be read (${unread[0]!.why}): it is a run of the suite in apps/sales/.agent-replay (its suitePath), another suite than .agent-replay, this step's dir input, ` +
        "and that suite's own report step reads it; the rest are reported without it. To download this suite's results artifacts only: pattern: agent-replay-results-<commit>*, the commit the runs recorded, such as agent-replay-results-${{ github.event.workflow_run.head_sha }}*: the default folder's artifacts are named by the commit alone, and agent-replay-results-* takes every suite's",
    );
    expect(unread[0]!.why).toMatch(/^is not a valid agent-replay results file \(schema version 1\): fixtures\.0\.verdict: .*written by agent-replay 9\.0\.0, newer than this one/);
    // From the sales suite's step, the default suite's are the other suite's (by suitePath, by artifact); its own still refuses.
    const salesStep = otherSuitesUnread(placed, 'apps/sales/.agent-replay');
    expect(salesStep.aside.map((a) => [a.file, a.artifact])).toEqual([
      ['own.json', null],
      ['shards/agent-replay-results-1111111/results.json', 'agent-replay-results-1111111'],
    ]);
    expect(salesStep.unread.map((u) => u.file)).toEqual(['sales.json', 'outside.json', 'v2.json', 'cut.json']);
    // A dir input outside the repository cannot tell a suite from another: every file refuses, as before.
    expect(otherSuitesUnread(placed, '/abs/suite').aside).toEqual([]);
  });
});

describe('reportSuiteDir: the suite folder a pull request is compared for in report mode', () => {
  const ws = '/home/runner/work/shop/shop';
  it('is the dir input, also written as an absolute path inside the workspace, never a record\'s suitePath then', () => {
    expect(reportSuiteDir('.agent-replay', ws, 'elsewhere', true)).toEqual({ dir: '.agent-replay', refused: null });
    expect(reportSuiteDir('./apps/sales/.agent-replay/', ws, undefined, false)).toEqual({ dir: 'apps/sales/.agent-replay', refused: null });
    // `${{ github.workspace }}/.agent-replay`: a fork's record naming another folder compared nothing and read as no edit.
    expect(reportSuiteDir(`${ws}/.agent-replay`, ws, 'nowhere', true)).toEqual({ dir: '.agent-replay', refused: null });
  });

  it("outside the workspace takes a same-repository run's suitePath, never a fork's: said, not read as no edit", () => {
    expect(reportSuiteDir('/srv/suite', ws, 'apps/sales/.agent-replay', false)).toEqual({ dir: 'apps/sales/.agent-replay', refused: null });
    expect(reportSuiteDir('/srv/suite', ws, undefined, false)).toEqual({ dir: null, refused: null });
    expect(reportSuiteDir('/srv/suite', ws, undefined, true).refused).toBe(
      "this step's dir input, /srv/suite, is no folder of the repository, and the fork's records name none: give dir the suite folder in the repository, as its check step does",
    );
    expect(reportSuiteDir('/srv/suite', ws, 'nowhere\n::error::x', true)).toEqual({
      dir: null,
      refused: "this step's dir input, /srv/suite, is no folder of the repository, and the suite folder a fork's records name (nowhere ⏎ ::error::x) is the fork's to write: give dir the suite folder in the repository, as its check step does",
    });
  });
});

describe('asideWords and unreadWords: a file name or reason clipped as shown, never half an escape', () => {
  it('drops a \\uXXXX escape the clip would cut, rather than print its first characters', () => {
    // Was: "…aaaa\u0…" (the clip kept the escape's first three characters, which read as nothing).
    const file = `${'a'.repeat(196)}\u001bb.json`;
    const why = `${'x'.repeat(596)}\u0007 and more`;
    const words = asideWords({ file, why, suitePath: 'apps/sales/.agent-replay', artifact: null }, '.agent-replay');
    expect(words).toContain(`report: set aside ${'a'.repeat(196)}…, which could not be read (${'x'.repeat(596)}…): it is a run of the suite in apps/sales/.agent-replay`);
    expect(unreadWords([{ file, why }], 0)).toContain(`${'a'.repeat(196)}…: ${'x'.repeat(596)}…`);
    // A name that fits is shown whole, its escape written out.
    expect(unreadWords([{ file: 'a\u001bb.json', why: 'bad' }], 0)).toContain('a\\u001bb.json: bad');
  });

  it('names 5 unread files, "; " between them (a reason holds commas), then "; and N more", the count grouped', () => {
    const unread = Array.from({ length: 1_006 }, (_, i) => ({ file: `r${i}.json`, why: 'not JSON, cut short' }));
    // Was: "...; r4.json: not JSON, cut short; +1001 more".
    expect(unreadWords(unread, 0)).toMatch(/: r0\.json: not JSON, cut short; r1\.json: .*; r4\.json: not JSON, cut short; and 1,001 more$/);
  });
});
