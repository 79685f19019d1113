// The blocks around the sections: hidden head, acceptance outcome, headline, the notice of what
// was left out, tallies, facts, footer. Each returns finished markdown.

import { judgeFallbackText } from './judge-mode.js';
import { refusedForEnding } from '../evaluate/ending.js';
import { saysFactsOnly } from '../evaluate/meaning/ladder.js';
import { baselineAttemptsOf, byReason, incompleteText, REFUSE_ERRORED, REFUSE_NOT_EVALUATED, REFUSE_PERSONA_ERRORED } from '../evaluate/index.js';
import type { Baseline, PersonaBaseline, RunRecord } from '../types.js';
import type { AcceptanceView, ReportContext } from './context.js';
import { clip, codeSpan, escapeFix, escapeInline, fencedBlock, listItem, safeUrl } from './escape.js';
import { LIMITS } from './item-parts.js';
import { markerLine, metaLine } from './metadata.js';
import { suiteEditsParts } from './suite-edits.js';
import { spendText } from './spend.js';
import { tooFewText } from './rates.js';
import { usageText } from './usage.js';
import { capitalized, durationText, listAndMore, listWords } from '../words.js';
import { estimateText, flakyByTheJudge, flakyByTheJudgeWords, gateFailsText, gateShown, headlineParts, headlineText, itemsCount, itemsNoun, meaningModelShown, personasOf, plural, probesCount, removedShown, SECTION_ORDER, shortSha, thousands, topCauseText, type GateView, type Item, type ReportModel } from './model.js';
import type { Profile } from './profile.js';
import { NBSP } from './wrap.js';
import { docsUrl } from '../version.js';

export function hiddenHead(ctx: ReportContext, model: ReportModel): string {
  // After a commit of the accepted baselines, the meta names it; a failed gate, what the headline does not say of it (docs/action.md, "Accept").
  const a = ctx.acceptance;
  return `${markerLine(ctx.marker)}\n${metaLine({ ...ctx, acceptedSha: a && a.commitSha && a.accepted.length > 0 ? a.commitSha : null, gate: gateShown(model, ctx.gate ?? null) })}`;
}

/** The line that names the suite above the report, or null when the context names none (docs/action.md, "Two suites in one repository"). */
export function suiteLine(ctx: Pick<ReportContext, 'suite'>): string | null {
  return ctx.suite ? `**Suite** ${codeSpan(clip(ctx.suite, LIMITS.ref))}` : null;
}

export function headline(model: ReportModel, endpoint: string | null = null, gate: GateView | null = null): string {
  const h = headlineParts(model, gate);
  const cause = topCauseText(model);
  const fails = gateFailsText(model, gate, (text) => codeSpan(clip(text, LIMITS.label)), (text) => `**${text}**`);
  // One block with the heading: the notice of what is left out stays right under it.
  const lines = [`### ${h.icon} ${headlineText(model)}`, ...(fails === null ? [] : [fails])];
  if (cause !== null) lines.push(`**Cause**: ${causeMarkdown(cause, endpoint, model.verification.causes[0]?.hint ?? null)}`);
  return lines.join('\n');
}

/**
 * A cause line in markdown: escaped, the agent's URL as code (never a link to follow), and its fix
 * (`fix`, the hint the line ends with, before any "(and N other causes)") as words to copy
 * (escapeFix: copied as written, no invisible character in them).
 */
export function causeMarkdown(text: string, endpoint: string | null, fix: string | null = null): string {
  const clipped = clip(text, LIMITS.detailBlock);
  const at = fix === null || fix === '' ? -1 : text.lastIndexOf(`: ${fix}`);
  const from = at < 0 ? clipped.length : Math.min(at + 2, clipped.length);
  return withEndpoint(clipped.slice(0, from), endpoint, escapeInline) + withEndpoint(clipped.slice(from), endpoint, escapeFix);
}

/** `escape(text)`, the agent's URL in it as code. */
function withEndpoint(text: string, endpoint: string | null, escape: (text: string) => string): string {
  if (endpoint === null || endpoint === '' || !text.includes(endpoint)) return escape(text);
  return text.split(endpoint).map((part) => escape(part)).join(codeSpan(clip(endpoint, LIMITS.detail)));
}

