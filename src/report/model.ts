// What the report says, before any markup: which section each item (fixture or persona script)
// is in, the headline counts, and the words for verdicts and drift. Shared by every renderer.
//
// Every item is in exactly one section (docs/semantics.md#where-an-item-is-shown), the first that applies in SECTION_ORDER; the
// headline lists the non-zero section counts in that order, so they add up to the total.

import { JUDGE_PROVIDERS } from '../types.js';
import type { DriftVerdict, Estimate, FailOnCondition, FixtureRecord, ItemStats, PersonaRecord, RemovedBaseline, RunRecord, Tallies, Tier } from '../types.js';
import { causeLine, changesOf, isReworded, decideAcceptance, decidePersonaAcceptance, isScript, asAccepted, offenderText, tallyOf, verificationGrouped, type CauseGroup, type Change, type GateResult, type ItemKind, type Verification } from '../evaluate/index.js';
import { formatUsdPair } from './money.js';
import { runRateParts, runRateSaysSomething, tierCountsText, tierWords, tooFewOfRun, type RunRateParts, type TooFew } from './rates.js';
import { capitalized, listAndMore, plural, thousands, turnWords } from '../words.js';
import { showInvisible } from './diff.js';
import { showLookalikes } from './lookalike.js';
import { judgeAcrossAttempts } from '../evaluate/judge-flip.js';

export type SectionKey = 'newly_failing' | 'still_failing' | 'changed' | 'reworded' | 'new' | 'not_evaluated' | 'errored' | 'unchanged';

/** Every section, worst first. */
export const SECTION_ORDER: readonly SectionKey[] = ['newly_failing', 'still_failing', 'changed', 'reworded', 'new', 'not_evaluated', 'errored', 'unchanged'];

/** The sections that need a reviewer's attention (all but unchanged). */
export const ATTENTION_ORDER: readonly SectionKey[] = SECTION_ORDER.filter((k) => k !== 'unchanged');

/** One item of the report: a fixture or a persona script (one script = one item: docs/personas.md). */
export type Item = FixtureRecord | PersonaRecord;

/** A persona script (evaluate/kind.ts decides the kind). */
export function isPersona(item: Item): item is PersonaRecord {
  return isScript(item);
}

/**
 * One item as every renderer shows it (the comment, the job summary, the terminal, JUnit and
 * report.html), built once per item by buildModel: its kind, its section, its changes against the
 * baseline (evaluate/changes.ts) and the words for them. Renderers read the record (`item`) only
 * for what is their own (the reply, the transcript, the checks).
 */
interface ItemViewBase {
  label: string;
  file: string;
  line: number;
  section: SectionKey;
  changes: readonly Change[];
  /** ✅ ❌ ⚪ */
  icon: string;
  /** "pass (probe)", "fail 2/3 (flaky)", "errored". */
  verdict: string;
  /**
   * The verdict drift, then each change: "newly failing", "reply changed", "slower: 1.2 s → 2.9 s",
   * then the pass rate and its tier: "pass rate 10/10 → 0/3 (p = 0.003): regressed".
   */
  drift: readonly string[];
  /** The item's pass-rate tier from the record's `stats` (docs/statistics.md, "The tier"); null without stats. */
  tier: Tier | null;
  /** The verdict, then the drift words. */
  status: readonly string[];
}

export type ItemView = (ItemViewBase & { kind: Extract<ItemKind, 'fixture'>; item: FixtureRecord }) | (ItemViewBase & { kind: Extract<ItemKind, 'script'>; item: PersonaRecord });

export type FixtureView = Extract<ItemView, { kind: 'fixture' }>;
export type ScriptView = Extract<ItemView, { kind: 'script' }>;

/**
 * The item's changes as every report says them. A meaning's words quote the replies ("urls
 * paypal.com → pаypal.com") and the judge: their look-alike letters are named, as in the diff
 * (lookalike.ts), so a changed fact cannot read the same on both sides of "→".
 */
function shownChanges(item: Item): Change[] {
  return changesOf(item).map((c) => (c.dimension === 'meaning' ? { ...c, words: showLookalikes(c.words) } : c));
}

