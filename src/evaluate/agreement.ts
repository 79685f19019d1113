// Agreement (docs/evaluations.md#agreement): how often the agent agrees with what the suite expects, over a
// recorded run. passed / (passed + failed); not evaluated and errored are shown beside it and left
// out of the denominator. Pure: the same record always gives the same result, no model is asked.

import type { FixtureRecord, PersonaRecord, RunRecord, Tallies } from '../types.js';
import { tallyOf } from './tallies.js';
import { conversationName } from './personas.js';
import { isScript } from './kind.js';

export interface Agreement extends Tallies {
  /** Every item counted (passed + failed + notEvaluated + errored). */
  total: number;
  /** passed / (passed + failed) x 100, unrounded; null when nothing passed or failed. */
  percent: number | null;
}

/** One group's agreement: a conversation, a fixture file or a persona tag. */
export interface AgreementGroup extends Agreement {
  key: string;
}

export interface AgreementReport {
  overall: Agreement;
  /**
   * Per conversation, by name without a leading `conversations:`. A fixture counts in the
   * conversation of its baseline's route, else of its reply's route; a persona script counts once
   * in every conversation it visited (its baseline's `visited`, else this run's). Items with no
   * conversation (no route, no baseline) are in no group here: the groups can sum to less than the
   * whole, and a script in several conversations counts in each.
   */
  byConversation: AgreementGroup[];
  /** Per fixture or script file. */
  byFile: AgreementGroup[];
  /** Per persona tag (a fixture's `persona`, a script's `persona` handle); untagged items are in no group. */
  byPersona: AgreementGroup[];
}

type Item = FixtureRecord | PersonaRecord;

/** Agreement from tallies: the arithmetic in one place. */
export function agreementOf(t: Tallies): Agreement {
  const decided = t.passed + t.failed;
  return {
    passed: t.passed,
    failed: t.failed,
    notEvaluated: t.notEvaluated,
    errored: t.errored,
    total: decided + t.notEvaluated + t.errored,
    percent: decided === 0 ? null : (t.passed / decided) * 100,
  };
}

/** Agreement over some items (fixtures and persona scripts alike: one item each). */
export function agreement(items: readonly Pick<Item, 'errored' | 'verdict'>[]): Agreement {
  const t: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  for (const i of items) t[tallyOf(i)] += 1;
  return agreementOf(t);
}

/**
 * "66.7%", or "n/a" when nothing passed or failed. One decimal, trailing ".0" dropped; never
 * "100%" with an item failed nor "0%" with one passed: ">99.9%", "<0.1%" (docs/evaluations.md#agreement).
 */
export function formatAgreement(a: Pick<Agreement, 'percent'>): string {
  return a.percent === null ? 'n/a' : percentText(a.percent);
}

/**
 * A percentage in tenths as shown, ">99.9%" and "<0.1%" counted as 999 and 1: never 1000 below 100
 * nor 0 above 0. Agreement and the run's pass rate are shown to the same precision by this rule
 * (docs/statistics.md, "The run's pass-rate line").
 */
export function shownTenths(percent: number): number {
  const n = Math.round(percent * 10);
  if (n === 1000 && percent < 100) return 999;
  if (n === 0 && percent > 0) return 1;
  return n;
}

/** "66.7%", "100%", ">99.9%", "<0.1%": one decimal, trailing ".0" dropped (shownTenths). */
export function percentText(percent: number): string {
  const n = shownTenths(percent);
  if (n !== Math.round(percent * 10)) return n === 999 ? '>99.9%' : '<0.1%';
  return `${tenthsText(n)}%`;
}

/** Tenths as a decimal: 667 is "66.7", 1000 "100" (no trailing ".0"). */
export function tenthsText(n: number): string {
  return n % 10 === 0 ? String(n / 10) : (n / 10).toFixed(1);
}

/** The conversations an item counts in (see AgreementReport.byConversation), normalised and unique. */
function itemConversations(item: Item): readonly string[] {
  if (isScript(item)) return [...new Set((item.baseline !== null ? item.baseline.visited : item.visited).map(conversationName))];
  const route = item.baseline?.route ?? item.route;
  return route === null ? [] : [conversationName(route.conversation)];
}

/** An item whose tally is `tally` counted in the group `key` of `groups`. */
function countIn(groups: Map<string, Tallies>, key: string, tally: keyof Tallies): void {
  const t = groups.get(key);
  if (t === undefined) groups.set(key, { ...NO_TALLIES, [tally]: 1 });
  else t[tally] += 1;
}

const NO_TALLIES: Readonly<Tallies> = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };

function groupsOf(groups: ReadonlyMap<string, Tallies>): AgreementGroup[] {
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, t]) => ({ key, ...agreementOf(t) }));
}

/**
 * Overall agreement and per group, for a whole run (fixtures and persona scripts). The three
 * groupings and the whole counted in one pass, each group's tallies without a list of its items: a
 * run's summary reads every item of a large run here (docs/performance.md).
 */
export function agreementReport(run: Pick<RunRecord, 'fixtures' | 'personas'>): AgreementReport {
  const overall: Tallies = { ...NO_TALLIES };
  const byConversation = new Map<string, Tallies>();
  const byFile = new Map<string, Tallies>();
  const byPersona = new Map<string, Tallies>();
  const count = (item: Item): void => {
    const tally = tallyOf(item);
    overall[tally] += 1;
    for (const name of itemConversations(item)) countIn(byConversation, name, tally);
    countIn(byFile, item.file, tally);
    if (item.persona !== null) countIn(byPersona, item.persona, tally);
  };
  for (const f of run.fixtures) count(f);
  for (const p of run.personas) count(p);
  return { overall: agreementOf(overall), byConversation: groupsOf(byConversation), byFile: groupsOf(byFile), byPersona: groupsOf(byPersona) };
}
