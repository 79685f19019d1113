// What the report says, before any markup: which section each fixture is in, the headline
// counts, and the words for verdicts and drift. Shared by every renderer.
//
// SPEC 8: every item is in exactly one section, the first that applies in SECTION_ORDER; the
// headline lists the non-zero section counts in that order, so they add up to the total.

import type { DriftVerdict, Estimate, FixtureRecord, RunRecord, Tallies } from '../types.js';
import { tallies } from '../evaluate/index.js';
import { formatUsdPair } from './money.js';

export type SectionKey = 'newly_failing' | 'still_failing' | 'changed' | 'new' | 'not_evaluated' | 'errored' | 'unchanged';

/** Every section, worst first. */
export const SECTION_ORDER: readonly SectionKey[] = ['newly_failing', 'still_failing', 'changed', 'new', 'not_evaluated', 'errored', 'unchanged'];

/** The sections that need a reviewer's attention (all but unchanged). */
export const ATTENTION_ORDER: readonly SectionKey[] = SECTION_ORDER.filter((k) => k !== 'unchanged');

export interface ReportModel {
  sections: Record<SectionKey, FixtureRecord[]>;
  tallies: Tallies;
  total: number;
  probes: number;
}

/** The first section that applies (SPEC 8 "Comment layout rules"). Errored fixtures have no drift. */
export function sectionOf(f: FixtureRecord): SectionKey {
  const d = f.errored ? null : f.drift;
  if (d?.verdict === 'newly_failing') return 'newly_failing';
  if (d?.verdict === 'still_failing') return 'still_failing';
  if (d && (d.reply === 'different' || d.route === 'different' || d.verdict === 'newly_passing')) return 'changed';
  if (d?.verdict === 'no_baseline') return 'new';
  if (!f.errored && (f.verdict === 'not_evaluated' || f.verdict === null)) return 'not_evaluated';
  if (f.errored) return 'errored';
  return 'unchanged';
}

function emptySections(): Record<SectionKey, FixtureRecord[]> {
  return { newly_failing: [], still_failing: [], changed: [], new: [], not_evaluated: [], errored: [], unchanged: [] };
}

export function buildModel(run: RunRecord): ReportModel {
  const sections = emptySections();
  let probes = 0;
  for (const f of run.fixtures) {
    sections[sectionOf(f)].push(f);
    if (!f.errored && f.assertion === null) probes++;
  }
  return { sections, tallies: tallies(run.fixtures), total: run.fixtures.length, probes };
}

/**
 * The run as it reads once `accepted` baselines are stored: each accepted fixture now matches its
 * baseline (same reply and route, verdict still passing or still failing).
 */