/** Flaky items named under the headline; null when none. */
export function flakyBlock(model: ReportModel): string | null {
  const n = model.flaky.length;
  if (n === 0) return null;
  const label = (i: Item): string => codeSpan(clip(i.label, LIMITS.label));
  const noun = itemsNoun(model.flaky, n);
  const judged = flakyByTheJudge(model);
  const judge = judged.length === 0 ? '' : `; ${flakyByTheJudgeWords(judged)}: ${listAndMore(judged, 10, label)}`;
  return `🎲 **${thousands(n)} flaky ${noun}**: the attempts disagree (passes/attempts shown as k/N): ${listAndMore(model.flaky, 10, label)}${judge}`;
}

/**
 * Baselines whose fixture or persona script is gone from the suite (docs/action.md, "The PR comment", "Removed"),
 * after the sections: a deleted fixture is said, never read as a suite that passed. Null when none.
 */
export function removedBlock(model: ReportModel): string | null {
  const n = model.removed.length;
  if (n === 0) return null;
  const { named, more: left } = removedShown(model.removed);
  const listed = named.map((b) => listItem(`${codeSpan(b.label)} (${b.kind === 'persona' ? 'persona script' : 'fixture'}): ${codeSpan(b.file)}`));
  const more = left > 0 ? `\n- … and ${thousands(left)} more` : '';
  return [
    `#### 🗑️ Removed (${thousands(n)})`,
    'Accepted baselines whose fixture or persona script is not in the suite now (removed, or renamed without its baseline): nothing was replayed for them. If that was meant, delete the baseline in this pull request; a renamed item needs its baseline renamed too.',
    `${listed.join('\n')}${more}`,
  ].join('\n\n');
}

/**
 * What the pull request changed in the suite it is checked by (docs/action.md, "The PR comment",
 * "Suite edited"), in one place under the headline: the results were measured against the suite
 * as changed. Labels, files and checks come from the pull request: each in a code span. Null when
 * the record has none. The words are the terminal's and report.html's too (suite-edits.ts).
 */
export function suiteEditsBlock(run: RunRecord): string | null {
  const e = run.suiteEdits;
  if (e === undefined) return null;
  const p = suiteEditsParts(e, (text, max) => codeSpan(clip(text, max)), run.configName);
  const parts = [`#### ✏️ ${p.title}`, p.intro, ...p.groups.map((g) => `**${g.head}**\n\n${g.lines.map(listItem).join('\n')}${g.note === undefined ? '' : `\n\n${g.note}`}`)];
  if (p.unknown !== null) parts.push(`Not everything could be compared: ${escapeInline(clip(p.unknown, LIMITS.detailBlock))}`);
  return parts.join('\n\n');
}

/**
 * A merge that lacks shards, right under the headline: which are missing or excluded.
 * Their items were not replayed here, so they are neither counted nor shown as removed.
 */
export function incompleteBlock(run: RunRecord): string | null {
  if (run.shard != null && run.incomplete == null) {
    return `> **Shard ${run.shard.index}/${run.shard.total}** of the suite: this run replayed only its part. The merge job (report mode) reports the whole suite.`;
  }
  if (run.incomplete == null) return null;
  // The shard numbers are validated integers; the names of excluded files are untrusted text.
  const inc = run.incomplete;
  return (
    `> [!WARNING]\n> **${incompleteText(inc, { most: 5, show: (f) => escapeInline(clip(f, LIMITS.ref)) })}.** ` +
    `This report merges only the shards it was given: the items of a missing shard are not counted here and are not removed.`
  );
}

/** An interrupted run lists only what finished: say so before anything is read as complete. */
export function interruptedBlock(run: RunRecord, model: ReportModel): string | null {
  if (!run.interrupted) return null;
  // With persona scripts among what finished, the count is of "items" (fixtures and scripts alike).
  const noun = run.personas.length > 0 ? 'item' : 'fixture';
  return (
    `> [!WARNING]\n> **Interrupted.** The run was stopped (cancelled or signalled) before every ${noun} finished. ` +
    (model.total === 0
      ? `No ${noun} finished, so none is counted or shown.`
      : `Only the ${plural(model.total, `${noun} that finished is`, `${noun}s that finished are`)} counted and shown; the others were not replayed.`)
  );
}