export function itemView(item: Item): ItemView {
  const changes = shownChanges(item);
  const verdict = verdictWords(item);
  const stats = statsOf(item);
  const rate = stats === null ? null : tierWords(stats);
  const drift = [...driftWordsOf(item, changes), ...(rate === null ? [] : [rate])];
  const base: ItemViewBase = { label: item.label, file: item.file, line: item.line, section: sectionFrom(item, changes), changes, icon: verdictIcon(item), verdict, drift, tier: stats?.tier ?? null, status: [verdict, ...drift] };
  return isPersona(item) ? { ...base, kind: 'script', item } : { ...base, kind: 'fixture', item };
}

/**
 * What a Reworded line adds for a repeated item, or one with pass-rate statistics: its verdict with
 * k/N and "(flaky)" (docs/fixtures.md, "Reports") and its pass rate and tier (docs/statistics.md,
 * "Beside the drift"), which every surface shows; none for an item run once against one attempt.
 */
export function rewordedRepeatWords(v: ItemView): string[] {
  const stats = statsOf(v.item);
  const rate = stats === null ? null : tierWords(stats);
  return [...(v.item.repeat !== undefined ? [v.verdict] : []), ...(rate === null ? [] : [rate])];
}

/** The item's view, built on its first use and kept in the model (built now for an item of another model). */
export function viewOf(model: Pick<ReportModel, 'views'>, item: Item): ItemView {
  const kept = model.views.get(item);
  if (kept !== undefined) return kept;
  const view = itemView(item);
  model.views.set(item, view);
  return view;
}

export interface ReportModel {
  sections: Record<SectionKey, Item[]>;
  /**
   * The items' views, each built once on its first use by viewOf: a renderer shows a few items of a
   * large run (the terminal lists 50 per section), and a view costs words for every change.
   * A cache: only viewOf writes it.
   */
  views: Map<Item, ItemView>;
  tallies: Tallies;
  /** Items: fixtures + persona scripts. */
  total: number;
  fixtures: number;
  scripts: number;
  probes: number;
  /** Repeated items whose attempts disagree, in suite order (fixtures, then scripts). */
  flaky: Item[];
  /** Was the run verified (every item measured, not interrupted, the merge complete)? Its causes, largest first. */
  verification: Verification;
  /** The cause of each item of the errored and not evaluated sections (the groups of `verification.causes`), which they are listed under. */
  causeOf: ReadonlyMap<Item, CauseGroup>;
  /**
   * The cause of every item the verification gave one, in whatever section (a not evaluated item with
   * no baseline is listed under "New"), decided once (causeGroups): JUnit's test cases read it (src/report/junit.ts).
   */
  decided: ReadonlyMap<Item, CauseGroup>;
  /** Items by pass-rate tier (docs/statistics.md, "The tier"); items without `stats` are not counted. */
  tiers: Readonly<Record<Tier, number>>;
  /** The run's pass-rate change from its `stats` (docs/statistics.md, "The run"); null when the record has none, or when it has nothing to say (runRateSaysSomething). */
  runRate: RunRateParts | null;
  /** The `too_few` items whose rate did not fall, said once under the run's pass-rate line (docs/statistics.md, "Too few attempts, said once"); null when none. */
  tooFew: TooFew | null;
  /** Baselines whose fixture or script is gone from the suite (docs/action.md, "The PR comment", "Removed"): nothing was replayed for them. */
  removed: readonly RemovedBaseline[];
  /**
   * The pull request (or checkout) edits the suite it was measured against (docs/action.md, "Suite
   * edited"): its fixtures, scripts, config.yml, baselines or workflows. No run against them can
   * say "No regressions".
   */
  suiteEdited: boolean;
}

/** Whether the suite edits found anything edited (not only that some could not be compared). */
function suiteEdited(e: RunRecord['suiteEdits']): boolean {
  return e !== undefined && (e.fixtures.length > 0 || (e.config ?? []).length > 0 || e.baselines.length > 0 || (e.workflows ?? []).length > 0);
}

/** The item's pass-rate statistics as recorded; null for an item without them. */
export function statsOf(item: Item): ItemStats | null {
  return item.stats ?? null;
}

/** The tiers that move an item into Changed: its pass rate moved against the baseline's attempts. */
const MOVED: ReadonlySet<Tier> = new Set<Tier>(['regressed', 'likely_regressed', 'improved']);

/** Did the item's pass rate move (regressed, likely regressed, improved: docs/statistics.md, "In the reports")? */
export function rateMoved(item: Item): boolean {
  const t = statsOf(item)?.tier;
  return t !== undefined && MOVED.has(t);
}

