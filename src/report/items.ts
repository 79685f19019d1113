// One item, three ways: in full (a `<details>` whose summary is the item's line and whose body
// holds the message, the diff and the replies), shorter (`diff`: without the nested full replies;
// `brief`: the line only), and as a row of a section's compact table. Persona scripts have their
// own body (persona.ts: checks, first difference, transcript) and share the line and the row; the
// parts both use are in item-parts.ts.

import { firstLineOf } from '../assertions/format.js';
import type { FixtureRecord } from '../types.js';
import type { ReportContext } from './context.js';
import { callSpan, clip, clipDetail, codeSpan, escapeHtmlDetail, escapeHtmlInline, escapeInline, listItem, normalizeBlock } from './escape.js';
import { reuseWords } from '../evaluate/reuse.js';
import { howDecided } from '../evaluate/changes.js';
import { judgeAcrossAttempts } from '../evaluate/judge-flip.js';
import { attemptsHead, ATTEMPT_WORDS, begunCalls, BEGUN_TITLE, otherAttemptsWords, decisiveReply, firstThat, diffBlock, fileRef, fileRefHtml, itemDetails, labelled, LIMITS, messageDiffBlock, namedAttemptReply, needsBlock, panelBlock, replyBlock, type Level } from './item-parts.js';
import { editedSinceBaseline } from '../evaluate/drift.js';
import { isPersona, itemsNoun, rewordedRepeatWords, routeText, SCRIPT_MARK_WORDS, turnName, type FixtureView, type Item, type ItemView } from './model.js';
import { personaBlock, personaLevels } from './persona.js';
import type { Profile } from './profile.js';
import type { Own } from './cause-details.js';
import { keepQuantitiesWhole } from './wrap.js';

// ---------------------------------------------------------------------------------------------
// Item in full

function detailOf(f: FixtureRecord): string {
  return (f.errored ? f.error : f.detail) ?? '';
}

/** The fixture's detail line as its line says it, clipped; '' when there is none. */
function whyLine(f: FixtureRecord, own?: Own): string {
  // The first line only: a multi-line detail (an error page, say) is shown whole, as a block, below.
  // Cut inside a bracket or quote, it is closed after the ellipsis (firstLineOf): "...(within…)".
  const first = firstLineOf(normalizeBlock(own === undefined ? detailOf(f) : (own.text ?? '')).trim(), true);
  return first ? clipDetail(first, LIMITS.detail) : '';
}

/** The fixture's line: icon, label, verdict and drift words, file; then its detail line (whyLine). */
export function itemSummary(v: FixtureView, ctx: ReportContext, why: string, own?: Own): string {
  // Under a cause whose text is said once above it (cause-details.ts): the turn, or its own text.
  const turn = own?.turn ? ` · ${escapeHtmlInline(clip(own.turn, LIMITS.label))}` : '';
  const head = `${v.icon} <b>${escapeHtmlInline(clip(v.label, LIMITS.label))}</b> · ${escapeHtmlInline(keepQuantitiesWhole(v.status.join(' · ')))} · ${fileRefHtml(v.item, ctx)}${turn}`;
  return why ? `${head}<br>${escapeHtmlDetail(why)}` : head;
}

function personaTag(persona: string | null | undefined): string {
  return persona ? codeSpan(clip(persona, LIMITS.label)) : 'none';
}

function messageBlock(f: FixtureRecord): string {
  // Edited since the baseline (docs/meaning.md, "An edited fixture"): what the baseline's reply
  // answered, beside what the fixture says now, so the reviewer sees both questions.
  const edited = editedSinceBaseline(f.baseline, f);
  const persona =
    edited !== null && 'personaWas' in edited ? ` (persona ${personaTag(f.persona)}, the baseline's ${personaTag(edited.personaWas)})` : f.persona ? ` (persona ${personaTag(f.persona)})` : '';
  if (edited?.messageWas != null) return messageDiffBlock(`**Message**${persona}, edited since the baseline`, edited.messageWas, f.message);
  return plainMessage(f, persona);
}