/**
 * The verdicts of all fixtures; labelled so that it does not read as the section counts. One row
 * per verdict, two columns, "count" the second's heading: a column per verdict, beside the label's cell, was wider than a 390 px
 * phone (with errored and not evaluated items, the last one was scrolled out of sight).
 */
export function talliesTable(model: ReportModel): string {
  const t = model.tallies;
  const cols: [string, string][] = [
    // "8 (1 probe)" kept on one line: the narrow count column wrapped it as "8 (1" | "probe)".
    ['✅ passed', model.probes > 0 ? `${thousands(t.passed)} (${probesCount(model.probes)})`.replaceAll(' ', NBSP) : thousands(t.passed)],
  ];
  if (t.failed > 0) cols.push(['❌ failed', thousands(t.failed)]);
  if (t.notEvaluated > 0) cols.push(['⚪ not evaluated (not a failure)', thousands(t.notEvaluated)]);
  if (t.errored > 0) cols.push(['⚪ errored (not a failure)', thousands(t.errored)]);
  const total = `${itemsCount(model)} by verdict`;
  // The count column named too: a screen reader reads a cell with its column's heading, and an empty one left "5" unnamed.
  return [`| ${total} | count |`, '| --- | ---: |', ...cols.map(([verdict, n]) => `| ${verdict} | ${n} |`)].join('\n');
}

export function factsLine(run: RunRecord, ctx: ReportContext): string {
  const parts = [estimateText(run.estimate)];
  const spent = spendText(run.spend);
  if (spent !== null) parts.push(spent);
  const tokens = usageText(run);
  if (tokens !== null) parts.push(tokens);
  if (run.agent.host) parts.push(`agent ${codeSpan(clip(run.agent.host, LIMITS.ref))}`);
  const sha = shortSha(run.commit);
  // Once baselines are committed, the report compares with them. Before, the ref is named only when
  // an item had a baseline: a first run had none, and "against baselines from" would name a commit
  // that holds none (docs/action.md, "The PR comment").
  const a = ctx.acceptance;
  const compared = [...run.fixtures, ...personasOf(run)].some((item) => item.baseline !== null);
  const baselines = a && a.commitSha && a.accepted.length > 0 ? shortSha(a.commitSha) : compared ? ctx.baselinesRef : null;
  const ref = baselines ? codeSpan(clip(baselines, LIMITS.ref)) : null;
  if (sha && ref) parts.push(`commit ${codeSpan(sha)} against baselines from ${ref}`);
  else if (sha) parts.push(`commit ${codeSpan(sha)}`);
  else if (ref) parts.push(`baselines from ${ref}`);
  if (run.judge.name) parts.push(`judge: ${escapeInline(clip(run.judge.name, LIMITS.ref))}`);
  const meaning = meaningModelShown(run);
  if (meaning !== null) parts.push(`meaning judge: ${escapeInline(clip(meaning, LIMITS.ref))}`);
  return parts.join(' · ');
}

/**
 * The run's pass-rate change (docs/statistics.md, "The run"): "📈 **Pass rate of attempts 93% →
 * 71.5%**: −21.5 points (95% interval of the change: −35 to −9) over 24 items with a baseline,
 * beyond noise", then the `too_few`
 * items whose rate did not fall, once ("🔍 Too few attempts to tell ..."); null with neither.
 */
export function runRateLine(model: Pick<ReportModel, 'runRate' | 'tooFew'>, kind: Profile['kind'] = 'report'): string | null {
  const r = model.runRate;
  // The comment is read on a pull request, where the Action's input sets the attempts; the job summary is written by both.
  const setting = kind === 'comment' ? 'input' : kind === 'summary' ? 'both' : 'flag';
  const few = model.tooFew === null ? null : `🔍 ${capitalized(tooFewText(model.tooFew, codeSpan, setting))}.`;
  if (r === null) return few;
  const head = capitalized(r.head);
  const line = `📈 **${head}**: ${[r.detail, r.mcnemar].filter((x) => x !== null).join(' · ')}`;
  // Said once for the run, right under it, not on each item's line (docs/statistics.md, "Too few attempts, said once").
  return few === null ? line : `${line}\n\n${few}`;
}

/** The judge fell back from the schema mechanism to the plain prompt: one line, or null. */
export function judgeFallbackLine(run: RunRecord): string | null {
  if (run.judge.structured !== false) return null;
  return judgeFallbackText(run.judge.structuredFallback, (reason) => codeSpan(clip(reason, LIMITS.detail)));
}