/**
 * The first section that applies (docs/semantics.md#where-an-item-is-shown). Errored items have no drift.
 * An item is "changed" when it has a change against its baseline (evaluate/changes.ts: reply or
 * transcript, route, slower) or it passes now.
 */
export function sectionOf(f: Item): SectionKey {
  return sectionFrom(f);
}

/** sectionOf; `known`: the item's changes, when its view has them already. */
function sectionFrom(f: Item, known?: readonly Change[]): SectionKey {
  const d = f.errored ? null : f.drift;
  if (d?.verdict === 'newly_failing') return 'newly_failing';
  if (d?.verdict === 'still_failing') return 'still_failing';
  // A pass rate that moved against the baseline's attempts is a change (docs/statistics.md, "In the reports").
  if (d && rateMoved(f)) return 'changed';
  if (d) {
    // The changes read only where they decide the section: a failing or errored item's are not
    // (buildModel asks every item of a run; docs/performance.md).
    const changes = known ?? changesOf(f);
    // Reworded: the replies differ only in wording (evaluate/changes.ts isReworded, docs/meaning.md).
    if (changes.length > 0 && isReworded(f, changes)) return 'reworded';
    if (d.verdict === 'newly_passing' || changes.length > 0) return 'changed';
  }
  if (d?.verdict === 'no_baseline') return 'new';
  if (!f.errored && (f.verdict === 'not_evaluated' || f.verdict === null)) return 'not_evaluated';
  if (f.errored) return 'errored';
  return 'unchanged';
}

function emptySections(): Record<SectionKey, Item[]> {
  return { newly_failing: [], still_failing: [], changed: [], reworded: [], new: [], not_evaluated: [], errored: [], unchanged: [] };
}

/** The persona scripts of a record; records written before scripts existed have none. */
export function personasOf(run: RunRecord): readonly PersonaRecord[] {
  return Array.isArray(run.personas) ? run.personas : [];
}

export function buildModel(run: RunRecord): ReportModel {
  const sections = emptySections();
  const views = new Map<Item, ItemView>();
  let probes = 0;
  const personas = personasOf(run);
  const items: readonly Item[] = [...run.fixtures, ...personas];
  const tiers: Record<Tier, number> = { regressed: 0, likely_regressed: 0, improved: 0, too_few: 0, steady: 0 };
  const counts: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  const flaky: Item[] = [];
  // One pass over every item: a large run's summary reads each here (docs/performance.md).
  for (const item of items) {
    sections[sectionOf(item)].push(item);
    counts[tallyOf(item)]++;
    const tier = statsOf(item)?.tier;
    if (tier !== undefined) tiers[tier]++;
    if (!isPersona(item) && !item.errored && item.assertion === null) probes++;
    if (item.repeat?.flaky === true) flaky.push(item);
  }
  // Errored and not evaluated items are listed under their cause, largest cause first: the group
  // the verification decided each into (causeGroups), never decided a second time here.
  const { verification, groupOf } = verificationGrouped({ ...run, personas });
  const causes = new Map<Item, CauseGroup>();
  for (const item of [...sections.not_evaluated, ...sections.errored]) {
    const group = groupOf.get(item);
    if (group) causes.set(item, group);
  }
  const rank = new Map(verification.causes.map((g, i) => [g, i]));
  const byCause = (a: Item, b: Item): number => (rank.get(causes.get(a) as CauseGroup) ?? 0) - (rank.get(causes.get(b) as CauseGroup) ?? 0);
  sections.not_evaluated.sort(byCause);
  sections.errored.sort(byCause);
  // A run whose items all did what their baselines did, once each, has nothing to say there (docs/statistics.md, "The run's pass-rate line").
  const runRate = run.stats == null || !runRateSaysSomething(run.stats) ? null : runRateParts(run.stats, { errored: counts.errored, notEvaluated: counts.notEvaluated });
  return { sections, views, tallies: counts, total: items.length, fixtures: run.fixtures.length, scripts: personas.length, probes, flaky, verification, causeOf: causes, decided: groupOf as ReadonlyMap<Item, CauseGroup>, tiers, runRate, tooFew: tooFewOfRun(items), removed: run.removed ?? [], suiteEdited: suiteEdited(run.suiteEdits) };
}

/** "fixtures", "persona scripts" or "items" (both kinds) for `n` of these items. */
export function itemsNoun(items: readonly Item[], n = items.length): string {
  const scripts = items.filter(isPersona).length;
  if (scripts === 0) return n === 1 ? 'fixture' : 'fixtures';
  if (scripts === items.length) return n === 1 ? 'persona script' : 'persona scripts';
  return n === 1 ? 'item' : 'items';
}