function plainMessage(f: FixtureRecord, persona: string): string {
  const text = normalizeBlock(f.message);
  // One short line reads best inline; anything with line breaks keeps its shape in a block.
  if (!text.includes('\n') && text.length <= LIMITS.messageInline) return `**Message**${persona}: ${escapeInline(text)}`;
  return labelled(`**Message**${persona}`, f.message, LIMITS.message);
}

function judgeLine(f: FixtureRecord): string | null {
  const hasScore = typeof f.score === 'number' && Number.isFinite(f.score);
  if (!hasScore && !f.rationale) return null;
  // The detail line usually states the score already; add it only when it does not.
  const score = hasScore ? (f.score as number).toFixed(2) : null;
  const threshold = typeof f.threshold === 'number' ? ` (threshold ${f.threshold.toFixed(2)})` : '';
  const scoreText = score !== null && !f.detail.includes(score) ? ` score ${score}${threshold}` : '';
  const why = f.rationale ? `: ${escapeInline(clip(f.rationale, LIMITS.rationale))}` : '';
  // A score kept from the baseline says where it came from (no judge call was made).
  const reused = f.judgeReused ? ` (${escapeInline(clip(reuseWords(f.judgeReused), LIMITS.ref))}, no judge call)` : '';
  return scoreText || why ? `**Judge**${scoreText}${reused}${why}` : null;
}

/**
 * A repeated fixture's attempts in order, and which one the reply below is
 * (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it). `level`: the line says
 * "below" only where the reply follows (not in the brief form, which leaves it out), and names the
 * detail's attempt only where its reply follows (shownDecisive), as a script's names its turn.
 */
function attemptsLine(f: FixtureRecord, level: Level): string | null {
  const attempts = f.attempts;
  if (attempts === undefined || f.repeat === undefined) return null;
  const shown = attempts.findIndex((a) => !a.errored);
  // The other attempts against the shown one, in the terms acceptance decides on (docs/meaning.md, "Repeats").
  const others = otherAttemptsWords(f, 'it');
  const decisive = shownDecisive(f, level);
  // The detail's attempt (decisiveParts) follows when its reply is another.
  const then = decisive !== null ? `, then attempt ${decisive.number}'s, ${firstThat(decisive.verdict)}` : '';
  const which = level === 'brief' ? 'the reply' : 'the reply below';
  const tail = shown === -1 ? '' : `; ${which} is attempt ${shown + 1}'s${others === null ? '' : ` (${others})`}${then}`;
  // Every attempt got the same reply and the judge moved the verdict (docs/judges.md, "A judge that answers differently").
  const judge = judgeAcrossAttempts(f);
  return `${attemptsHead(f.repeat, attempts)}${tail}${judge === null ? '' : `; ${escapeInline(clip(judge, LIMITS.detail))}`}`;
}

function hasDiff(f: FixtureRecord): boolean {
  return !f.errored && f.reply !== null && f.baseline !== null && f.drift?.reply === 'different';
}

/** The detail's attempt whose reply follows the shown one: none in the brief form, which leaves replies out. */
function shownDecisive(f: FixtureRecord, level: Level): ReturnType<typeof decisiveReply> {
  return level === 'brief' ? null : decisiveReply(f);
}

/**
 * The reply shown is the first that replied (docs/fixtures.md, "What the item shows"); when the
 * detail names another attempt (the first with the item's verdict), that attempt's reply follows.
 */
function decisiveParts(f: FixtureRecord, level: Level, p: Profile): string[] {
  const decisive = shownDecisive(f, level);
  if (decisive === null) return [];
  return [replyBlock(`**Attempt ${decisive.number}'s reply** (${ATTEMPT_WORDS[decisive.verdict]})`, decisive.reply, p.maxReplyChars)];
}

/**
 * The attempt the line's meaning names ("changed in meaning: attempt 2: numbers 30 → 14"), where it
 * is another than the replies shown: its reply against the shown one's (docs/meaning.md, "Repeats").
 */