// ---------------------------------------------------------------------------------------------
// Acceptance

const LISTED = 30;

/** Names (labels, conversations) in a sentence: the first 30 as code spans, then "and N more". */
export function labelList(labels: readonly string[]): string {
  return listAndMore(labels, LISTED, (l) => codeSpan(clip(l, LIMITS.label)));
}

/**
 * What to do about a repeated item refused because its attempts disagree (docs/meaning.md,
 * "Repeats"): the fix the comment's sentence and the CLI's `accept` give; null for another reason.
 */
export function attemptsRefusalFix(reason: string): string | null {
  const again = 'or accept after a run whose attempts agree';
  if (/^replies vary(?: across \d+ attempts(?:$|: )|, and conversations ended differently, across \d+ attempts: )/.test(reason)) return `make the agent answer consistently, ${again}`;
  if (/^replies differ in meaning(?:, and conversations ended differently,)? across \d+ attempts: /.test(reason)) return `find out why the agent answers differently, ${again}`;
  // Attempts none of which changed in meaning, only not checked: their meaning checked is the fix.
  if (/^replies vary across \d+ attempts, their meaning not checked: /.test(reason)) {
    return saysFactsOnly(reason)
      ? `have a model check their meaning (meaning.check: judge, the default once the suite's config has a judge: ${docsUrl('meaning.md', 'Configuration')}), ${again}`
      : `run again once their meaning can be checked, ${again}`;
  }
  // A script refused for who ended its conversations alone: its replies may be the same.
  if (endingsAlone(reason)) return `find out why the agent ends the conversation in some attempts only, ${again}`;
  return null;
}

/** A repeated script's refusal for who ended its attempts' conversations, and nothing else (evaluate/variants.ts). */
const endingsAlone = (reason: string): boolean => /^conversations ended differently across \d+ attempts: /.test(reason);

/**
 * A refusal reason as a plain sentence, at most `max` characters of it: a repeated item's reason is
 * cut there and its consequence and fix said whole after it (what the reader acts on).
 */
export function refusalSentence(reason: string, max = Infinity): string {
  const fix = attemptsRefusalFix(reason);
  // A repeated item's attempts that disagree (docs/meaning.md, "Repeats"): accept's own words, each
  // attempt that differs in meaning named as the CLI and the commit message name it, then the consequence and the fix.
  if (fix !== null) return `${sentence(clip(reason, max))} There is no one ${endingsAlone(reason) ? 'ending' : 'reply'} to store: ${fix}.`;
  return clip(plainRefusal(reason), max);
}

/** Every other refusal reason as a plain sentence. */
function plainRefusal(reason: string): string {
  if (reason === REFUSE_NOT_EVALUATED) return 'its check was not evaluated, so there is no verdict to store; run it again.';
  // With its cause's fix (evaluate/acceptance.ts, notEvaluatedRefusal).
  const unevaluated = /^not evaluated \((.+?)\): (.+)$/s.exec(reason);
  if (unevaluated) return `its check was not evaluated (${unevaluated[1]}), so there is no verdict to store: ${unevaluated[2]}.`;
  if (reason === REFUSE_ERRORED) return 'the replay errored, so there is no reply to accept.';
  if (reason === REFUSE_PERSONA_ERRORED) return 'the script did not run to the end, so there is no transcript to accept.';
  return sentence(reason.trim().replace(/_/g, ' '));
}

/** `text` ended as a sentence: a full stop unless it has its own (a judge's difference may end with one) or was cut ("…"). */
function sentence(text: string): string {
  return /[.!?\u2026]$/.test(text) ? text : `${text}.`;
}

/** Labels of items said together ("`a`, `b` and `c`"), the first `most` named and the rest counted ("`a`, `b` and 4 more"). */
function labelsTogether(labels: readonly string[], most: number): string {
  const code = (l: string): string => codeSpan(clip(l, LIMITS.label));
  return labels.length <= most ? listWords(labels.map(code)) : listAndMore(labels, most, code);
}