/** "12 fixtures", "3 persona scripts", "12 fixtures and 3 persona scripts". */
export function itemsCount(model: Pick<ReportModel, 'fixtures' | 'scripts'>): string {
  const f = `${thousands(model.fixtures)} ${model.fixtures === 1 ? 'fixture' : 'fixtures'}`;
  if (model.scripts === 0) return f;
  const s = `${thousands(model.scripts)} ${model.scripts === 1 ? 'persona script' : 'persona scripts'}`;
  return model.fixtures === 0 ? s : `${f} and ${s}`;
}

/** "1 probe", "1,234 probes": the passes that checked nothing, as the comment's tally and report.html's card write them. */
export function probesCount(n: number): string {
  return `${thousands(n)} ${n === 1 ? 'probe' : 'probes'}`;
}

/**
 * The run as it reads once `accepted` baselines are stored: each accepted item now matches its
 * baseline, with no change left (evaluate/changes.ts: same reply or transcript and route, not
 * slower) and its verdict still passing or still failing.
 */
export function afterAcceptance(run: RunRecord, accepted: readonly string[], commit: string | null): RunRecord {
  const labels = new Set(accepted);
  const fixtures = run.fixtures.map((f): FixtureRecord => {
    if (!labels.has(f.label) || f.errored || f.reply === null || (f.verdict !== 'pass' && f.verdict !== 'fail')) return f;
    // As acceptance wrote it (the judge result included), against the baseline the run compared with,
    // as the Action's accept does: a reworded reply keeps that baseline's tally and tokens (docs/statistics.md, "A baseline's attempts").
    const d = decideAcceptance(f, f.baseline?.acceptedAt ?? '', commit);
    return {
      ...withoutRate(asAccepted(f)),
      // Unchanged: the stored file stands as it is (its tally, tokens and variants with it).
      baseline:
        d.kind === 'accept'
          ? { ...d.baseline, commit }
          : d.kind === 'unchanged' && f.baseline != null
            ? f.baseline
            : { label: f.label, reply: f.reply, route: f.route, verdict: f.verdict, acceptedAt: f.baseline?.acceptedAt ?? '', commit },
    };
  });
  const personas = personasOf(run).map((p): PersonaRecord => {
    if (!labels.has(p.label) || p.errored) return p;
    const d = decidePersonaAcceptance(p, p.baseline?.acceptedAt ?? '', commit);
    if (d.kind !== 'accept') return p;
    return { ...withoutRate(asAccepted(p)), baseline: d.baseline };
  });
  return { ...run, fixtures, personas };
}

/**
 * An accepted item without its pass-rate tier: its baseline now holds what the run measured (or
 * a larger tally that stands), and nothing asks again for what was accepted.
 */
function withoutRate<T extends Item>(item: T): T {
  const copy = { ...item };
  delete copy.stats;
  return copy;
}

export { plural, thousands };

export const SECTION_WORDS: Record<SectionKey, { icon: string; title: string; suffix: string; count: string }> = {
  newly_failing: { icon: '🔴', title: 'Newly failing', suffix: '', count: 'newly failing' },
  still_failing: { icon: '❌', title: 'Still failing', suffix: '', count: 'still failing' },
  changed: { icon: '🟡', title: 'Changed', suffix: '', count: 'changed' },
  reworded: { icon: '💬', title: 'Reworded', suffix: '', count: 'reworded' },
  new: { icon: '🆕', title: 'New, no baseline', suffix: '', count: 'new' },
  not_evaluated: { icon: '⚪', title: 'Not evaluated', suffix: ': not a failure', count: 'not evaluated' },
  errored: { icon: '⚪', title: 'Errored', suffix: ': not a failure', count: 'errored' },
  unchanged: { icon: '✅', title: 'Unchanged', suffix: '', count: 'unchanged' },
};

/** "1 newly failing", "3 unchanged": the non-zero section counts in section order. */
/** How many removed baselines the reports name (the rest are counted): a folder renamed is said, not listed in full. */
const REMOVED_LISTED = 20;

/** The removed baselines every report names, and how many more it only counts. */
export function removedShown(removed: readonly RemovedBaseline[]): { named: readonly RemovedBaseline[]; more: number } {
  const named = removed.slice(0, REMOVED_LISTED);
  return { named, more: removed.length - named.length };
}