function namedParts(f: FixtureRecord, level: Level, p: Profile): string[] {
  const named = level === 'brief' ? null : namedAttemptReply(f);
  if (named === null) return [];
  const block = diffBlock(named.shown, named.reply, p, { title: `**Attempt ${named.number}'s reply**, against attempt ${named.shownNumber}'s`, sides: `\`-\` attempt ${named.shownNumber}, \`+\` attempt ${named.number}` });
  return block === '' ? [] : [block];
}

function bodyParts(f: FixtureRecord, level: Level, p: Profile): string[] {
  return [...shownParts(f, level, p), ...decisiveParts(f, level, p), ...namedParts(f, level, p)];
}

function shownParts(f: FixtureRecord, level: Level, p: Profile): string[] {
  const parts = [messageBlock(f)];
  if (f.drift?.route === 'different' && !f.errored) {
    parts.push(`**Route**: ${escapeInline(routeText(f.baseline?.route))} → ${escapeInline(routeText(f.route))}`);
  }
  const judge = judgeLine(f);
  if (judge) parts.push(judge);
  const panel = panelBlock(f.members, f.threshold);
  if (panel) parts.push(panel);
  const tried = attemptsLine(f, level);
  if (tried) parts.push(tried);
  const detail = normalizeBlock(detailOf(f));
  // The summary shows one clipped line of it, or its cause above it does; the whole of it when that was not all.
  if (needsBlock(detail)) {
    parts.push(labelled(f.errored ? '**Error**' : '**Detail**', detail, LIMITS.detailBlock));
  }
  // The calls its stream had begun when it was cut short, with their inputs: one line (docs/presets.md, "Streamed replies").
  const begun = f.errored && f.reply === null ? begunCalls(f.toolCalls, callSpan) : null;
  if (begun !== null) parts.push(`**${BEGUN_TITLE}**: ${begun}`);
  if (f.reply === null) return parts;
  if (level === 'brief') {
    parts.push('_Reply left out to fit the size limit: see the full report._');
    return parts;
  }
  // A fixture errored by its spans keeps the reply the user saw (docs/traces.md, "Fixtures"): shown, never compared.
  if (f.errored) {
    parts.push(replyBlock(`**Reply** (not compared: the item errored) · route ${escapeInline(routeText(f.route))}`, f.reply, p.maxReplyChars));
    return parts;
  }
  const base = f.baseline;
  if (base && hasDiff(f)) {
    parts.push(diffBlock(base.reply, f.reply, p));
    if (level === 'full') {
      const replies = [
        replyBlock(`**Baseline reply** · route ${escapeInline(routeText(base.route))}`, base.reply, p.maxReplyChars),
        replyBlock(`**New reply** · route ${escapeInline(routeText(f.route))}`, f.reply, p.maxReplyChars),
      ];
      parts.push(`<details><summary>Full baseline and new reply</summary>\n\n${replies.join('\n\n')}\n\n</details>`);
    }
  } else {
    const same = base ? ', same as the baseline' : '';
    parts.push(replyBlock(`**Reply**${same} · route ${escapeInline(routeText(f.route))}`, f.reply, p.maxReplyChars));
  }
  return parts;
}

/**
 * An item in full: its line as the summary of a `<details>` holding everything else; `open` shows
 * the body without a click.
 */
export function itemBlock(v: ItemView, level: Level, ctx: ReportContext, p: Profile, open = false, own?: Own): string {
  if (v.kind === 'script') return personaBlock(v, level, ctx, p, open, own);
  const why = whyLine(v.item, own);
  return itemDetails(v.item, ctx, itemSummary(v, ctx, why, own), bodyParts(v.item, level, p), open, why);
}

/** Can a lower level make this item shorter? */
export function levelsOf(f: Item): readonly Level[] {
  if (isPersona(f)) return personaLevels(f);
  if (f.reply === null) return ['full'];
  if (f.errored) return ['full', 'brief'];
  return hasDiff(f) ? ['full', 'diff', 'brief'] : ['full', 'brief'];
}