/** The refused items, one line a reason with its items named together (byReason), the first 30 reasons. */
export function refusedList(a: Pick<AcceptanceView, 'refused'>): string[] {
  if (a.refused.length === 0) return [];
  const lines = [`**Refused (${thousands(a.refused.length)})**:`, ''];
  const groups = byReason(a.refused);
  for (const g of groups.slice(0, LISTED)) {
    lines.push(listItem(`${labelsTogether(g.items.map((r) => r.label), LISTED)}: ${escapeInline(refusalSentence(g.reason, LIMITS.detail))}`));
  }
  if (groups.length > LISTED) lines.push(`- and ${thousands(groups.slice(LISTED).reduce((n, g) => n + g.items.length, 0))} more`);
  return lines;
}

/** The longest commands block a comment shows (a fork's acceptance); longer ones are replaced by a line. */
export const MAX_COMMANDS_CHARS = 20_000;

export function commandsBlock(commands: string): string {
  const shown = commands.length <= MAX_COMMANDS_CHARS ? commands : '# too long to show here: download the baseline files from the artifact named above';
  return fencedBlock(shown, 'sh');
}

/** The acceptance outcome: the comment's first heading once the accept label was handled. */
export function acceptanceBlock(a: AcceptanceView): string {
  const lines: string[] = [];
  const note = a.note ? escapeInline(clip(a.note, LIMITS.detailBlock)) : null;
  if (a.accepted.length > 0 && a.commitSha) {
    const sha = shortSha(a.commitSha) as string;
    const url = safeUrl(a.commitUrl);
    lines.push(`### ✅ Baselines accepted in ${url ? `[${codeSpan(sha)}](${url})` : codeSpan(sha)}`, '');
    lines.push(`**Accepted (${thousands(a.accepted.length)})**: ${labelList(a.accepted)}`);
  } else if (a.accepted.length > 0) {
    lines.push('### ⏸️ Baselines not committed', '');
    lines.push(note ?? 'Nothing was pushed to the branch.');
    if (a.commands) lines.push('', commandsBlock(a.commands));
    lines.push('', `**Ready to accept (${thousands(a.accepted.length)})**: ${labelList(a.accepted)}`);
  } else {
    lines.push('### ⛔ Baselines not accepted', '');
    lines.push(note ?? 'No fixture had a pass or fail reply that differs from its baseline.');
  }
  const refused = refusedList(a);
  if (refused.length > 0) lines.push('', ...refused);
  if (a.skipped.length > 0) lines.push('', `**Unchanged, nothing to write (${thousands(a.skipped.length)})**: ${labelList(a.skipped)}`);
  if (a.accepted.length > 0 && a.commitSha && note) lines.push('', note);
  if (a.accepted.length > 0 && a.commitSha) lines.push('', 'The report below compares this run with the accepted baselines.');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Where the full report is, and the footer

export function fullReportWhere(ctx: ReportContext, p: Profile): string {
  const links: string[] = [];
  const summary = p.kind === 'comment' ? safeUrl(ctx.summaryUrl) : null;
  const artifact = safeUrl(ctx.artifactUrl);
  if (summary) links.push(`the [job summary](${summary})`);
  if (artifact) links.push(`the [results artifact](${artifact})`);
  if (links.length > 0) return links.join(' and ');
  if (p.kind === 'comment') return 'the job summary and the results artifact of this run';
  return 'results.json (`agent-replay report --results results.json`)';
}

export interface CallToAction {
  /** Items the accept label would store (evaluate's rule), reworded ones left out. */
  acceptable: number;
  /** Those of them changed only by being slower: accepting stores their latency, their pass/fail result is the baseline's. */
  slower: readonly Item[];
  /** How many of them are shown in full. */
  shownInFull: number;
  /**
   * Reworded items the accept label would store too, with the baseline it would write: the new
   * wording as the reply, the other wordings kept as known variants, a tally that moved (docs/meaning.md,
   * "Variants"; docs/statistics.md, "A baseline's attempts").
   */
  reworded: readonly Refreshed[];
  /**
   * Unchanged items (same reply and verdict) whose baseline the accept label would still rewrite,
   * with that baseline: a pass rate that moved, a slower latency, another judge (docs/statistics.md, "A baseline's attempts").
   */
  refreshed: readonly Refreshed[];
  /** Items with a pass or fail result the label would refuse, with accept's reason; unchanged items left out. */
  refused: readonly { item: Item; reason: string }[];
}

/** An unchanged item the accept label would still rewrite, with the baseline it would write (decided once, in markdown.ts). */
export interface Refreshed {
  item: Item;
  baseline: Baseline | PersonaBaseline;
}

/**
 * The unchanged items whose baselines the label would rewrite, the first named with what the
 * rewrite changes in their files: "the baseline of 1 unchanged item whose measurements moved
 * (`shipping`: attempts passed 3/5 → 5/5)".
 */
function refreshedWords(items: readonly Refreshed[]): string {
  const n = items.length;
  // Each item holds commas of its own ("`shipping`: latency, tokens"): "; " between them, and "; and
  // N more" (docs/architecture.md, words.ts).
  const named = listAndMore(items, REFRESHED_NAMED, (r) => {
    const moved = refreshedFields(r);
    return `${codeSpan(clip(r.item.label, LIMITS.label))}${moved.length > 0 ? `: ${escapeInline(moved.join(', '))}` : ''}`;
  }, '; ');
  return n === 1
    ? `the baseline of 1 unchanged item whose measurements moved (${named})`
    : `the baselines of ${thousands(n)} unchanged items whose measurements moved (${named})`;
}

/** The slower items whose pass/fail result did not change, as accepting them stores them: "the latency of 1 slower fixture". */
function slowerWords(items: readonly Item[]): string {
  const n = items.length;
  return `${n === 1 ? 'the latency' : 'the latencies'} of ${thousands(n)} slower ${itemsNoun(items)}`;
}

/** What an accepted baseline would change in an unchanged item's stored file, in words: "attempts passed 3/5 → 5/5", "latency", "tokens". */
function refreshedFields({ item, baseline }: Refreshed): string[] {
  return item.baseline === null ? [] : measurementsMoved(item.baseline, baseline);
}

/**
 * What rewriting the stored baseline `stored` as `written` changes, in words, for an item whose
 * reply and verdict stand (the "To refresh" line's, and `agent-replay accept`'s line for it):
 * "attempts passed 3/5 → 5/5", "latency", "tokens", "time split", "judge", "known wordings" (a
 * script's: any turn's).
 */
export function measurementsMoved(stored: Baseline | PersonaBaseline, written: Baseline | PersonaBaseline): string[] {
  const before = stored as unknown as Record<string, unknown>;
  const after = written as unknown as Record<string, unknown>;
  const words: string[] = [];
  const moved = (key: string): boolean => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null);
  if (moved('attempts')) {
    const a = baselineAttemptsOf(stored);
    const b = baselineAttemptsOf(written);
    words.push(`attempts passed ${a.passed}/${a.total} → ${b.passed}/${b.total}`);
  }
  if (moved('latencyMs')) words.push('latency');
  if (moved('usage')) words.push('tokens');
  if (moved('time')) words.push('time split');
  if (moved('judge')) words.push('judge');
  if (moved('variants') || turnVariantsMoved(stored, written)) words.push('known wordings');
  return words;
}