/** The removed baselines named in a sentence, each as `show` writes it, then how many more: "a (a.json), b (b.json) and 3 more". */
export function removedWords(removed: readonly RemovedBaseline[], show: (b: RemovedBaseline) => string): string {
  return listAndMore(removed, REMOVED_LISTED, show);
}

export function sectionCounts(model: ReportModel): string[] {
  const counts = SECTION_ORDER.filter((k) => model.sections[k].length > 0).map((k) => `${thousands(model.sections[k].length)} ${SECTION_WORDS[k].count}`);
  // Not an item of the run: a baseline whose fixture or script is gone, said beside them so that a
  // deleted fixture is never read as a suite that passed (docs/action.md, "The PR comment", "Removed").
  return model.removed.length > 0 ? [...counts, `${thousands(model.removed.length)} removed`] : counts;
}

export interface HeadlineParts {
  /**
   * 🔴 a regression, ⚪ not verified (grey: never a failure) or nothing ran, 🟠 none of these but the
   * gate fails (gateFailsText says on what), ✅ otherwise.
   */
  icon: string;
  lead: string | null;
  counts: string[];
  /** After a regression, what was not verified besides: "2 not verified". */
  tail: string | null;
  /** Items whose pass rate dropped (docs/statistics.md, "In the reports"): "2 regressed · 1 likely regressed"; null when none. */
  rates: string | null;
  /** The run was not verified: errored or not evaluated items, an interrupted run, an incomplete merge. */
  unverified: boolean;
}

/** "Not verified", saying so when the run as a whole is the reason. */
function notVerifiedLead(v: Verification): string {
  const why = [v.interrupted ? 'interrupted' : null, v.incomplete ? 'shards missing' : null].filter((w) => w !== null);
  return why.length > 0 ? `Not verified (${why.join(', ')})` : 'Not verified';
}

/**
 * What a report knows of the gate the run was checked by (docs/semantics.md, "The gate"): the
 * conditions met and by which items. Null when the report applies none (a record shown again, the
 * comment the accept flow rewrites): the headline then says what happened, no more.
 */
export type GateView = Pick<GateResult, 'failed' | 'offenders'>;

/**
 * The fail-on conditions the headline says whenever they are met: a regression (🔴, its count) and
 * what was not verified ("Not verified: 2 errored", or "— 2 not verified" after a regression).
 */
const SAID_BY_HEADLINE: ReadonlySet<FailOnCondition> = new Set<FailOnCondition>(['newly_failing', 'regressed', 'unverified', 'errored', 'not_evaluated']);

/**
 * The conditions met that fail the gate and that the headline does not say (slower, flaky,
 * reply_changed...): none when the gate passed, or when the run was interrupted (its headline says
 * so, and the gate is not applied to what finished: docs/cli.md, "Interrupted runs").
 */
function unsaidOffenders(model: Pick<ReportModel, 'verification'>, gate: GateView | null): GateView['offenders'] {
  if (gate === null || !gate.failed || model.verification.interrupted) return [];
  return gate.offenders.filter((o) => !SAID_BY_HEADLINE.has(o.condition));
}

/**
 * The gate as far as the reports say it, the conditions met that the headline does not say, or
 * null when they say none: what the comment's hidden meta keeps for the accept flow's comment that
 * commits nothing, which shows the same run against the same baselines (docs/action.md, "Accept").
 */
export function gateShown(model: Pick<ReportModel, 'verification'>, gate: GateView | null): GateView | null {
  const unsaid = unsaidOffenders(model, gate);
  return unsaid.length === 0 ? null : { failed: true, offenders: unsaid };
}

/**
 * The line right under the headline when the gate fails on a condition the headline does not say
 * (docs/action.md, "The PR comment", "A check that fails"): "The check fails (fail-on slower): 2
 * fixtures slower than the baseline (refund-policy, greeting)". `code` writes a condition or a
 * label for its surface (a code span in markdown), `lead` its first words (bold in markdown). Null
 * when the gate passed, or failed only on what the headline says (a regression, a run not verified).
 */
export function gateFailsText(
  model: Pick<ReportModel, 'verification'>,
  gate: GateView | null,
  code: (text: string) => string = (text) => text,
  lead: (text: string) => string = (text) => text,
): string | null {
  const unsaid = unsaidOffenders(model, gate);
  if (unsaid.length === 0) return null;
  return `${lead('The check fails')} (fail-on ${unsaid.map((o) => code(o.condition)).join(', ')}): ${unsaid.map((o) => offenderText(o, code)).join('; ')}`;
}