export function afterAcceptance(run: RunRecord, accepted: readonly string[], commit: string | null): RunRecord {
  const labels = new Set(accepted);
  const fixtures = run.fixtures.map((f): FixtureRecord => {
    if (!labels.has(f.label) || f.errored || f.reply === null || (f.verdict !== 'pass' && f.verdict !== 'fail')) return f;
    return {
      ...f,
      baseline: { label: f.label, reply: f.reply, route: f.route, verdict: f.verdict, acceptedAt: f.baseline?.acceptedAt ?? '', commit },
      drift: { reply: 'same', route: 'same', verdict: f.verdict === 'pass' ? 'still_passing' : 'still_failing' },
    };
  });
  return { ...run, fixtures };
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "1,234". */
export function thousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export const SECTION_WORDS: Record<SectionKey, { icon: string; title: string; suffix: string; count: string }> = {
  newly_failing: { icon: '🔴', title: 'Newly failing', suffix: '', count: 'newly failing' },
  still_failing: { icon: '❌', title: 'Still failing', suffix: '', count: 'still failing' },
  changed: { icon: '🟡', title: 'Changed', suffix: '', count: 'changed' },
  new: { icon: '🆕', title: 'New, no baseline', suffix: '', count: 'new' },
  not_evaluated: { icon: '⚪', title: 'Not evaluated', suffix: ': not a failure', count: 'not evaluated' },
  errored: { icon: '⚪', title: 'Errored', suffix: ': not a failure', count: 'errored' },
  unchanged: { icon: '✅', title: 'Unchanged', suffix: '', count: 'unchanged' },
};

/** "1 newly failing", "3 unchanged": the non-zero section counts in section order. */
export function sectionCounts(model: ReportModel): string[] {
  return SECTION_ORDER.filter((k) => model.sections[k].length > 0).map((k) => `${thousands(model.sections[k].length)} ${SECTION_WORDS[k].count}`);
}

/**
 * The headline: an icon, a lead when no section says it (e.g. "No regressions"), then the section
 * counts, which add up to the number of fixtures.
 */
export function headlineParts(model: ReportModel): { icon: string; lead: string | null; counts: string[] } {
  const s = model.sections;
  const counts = sectionCounts(model);
  if (model.total === 0) return { icon: '⚪', lead: 'No fixtures ran', counts: [] };
  if (s.newly_failing.length > 0) return { icon: '🔴', lead: null, counts };
  const measured = model.total - model.tallies.errored - model.tallies.notEvaluated;
  if (measured === 0) return { icon: '⚪', lead: 'Nothing was evaluated', counts };
  if (s.unchanged.length === model.total) return { icon: '✅', lead: 'No regressions', counts };
  return { icon: '✅', lead: 'No new failures', counts };
}

/** The headline as one line of plain text: "No new failures: 4 changed · 2 new · 6 unchanged". */
export function headlineText(model: ReportModel): string {
  const h = headlineParts(model);
  const counts = h.counts.join(' · ');
  return h.lead && counts ? `${h.lead}: ${counts}` : (h.lead ?? counts);
}

const DRIFT_WORDS: Record<DriftVerdict, string> = {
  still_passing: 'still passing',
  still_failing: 'still failing',
  newly_passing: 'newly passing',
  newly_failing: 'newly failing',
  no_baseline: 'no baseline',
  not_evaluated: 'drift unknown',
};

/** "pass (probe)", "fail", "not evaluated", "errored". */
export function verdictWords(f: FixtureRecord): string {
  if (f.errored) return 'errored';
  if (f.verdict === 'pass') return f.assertion === null ? 'pass (probe)' : 'pass';
  if (f.verdict === 'fail') return 'fail';
  return 'not evaluated';
}

export function verdictIcon(f: FixtureRecord): string {
  if (f.errored) return '⚪';
  if (f.verdict === 'pass') return '✅';
  if (f.verdict === 'fail') return '❌';
  return '⚪';
}

/** Drift in words: "newly failing · reply changed · route changed"; "no reply" when errored. */
export function driftWords(f: FixtureRecord): string[] {
  if (f.errored) return ['no reply'];
  const d = f.drift;
  if (!d) return ['no baseline'];
  const words = [DRIFT_WORDS[d.verdict]];
  if (d.reply === 'different') words.push('reply changed');
  if (d.route === 'different') words.push('route changed');
  return words;
}

/** "fail · newly failing · reply changed · route changed" (verdict first, then drift words). */
export function statusWords(f: FixtureRecord): string[] {
  return [verdictWords(f), ...driftWords(f)];
}

export function routeText(route: { conversation: string; stage: string } | null | undefined): string {
  return route ? `${route.conversation} / ${route.stage}` : '(no route)';
}

export function estimateText(e: Estimate): string {
  const [estimated, cap] = formatUsdPair(e.usd, e.capUsd);
  const base = `≈ ${estimated} estimated (cap ${cap})`;
  if (e.aboveCap && e.confirmed) return `${base} · ran above the cap: confirmed`;
  return base;
}

export function shortSha(sha: string | null | undefined): string | null {
  if (typeof sha !== 'string' || sha === '') return null;
  return /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : sha;
}