/** Whether a script's turns' known wordings differ between two of its baselines (docs/meaning.md, "Variants"). */
function turnVariantsMoved(stored: Baseline | PersonaBaseline, written: Baseline | PersonaBaseline): boolean {
  if (!('transcript' in stored) || !('transcript' in written)) return false;
  const turns = Math.max(stored.transcript.length, written.transcript.length);
  return Array.from({ length: turns }, (_, i) => i).some((i) => JSON.stringify(stored.transcript[i]?.variants ?? []) !== JSON.stringify(written.transcript[i]?.variants ?? []));
}

/**
 * What the label writes for the reworded items, as accept writes it (evaluate/acceptance.ts): "the
 * new wording of the 4 reworded items as their baseline replies, the baselines' wordings kept as
 * known variants where they differ by more than formatting", and their tallies where the run's
 * replace them: ", with the run's attempts for 1 of them (`faq`: attempts passed 10/10 → 9/10)".
 */
function rewordedWrites(items: readonly Refreshed[], counted: boolean): string {
  const n = items.length;
  // A repeated item's other attempts' wordings become variants too (docs/meaning.md, "Repeats").
  const attempts = items.some((r) => r.item.attempts !== undefined) ? " and the other attempts'" : '';
  const wording = counted ? `the new wording of the ${n === 1 ? '1 reworded item' : `${thousands(n)} reworded items`}` : `${n === 1 ? 'its' : 'their'} new wording`;
  const head =
    n === 1
      ? `${wording} as its baseline reply, the baseline's wording${attempts} kept as known variants where they differ by more than formatting`
      : `${wording} as their baseline replies, the baselines' wordings${attempts} kept as known variants where they differ by more than formatting`;
  const tallies = items.filter((r) => r.item.baseline !== null && JSON.stringify(r.item.baseline.attempts ?? null) !== JSON.stringify(r.baseline.attempts ?? null));
  if (tallies.length === 0) return head;
  // No item holds a comma ("`faq`: attempts passed 10/10 → 9/10"): a list as any other (docs/architecture.md, words.ts).
  const named = listAndMore(tallies, REFRESHED_NAMED, (r) => {
    const a = baselineAttemptsOf(r.item.baseline as Baseline | PersonaBaseline);
    const b = baselineAttemptsOf(r.baseline);
    return `${codeSpan(clip(r.item.label, LIMITS.label))}: attempts passed ${a.passed}/${a.total} → ${b.passed}/${b.total}`;
  });
  return `${head}, with the run's attempts${n === 1 ? '' : ` for ${thousands(tallies.length)} of them`} (${named})`;
}

