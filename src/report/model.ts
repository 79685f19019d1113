// What the report says, before any markup: which fixtures need attention and in what order,
// the headline counts, and the words for verdicts and drift. Shared by every renderer.

import type { DriftVerdict, Estimate, FixtureRecord, RunRecord, Tallies } from '../types.js';
import { tallies } from '../evaluate/index.js';

export type SectionKey = 'newly_failing' | 'changed' | 'not_evaluated' | 'errored' | 'new';

/** Attention sections, worst first. Each fixture appears in the first section that takes it. */
export const SECTION_ORDER: readonly SectionKey[] = ['newly_failing', 'changed', 'not_evaluated', 'errored', 'new'];

export interface ReportModel {
  sections: Record<SectionKey, FixtureRecord[]>;
  unchanged: FixtureRecord[];
  tallies: Tallies;
  total: number;
  probes: number;
}

export function sectionOf(f: FixtureRecord): SectionKey | 'unchanged' {
  if (f.errored) return 'errored';
  const d = f.drift;
  if (d?.verdict === 'newly_failing') return 'newly_failing';
  if (d && (d.reply === 'different' || d.route === 'different' || d.verdict === 'newly_passing')) return 'changed';
  if (f.verdict === 'not_evaluated' || f.verdict === null) return 'not_evaluated';
  if (!d || d.verdict === 'no_baseline') return 'new';
  return 'unchanged';
}

export function buildModel(run: RunRecord): ReportModel {
  const sections: Record<SectionKey, FixtureRecord[]> = {
    newly_failing: [],
    changed: [],
    not_evaluated: [],
    errored: [],
    new: [],
  };
  const unchanged: FixtureRecord[] = [];
  let probes = 0;
  for (const f of run.fixtures) {
    const key = sectionOf(f);
    if (key === 'unchanged') unchanged.push(f);
    else sections[key].push(f);
    if (!f.errored && f.assertion === null) probes++;
  }
  return { sections, unchanged, tallies: tallies(run.fixtures), total: run.fixtures.length, probes };
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The headline parts, most important first; `bold` marks the one a reviewer must act on. */
export function headlineParts(model: ReportModel): { icon: string; lead: string; bold: boolean; rest: string[] } {
  const s = model.sections;
  const rest: string[] = [];
  const changed = s.changed;
  if (changed.length > 0) {
    const replies = changed.filter((f) => f.drift?.reply === 'different').length;
    const routes = changed.filter((f) => f.drift?.route === 'different').length;
    if (replies === changed.length) rest.push(plural(replies, 'reply changed', 'replies changed'));
    else if (replies === 0 && routes === changed.length) rest.push(plural(routes, 'route changed', 'routes changed'));
    else rest.push(`${changed.length} changed`);
  }
  if (s.new.length > 0) rest.push(plural(s.new.length, 'new fixture', 'new fixtures'));
  // Counted from the verdicts, as in the tallies table: a not-evaluated fixture whose reply
  // changed is listed among the changed ones but still counts here.
  if (model.tallies.notEvaluated > 0) rest.push(`${model.tallies.notEvaluated} not evaluated`);
  if (model.tallies.errored > 0) rest.push(`${model.tallies.errored} errored`);
  if (model.unchanged.length > 0) rest.push(`${model.unchanged.length} unchanged`);

  if (model.total === 0) return { icon: '⚪', lead: 'No fixtures ran', bold: false, rest: [] };
  if (s.newly_failing.length > 0) {
    return { icon: '🔴', lead: `${s.newly_failing.length} newly failing`, bold: true, rest };
  }
  const measured = model.total - model.tallies.errored - model.tallies.notEvaluated;
  if (measured === 0) return { icon: '⚪', lead: 'Nothing was evaluated', bold: true, rest };
  const attention = changed.length + s.new.length + s.not_evaluated.length + s.errored.length;
  if (attention === 0) {
    return { icon: '✅', lead: 'No regressions', bold: true, rest: [plural(model.total, 'fixture unchanged', 'fixtures unchanged')] };
  }
  return { icon: '✅', lead: 'No new failures', bold: true, rest };
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

/** "fail · newly failing · reply changed · route changed" (verdict first, then drift words). */
export function statusWords(f: FixtureRecord): string[] {
  const words = [verdictWords(f)];
  if (f.errored) {
    words.push('no reply');
    return words;
  }
  const d = f.drift;
  if (!d) {
    words.push('no baseline');
    return words;
  }
  words.push(DRIFT_WORDS[d.verdict]);
  if (d.reply === 'different') words.push('reply changed');
  if (d.route === 'different') words.push('route changed');
  return words;
}

export function routeText(route: { conversation: string; stage: string } | null | undefined): string {
  return route ? `${route.conversation} / ${route.stage}` : '(no route)';
}

/** Dollars for an estimate: two decimals, or "< $0.01" for tiny non-zero amounts. */
export function usd(value: number): string {
  if (!Number.isFinite(value)) return '$?';
  if (value > 0 && value < 0.005) return '< $0.01';
  return `$${value.toFixed(2)}`;
}

export function estimateText(e: Estimate): string {
  const base = `≈ ${usd(e.usd)} estimated (cap ${usd(e.capUsd)})`;
  if (e.aboveCap && e.confirmed) return `${base} · ran above the cap: confirmed`;
  return base;
}

export function shortSha(sha: string | null | undefined): string | null {
  if (typeof sha !== 'string' || sha === '') return null;
  return /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : sha;
}

/** Pass/fail fixtures whose reply, route or verdict the accept label would store. */
export function acceptableCount(model: ReportModel): number {
  const s = model.sections;
  return [...s.newly_failing, ...s.changed, ...s.new].filter((f) => !f.errored && (f.verdict === 'pass' || f.verdict === 'fail')).length;
}

export const SECTION_WORDS: Record<SectionKey, { icon: string; title: string; suffix: string; many: string }> = {
  newly_failing: { icon: '🔴', title: 'Newly failing', suffix: '', many: 'newly failing' },
  changed: { icon: '🟡', title: 'Changed replies and routes', suffix: '', many: 'changed' },
  not_evaluated: { icon: '⚪', title: 'Not evaluated', suffix: ': not a failure', many: 'not evaluated' },
  errored: { icon: '⚪', title: 'Errored', suffix: ': not a failure', many: 'errored' },
  new: { icon: '🆕', title: 'New fixtures, not yet accepted', suffix: '', many: 'new' },
};