/**
 * The headline: an icon, a lead when no section says it ("Not verified", "No regressions"), then
 * the section counts, which add up to the number of items. A regression leads; what was not
 * verified follows it ("2 not verified"). The words say what happened, whatever the gate; a gate
 * that fails on what they do not say takes the ✅ away (🟠), never the words.
 */
export function headlineParts(model: ReportModel, gate: GateView | null = null): HeadlineParts {
  const s = model.sections;
  const counts = sectionCounts(model);
  const v = model.verification;
  const unverified = !v.verified;
  const rates = tierCountsText(model.tiers);
  if (model.total === 0) return { icon: '⚪', lead: unverified ? `${notVerifiedLead(v)}: no items finished` : 'No fixtures ran', counts: [], tail: null, rates: null, unverified };
  // A regressed pass rate is a regression, like a newly failing verdict (docs/statistics.md, "In the reports").
  if (s.newly_failing.length > 0 || model.tiers.regressed > 0) {
    const n = v.errored + v.notEvaluated;
    const tail = !unverified ? null : n > 0 ? `${thousands(n)} not verified` : notVerifiedLead(v).toLowerCase();
    return { icon: '🔴', lead: null, counts, tail, rates, unverified };
  }
  if (unverified) return { icon: '⚪', lead: notVerifiedLead(v), counts, tail: null, rates, unverified };
  // Measured against a suite the pull request edited (a check weakened, a baseline rewritten), unchanged is no proof: the block under the headline says what.
  // A check that fails is never shown a ✅ (docs/action.md, "The PR comment", "A check that fails").
  const icon = unsaidOffenders(model, gate).length > 0 ? '🟠' : '✅';
  if (s.unchanged.length === model.total && model.removed.length === 0 && !model.suiteEdited) return { icon, lead: 'No regressions', counts, tail: null, rates, unverified };
  return { icon, lead: 'No new failures', counts, tail: null, rates, unverified };
}

/**
 * The headline as one line of plain text: "No new failures: 4 changed · 2 new · 6 unchanged", "Not
 * verified: 5 errored", "1 newly failing · 2 changed · 9 unchanged — 2 regressed · 1 likely regressed".
 */
export function headlineText(model: ReportModel): string {
  const h = headlineParts(model);
  const counts = h.counts.join(' · ');
  const text = h.lead && counts ? `${h.lead}: ${counts}` : (h.lead ?? counts);
  return [text, h.rates, h.tail].filter((t) => t !== null && t !== '').join(' — ');
}

/**
 * The cause shared by most unverified items, as the line under the headline: "all 5: HTTP 404
 * from https://host/api/chat: check agent-path or agent.url"; null when the run was verified or
 * no item names a cause (an interrupted run whose finished items are clean). `fixWords`: the
 * surface's words for the fix (the terminal's: cliWordsOf), applied to the fix alone, never to what
 * the cause quotes (an address, an agent's words).
 */
export function topCauseText(model: Pick<ReportModel, 'verification'>, fixWords: (hint: string) => string = (hint) => hint): string | null {
  const v = model.verification;
  const top = v.causes[0];
  if (v.verified || top === undefined) return null;
  const n = v.errored + v.notEvaluated;
  const others = v.causes.length - 1;
  return `${causeLine(top.hint === null ? top : { ...top, hint: fixWords(top.hint) }, n)}${others > 0 ? ` (and ${others} other ${others === 1 ? 'cause' : 'causes'})` : ''}`;
}

/** The verdict drift in words, in every surface. */
export const DRIFT_WORDS: Record<DriftVerdict, string> = {
  still_passing: 'still passing',
  still_failing: 'still failing',
  newly_passing: 'newly passing',
  newly_failing: 'newly failing',
  no_baseline: 'no baseline',
  not_evaluated: 'drift unknown',
};

// An errored item's kind in words (src/evaluate/causes.ts, where a cause group whose items' words share none says it).
export { ERROR_KIND_WORDS } from '../evaluate/index.js';

/** "pass (probe)", "fail", "not evaluated", "errored"; a repeated item adds its k/N: "pass 2/3 (flaky)". */
export function verdictWords(f: Item): string {
  const k = repeatWords(f);
  return k === null ? singleVerdictWords(f) : `${singleVerdictWords(f)} ${k}`;
}