/** The unchanged items the "To accept" line names before counting the rest. */
const REFRESHED_NAMED = 5;

/**
 * The items with a pass or fail result the label would refuse, named with accept's reason, and
 * what agreeing attempts are (docs/meaning.md, "Repeats"): a script's attempts that replied alike
 * but whose agent ended the conversation in some only are refused too, said when one is.
 */
function refusedWords(refused: CallToAction['refused']): string {
  if (refused.length === 0) return '';
  // Items refused for the same reason are named together, the reason said once ("`a` and `b`
  // (replies vary across 3 attempts, ...)"): an agent that rewords every reply gives most of a
  // suite one reason. Each reason may hold commas of its own ("attempts 2, 3 and 4 replied
  // otherwise than attempt 1"): "; " between them, and "; and N more" (docs/architecture.md, words.ts).
  const named = listAndMore(byReason(refused), REFRESHED_NAMED, (g) => `${labelsTogether(g.items.map((r) => r.item.label), REFRESHED_NAMED)} (${escapeInline(clip(g.reason, LIMITS.detail))})`, '; ');
  const ending = refused.some(({ reason }) => refusedForEnding(reason)) ? ', and for a script the agent ending the conversation in all of them or in none' : '';
  return ` The label would refuse ${named}: a repeated item is accepted only when its attempts agree (the same reply, or the same meaning${ending}).`;
}

/**
 * Why the label would accept nothing, said for the case: every pass or fail is its baseline's
 * ("no pass or fail reply differs from its baseline"), and a new item that was not evaluated or
 * errored has no baseline to differ from, and gets none, since only a pass or fail is stored
 * (docs/semantics.md, "Baselines and acceptance").
 */
function nothingToAccept(model: ReportModel): string {
  const same = 'no pass or fail reply differs from its baseline';
  const unmeasured = SECTION_ORDER.flatMap((k) => model.sections[k]).filter((i) => i.baseline === null && (i.errored || i.verdict === 'not_evaluated'));
  if (unmeasured.length === 0) return `Nothing to accept: ${same}.`;
  const errored = unmeasured.filter((i) => i.errored).length;
  const how = errored === 0 ? 'were not evaluated' : errored === unmeasured.length ? 'errored' : 'were not evaluated or errored';
  const only = unmeasured[0];
  const what =
    unmeasured.length === 1 && only !== undefined
      ? `${codeSpan(clip(only.label, LIMITS.label))} is new and ${only.errored ? 'errored' : 'was not evaluated'}`
      : `the ${thousands(unmeasured.length)} new ${itemsNoun(unmeasured, unmeasured.length)} ${how}`;
  // The other items all have a baseline: no pass or fail without one is left (the label would store it).
  const rest = unmeasured.length < model.total ? `; ${same}` : '';
  return `Nothing to accept: ${what}, and a baseline is stored only for a pass or fail${rest}.`;
}