// ---------------------------------------------------------------------------------------------
// Compact table

/** The compact table's head: its first column names what the rows are (fixture, persona script or item). */
export function tableHead(items: readonly Item[]): string {
  return `| ${itemsNoun(items, 1)} | verdict | drift | file |\n| --- | --- | --- | --- |`;
}

/**
 * The drift words as markdown: the meaning's words carry the judge's difference or a cause, which
 * are untrusted (docs/meaning.md), and a slower step names a tool from the agent's spans
 * (docs/traces.md, "Slower"), so those are clipped and escaped; the others are our own words.
 */
export function driftMarkdown(v: ItemView): string {
  const stepNamed = v.item.errored !== true && v.item.slower?.step?.name != null;
  const untrusted = new Set(v.changes.filter((c) => c.dimension === 'meaning' || (c.dimension === 'slower' && stepNamed)).map((c) => c.words));
  return v.drift.map((w) => (untrusted.has(w) ? escapeInline(clip(w, LIMITS.detail)) : w)).join(' · ');
}

/** How a reworded item's meaning was decided: "formatting", "known variant", "judge 0.93". */
function decidedBy(v: ItemView): string {
  const m = v.item.errored ? null : (v.item.drift.meaning ?? null);
  return m === null ? 'reworded' : howDecided(m);
}

/**
 * A reworded item in the Reworded block (docs/meaning.md, "In the comment"): its line (label, how it
 * was decided, file and line) as the summary, and its diff inside (a script: each differing
 * turn's, the welcome turn named as in the transcript: "Turn 0 (welcome)"); `brief`: the line only.
 */
export function rewordedBlock(v: ItemView, level: Level, ctx: ReportContext, p: Profile): string {
  const label = `${v.kind === 'script' ? `${SCRIPT_MARK_WORDS} ` : ''}<b>${escapeHtmlInline(clip(v.label, LIMITS.label))}</b>`;
  const head = `${label} · ${escapeHtmlInline(decidedBy(v))}${rewordedRepeatWords(v).map((w) => ` · ${escapeHtmlInline(w)}`).join('')} · ${fileRefHtml(v.item, ctx)}`;
  const diffs: string[] = [];
  if (v.kind === 'fixture') {
    const f = v.item;
    if (hasDiff(f) && f.baseline && f.reply !== null) diffs.push(diffBlock(f.baseline.reply, f.reply, p));
  } else {
    const base = v.item.baseline?.transcript ?? [];
    v.item.turns.forEach((t, i) => {
      const b = base[i];
      if (b !== undefined && b.reply !== t.reply) diffs.push(`**${turnName(t.index)}**\n\n${diffBlock(b.reply, t.reply, p)}`);
    });
  }
  // A list item is markdown, not the raw HTML of a <summary>: the line is written for it.
  if (level === 'brief' || diffs.length === 0) return rewordedLine(v, ctx);
  return itemDetails(v.item, ctx, head, diffs);
}

/** A reworded item's one line in the Reworded block: label, how it was decided, file (docs/meaning.md, "In the comment"). */
export function rewordedLine(v: ItemView, ctx: ReportContext): string {
  const label = `${v.kind === 'script' ? `${SCRIPT_MARK_WORDS} ` : ''}${escapeInline(clip(v.label, LIMITS.label))}`;
  return listItem(`${label} · ${escapeInline(decidedBy(v))}${rewordedRepeatWords(v).map((w) => ` · ${escapeInline(w)}`).join('')} · ${fileRef(v.item, ctx)}`);
}

export function itemRow(v: ItemView, ctx: ReportContext): string {
  const cells = [
    `${v.kind === 'script' ? `${SCRIPT_MARK_WORDS} ` : ''}${escapeInline(clip(v.label, LIMITS.label))}`,
    `${v.icon} ${v.verdict}`,
    driftMarkdown(v),
    fileRef(v.item, ctx, { table: true }),
  ];
  return `| ${cells.join(' | ')} |`;
}