function singleVerdictWords(f: Item): string {
  if (f.errored) return 'errored';
  if (f.verdict === 'pass') return !isPersona(f) && f.assertion === null ? 'pass (probe)' : 'pass';
  if (f.verdict === 'fail') return 'fail';
  return 'not evaluated';
}

/** A repeated item's passes over attempts, "2/3" or "2/3 (flaky)"; null for an item run once. */
export function repeatWords(f: Pick<Item, 'repeat'>): string | null {
  const r = f.repeat;
  if (r === undefined) return null;
  return `${thousands(r.passed)}/${thousands(r.count)}${r.flaky ? ' (flaky)' : ''}`;
}

/**
 * The flaky items whose every attempt got the same reply (a script: the same transcript), which the
 * judge answered differently: the judge made them flaky, not the agent (docs/judges.md, "A judge
 * that answers differently").
 */
export function flakyByTheJudge(model: Pick<ReportModel, 'flaky'>): Item[] {
  return model.flaky.filter((i) => judgeAcrossAttempts(i) !== null);
}

/** How the headline area names them, after the flaky items: a script's attempts share a transcript, a fixture's a reply. */
export function flakyByTheJudgeWords(judged: readonly Item[]): string {
  const scripts = judged.filter(isPersona).length;
  const same = scripts === 0 ? 'reply' : scripts === judged.length ? 'transcript' : 'reply or transcript';
  return `the same ${same} on every attempt, judged differently`;
}

/** The headline area's mention of flaky items: "2 flaky items (their attempts disagree): a, b"; null when none. */
export function flakyText(model: Pick<ReportModel, 'flaky'>, listed = 10): string | null {
  const n = model.flaky.length;
  if (n === 0) return null;
  const label = (i: Item): string => i.label;
  const judged = flakyByTheJudge(model);
  const judge = judged.length === 0 ? '' : `; ${flakyByTheJudgeWords(judged)}: ${listAndMore(judged, listed, label)}`;
  return `${thousands(n)} flaky ${itemsNoun(model.flaky, n)} (attempts disagree; passes/attempts shown as k/N): ${listAndMore(model.flaky, listed, label)}${judge}`;
}

export function verdictIcon(f: Item): string {
  if (f.errored) return '⚪';
  if (f.verdict === 'pass') return '✅';
  if (f.verdict === 'fail') return '❌';
  return '⚪';
}

/**
 * Drift in words: "newly failing · reply changed · route changed" ("transcript changed · routes
 * changed" for a script); "no reply" when a fixture errored without one, "not compared" when a script
 * did or a fixture errored with its reply.
 */
export function driftWords(f: Item): string[] {
  return driftWordsOf(f, shownChanges(f));
}

function driftWordsOf(f: Item, changes: readonly Change[]): string[] {
  // A fixture errored by its spans has a reply, not compared (docs/traces.md, "Fixtures").
  if (f.errored) return [isPersona(f) || f.reply !== null ? 'not compared' : 'no reply'];
  const d = f.drift;
  if (!d) return ['no baseline'];
  return [DRIFT_WORDS[d.verdict], ...changes.map((c) => c.words)];
}

/** "fail · newly failing · reply changed · route changed" (verdict first, then drift words). */
export function statusWords(f: Item): string[] {
  return [verdictWords(f), ...driftWords(f)];
}

/** Marks a persona script wherever items of both kinds are listed. */
export const SCRIPT_MARK = '🎭';

/**
 * The mark with its word, where the comment, the job summary and the terminal list a script: a
 * screen reader reads 🎭 alone by its Unicode name, "performing arts", and GitHub strips the name
 * report.html gives it (role="img", html.ts) (docs/action.md, "Accessibility").
 */
export const SCRIPT_MARK_WORDS = `${SCRIPT_MARK} script`;

/**
 * The welcome turn's name on every surface (docs/meaning.md, "In the comment"): the transcript's
 * agent line, report.html's and a reworded script's diff head, the terminal's last reply, so the
 * same turn reads the same.
 */
export const WELCOME_TURN = turnName(0);

/** A turn as every surface names it: "Turn 3", and the welcome turn "Turn 0 (welcome)"; inside a sentence turnWords' "turn 3". */
export function turnName(index: number): string {
  return capitalized(turnWords(index));
}