function callToAction(ctx: ReportContext, p: Profile, cta: CallToAction, model: ReportModel): string {
  const a = ctx.acceptance;
  if (a && a.accepted.length > 0 && !a.commitSha) return 'Nothing was committed: run the commands above in a clone of the pull request\'s branch to accept.';
  const refused = refusedWords(cta.refused);
  const reworded = cta.reworded.length;
  if (cta.acceptable === 0 && reworded === 0 && cta.refreshed.length === 0) {
    return cta.refused.length === 0 ? nothingToAccept(model) : `Nothing the label would accept.${refused}`;
  }
  const label = codeSpan(clip(ctx.acceptLabel, LIMITS.label));
  const how =
    p.kind === 'comment'
      ? `apply the ${label} label to this pull request`
      : `apply the ${label} label to the pull request (or run \`agent-replay accept\`)`;
  const never = model.scripts > 0 ? 'fixtures and persona scripts' : 'fixtures';
  // Reworded items need no acceptance (they mean the same as their baselines), but the label
  // rewrites their baselines all the same: counted apart, never as changed, and said as accept
  // writes them (docs/meaning.md, "In the comment").
  const items = (n: number): string => (n === 1 ? '1 reworded item' : `${thousands(n)} reworded items`);
  if (cta.acceptable === 0 && cta.refreshed.length === 0) {
    return `**Nothing needs accepting**: the ${items(reworded)} ${reworded === 1 ? 'means' : 'mean'} the same as ${reworded === 1 ? 'its baseline' : 'their baselines'}. To store ${rewordedWrites(cta.reworded, false)}, so that later runs decide ${reworded === 1 ? 'its wordings' : 'their wordings'} with no meaning call, ${how}.${refused} Not evaluated and errored ${never} are never accepted.`;
  }
  // The reassurance first: a reviewer reads what needs doing, then what the label does besides.
  const also = reworded === 0 ? '' : ` The ${items(reworded)} need${reworded === 1 ? 's' : ''} no acceptance; accepting also stores ${rewordedWrites(cta.reworded, false)}.`;
  // A slower item whose pass/fail result did not change is counted apart: accepting stores its latency (docs/latency.md).
  const changed = cta.acceptable - cta.slower.length;
  // One result is one baseline: the count agrees ("the new or changed pass/fail result as a baseline").
  const parts = [
    ...(changed === 0 ? [] : [changed === 1 ? 'the new or changed pass/fail result as a baseline' : `the ${thousands(changed)} new or changed pass/fail results as baselines`]),
    ...(cta.slower.length === 0 ? [] : [slowerWords(cta.slower)]),
  ];
  const results = parts.length === 0 ? null : parts.join(', and ');
  const refreshed = cta.refreshed.length === 0 ? null : refreshedWords(cta.refreshed);
  const what = results === null ? `${refreshed ?? ''}` : refreshed === null ? results : `${results}, and refresh ${refreshed}`;
  const seen =
    cta.acceptable === 0 || cta.shownInFull >= cta.acceptable
      ? ''
      : ` Review them first: ${cta.shownInFull === 0 ? 'none' : `only ${thousands(cta.shownInFull)}`} of them ${cta.shownInFull === 1 ? 'is' : 'are'} shown in detail here, all of them in the full report.`;
  const verb = results === null ? '**To refresh**' : '**To accept**';
  return `${verb} ${what}, ${how}.${seen}${also}${refused} Not evaluated and errored ${never} are never accepted.`;
}

export function footerBlocks(run: RunRecord, ctx: ReportContext, model: ReportModel, p: Profile, cta: CallToAction): string[] {
  const blocks = [callToAction(ctx, p, cta, model)];
  const links: string[] = [];
  const summary = p.kind === 'comment' ? safeUrl(ctx.summaryUrl) : null;
  const artifact = safeUrl(ctx.artifactUrl);
  if (summary) links.push(`[job summary](${summary})`);
  if (artifact) links.push(`[results artifact](${artifact})`);
  if (links.length > 0) blocks.push(`Full report: ${links.join(' · ')}`);
  blocks.push(
    // A paragraph, not an HTML block: markdown is read inside <sub>, so the record's text is escaped as markdown.
    `<sub>${escapeInline(`${run.tool.name} ${run.tool.version}`)} · ${itemsCount(model)} in ${durationText(run.durationMs)}</sub>`,
  );
  return blocks;
}