/**
 * The route as every report shows it, its invisible characters named (`main⟨U+200B⟩ / answer`, as
 * the reply diff does): a route that changed by a zero-width character would otherwise read the
 * same on both sides of "→" (docs/action.md, "The PR comment"). Look-alikes are named over the
 * whole route, so a conversation written wholly in look-alikes (`сору` in Cyrillic) is named
 * beside a Latin stage as a word of a reply is.
 */
export function routeText(route: { conversation: string; stage: string } | null | undefined): string {
  return route ? showInvisible(showLookalikes(`${route.conversation} / ${route.stage}`)) : '(no route)';
}

/**
 * The estimate's parts: the amount ("$0.12"), with adaptive attempts a range up to its upper bound
 * ("$0.05–$0.12"), the cap, and why it is a range (", at most: extra attempts for up to 3 items
 * whose drop is unclear"), the same on every surface (docs/statistics.md, "The estimate").
 */
export function estimateParts(e: Estimate): { range: string; cap: string; upTo: string } {
  const [estimated, cap] = formatUsdPair(e.usd, e.capUsd);
  const range = e.adaptive ? `${formatUsdPair(e.adaptive.lowUsd, e.capUsd)[0]}–${estimated}` : estimated;
  const upTo = e.adaptive ? `, at most: extra attempts for up to ${plural(e.adaptive.items, 'item', 'items')} whose drop is unclear` : '';
  return { range, cap, upTo };
}

/** "≈ $0.12 estimated (cap $1.00)"; with adaptive attempts a range up to its upper bound (docs/statistics.md, "The estimate"). */
export function estimateText(e: Estimate): string {
  const { range, cap, upTo } = estimateParts(e);
  const base = `≈ ${range} estimated (cap ${cap}${upTo})`;
  if (e.aboveCap && e.confirmed) return `${base} · ran above the cap: confirmed`;
  return base;
}

/**
 * The meaning judge's model where a surface must name it beside the judge (docs/meaning.md, "The
 * meaning judge"): the run asked a meaning judge (`meaning.check` judge) whose model the judge's
 * name does not name (a `meaning.model` of its own, a judge named by a label that does not name it,
 * or a run whose only model is the meaning judge's); null otherwise, and for a record from before
 * `meaning` was kept. A judge's name that names a provider ("openai gpt-4o-mini", a panel's
 * members) names the meaning judge only with its provider: another provider's model of the same
 * name is shown with its provider ("anthropic gpt-4o-mini"), never hidden behind the judge's.
 */
export function meaningModelShown(run: Pick<RunRecord, 'judge' | 'meaning'>): string | null {
  const m = run.meaning;
  if (m === undefined || m.check !== 'judge' || m.model === null || m.model === '') return null;
  const name = run.judge.name ?? '';
  if (!namesModel(name, m.model)) return m.model;
  // A label that names no provider ("demo judge (keyword rules)") cannot tell one apart: its model is enough.
  if (m.provider === undefined || !JUDGE_PROVIDERS.some((p) => namesModel(name, p)) || namesModel(name, `${m.provider} ${m.model}`)) return null;
  return `${m.provider} ${m.model}`;
}

/**
 * Does a judge's name (its "provider model", a panel's "panel of 3: provider model, ...", or its
 * label) name the model: the model's parts, in order, are whole words of it, one word ("openai
 * gpt-4o-mini", "GPT-4o-mini") or several that spell it with spaces ("demo judge (keyword rules)"
 * for demo-judge, "gpt-4o mini" for gpt-4o-mini)? Case aside; never a part of a word ("gpt-4o-mini"
 * does not name gpt-4o), nor the parts out of order or apart ("judge for demo").
 */
export function namesModel(name: string, model: string): boolean {
  const parts = (word: string): string[] => word.split(/[-_\s]+/).filter((p) => p !== '');
  const wanted = parts(model.toLowerCase().trim());
  const words = name.toLowerCase().split(/[\s,:;()[\]"'\u00b7]+/).filter((w) => w !== '');
  if (wanted.length === 0) return false;
  for (let i = 0; i < words.length; i++) {
    const run: string[] = [];
    for (let j = i; j < words.length && run.length < wanted.length; j++) run.push(...parts(words[j] as string));
    if (run.length === wanted.length && run.every((p, k) => p === wanted[k])) return true;
  }
  return false;
}

export function shortSha(sha: string | null | undefined): string | null {
  if (typeof sha !== 'string' || sha === '') return null;
  return /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : sha;
}
