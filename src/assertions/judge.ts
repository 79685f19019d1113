import type { Judge, JudgeResult, Outcome, PanelMember, Verdict } from '../types.js';
import { formatPair, reasonLine } from './format.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { shownJson } from '../words.js';

/** How the reason with no judge configured begins (noJudgeReason). */
const NO_JUDGE = 'no judge configured';

/**
 * A judge check's reason with no judge configured, naming the suite's config file (Suite.configName:
 * config.yml, or config.yaml), as results.json keeps it and every report shows it (docs/judges.md).
 */
export function noJudgeReason(file: string = NEW_CONFIG_NAME): string {
  return `${NO_JUDGE} (add a judge section to ${file})`;
}

/** The reason of a suite with config.yml (noJudgeReason). */
export const NO_JUDGE_REASON = noJudgeReason();

/**
 * A not evaluated judge check's detail (docs/judges.md): "judge unreachable: <reason>" when the
 * judge could not be reached or nothing answered (or an HTTP error after the retries), "judge call
 * failed: <message>" when agent-replay could not make the request (nothing was sent), "judge gave no
 * usable answer: <reason>" when it answered without a usable score, or something answered at its
 * address in a form not read (not HTTP, an answer that did not end), the reason alone when no judge
 * is configured.
 */
function unusableDetail(result: Extract<JudgeResult, { ok: false }> | { reason: string; answered: true }, members: readonly PanelMember[] = []): string {
  if (result.reason.startsWith(`${NO_JUDGE} (`)) return result.reason;
  const line = panelReasonLine(result.reason, members) ?? reasonLine(result.reason);
  // A request agent-replay could not make (src/judge/client.ts): nothing was sent, so the judge was not "unreachable".
  if (result.reason.startsWith(`${CALL_FAILED}: `)) return line;
  return `${result.answered === true ? UNUSABLE : UNREACHABLE}: ${line}`;
}

/**
 * A panel member's label as a panel's reason writes it before its reason (src/judge/panel.ts,
 * `<label>: <reason>`): as it is, or quoted (JSON) when it holds ": " or "; " or begins with a
 * quote, so that where the label ends and the member's reason begins is never in doubt
 * (src/evaluate/causes.ts, memberReasons).
 */
export function memberLabel(label: string): string {
  return /: |; |^"/.test(label) ? shownJson(label) : label;
}

/** The most of one panel member's reason a detail line shows: what happened, its fix left to the cause line (reasonLine). */
const MEMBER_REASON_CHARS = 160;

/**
 * A panel's reason (src/judge/panel.ts: `panel: 2 of 3 members gave no usable score (...): <label>:
 * <reason>; <label>: <reason>`) on one line with every member visible: each member's reason bounded
 * on its own (reasonLine), so that one long reason, or the fix of one, never hides the members after
 * it (docs/judges.md, "Panels"). Null when the reason does not end in its members' reasons.
 */
function panelReasonLine(reason: string, members: readonly PanelMember[]): string | null {
  const failed = members.filter((m) => m.score === null);
  const said = (m: PanelMember): string => `${memberLabel(m.label)}: ${m.reason ?? 'no usable score'}`;
  const joined = failed.map(said).join('; ');
  if (failed.length === 0 || !reason.endsWith(joined)) return null;
  const head = reasonLine(reason.slice(0, reason.length - joined.length));
  return `${head} ${failed.map((m) => `${memberLabel(reasonLine(m.label, 60))}: ${reasonLine(m.reason ?? 'no usable score', MEMBER_REASON_CHARS)}`).join('; ')}`;
}

const UNUSABLE = 'judge gave no usable answer';
const UNREACHABLE = 'judge unreachable';
const CALL_FAILED = 'judge call failed';

/**
 * Was a judge check not evaluated by the judge's doing: it was asked and could not be reached, or
 * gave no usable answer, or its request could not be made (as the meaning judge's is counted:
 * src/evaluate/meaning/ladder.ts), not: no judge configured, a run that did not complete? Read from the
 * check's detail, as unusableDetail writes it.
 */
export function judgeGaveNoVerdict(detail: string): boolean {
  return [UNUSABLE, UNREACHABLE, CALL_FAILED].some((words) => detail.startsWith(`${words}: `));
}

/** Members a panel's majority needs: more than half of them (2 of 3, 3 of 5). */
export function panelMajority(size: number): number {
  return Math.floor(size / 2) + 1;
}

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * A panel's verdict (docs/judges.md, "Panels"): the majority is of MEMBERS, not of usable scores.
 * Not evaluated when fewer than a majority of members gave a usable score; else pass when a
 * majority of members scored >= threshold, fail otherwise. So 5 members, 3 usable, 2 of them
 * passing is a fail: a majority answered, and no majority passed.
 */
export function panelVerdict(members: readonly PanelMember[], threshold: number): { verdict: Verdict; usable: number; passed: number; needed: number } {
  const needed = panelMajority(members.length);
  const usable = members.filter((m) => m.score !== null);
  const passed = usable.filter((m) => (m.score as number) >= threshold).length;
  const verdict: Verdict = usable.length < needed ? 'not_evaluated' : passed >= needed ? 'pass' : 'fail';
  return { verdict, usable: usable.length, passed, needed };
}

/**
 * Whether a judge result kept with an accepted verdict (a fixture baseline's `judge` block) contradicts it
 * (docs/fixtures.md, "Judge reuse"): only a pass the judge did not give. The judge is one check of the
 * fixture, and a list passes only when every check passes; a fail beside a passing judge is a list whose
 * other check failed (`[{ contains: "30 days" }, { judge: ... }]`), or a repeated item whose shown
 * attempt passed and whose tally did not. A panel's result is its members' majority, a lone score's the threshold.
 */
export function keptJudgeContradicts(judge: KeptJudge, threshold: number, verdict: 'pass' | 'fail'): boolean {
  return verdict === 'pass' && !keptJudgePasses(judge, threshold);
}

type KeptJudge = { score: number; members?: readonly PanelMember[] | undefined };

/** A kept judge result's own verdict is pass: a panel's by its members' majority, a lone score's against the threshold. */
export function keptJudgePasses(judge: KeptJudge, threshold: number): boolean {
  return judge.members !== undefined ? panelVerdict(judge.members, threshold).verdict === 'pass' : judge.score >= threshold;
}

/**
 * Maps a judge's answer to a verdict: pass iff score >= threshold; no answer is not evaluated.
 * `source` names where a reused answer came from ("reused from abc1234"): it goes into the detail
 * before the rationale, so that a clipped detail line still says it. A panel's answer (with
 * `members`) is decided by `panelVerdict`.
 */
export function judgeOutcome(result: JudgeResult, threshold: number, source: string | null = null): Outcome {
  if (result.members !== undefined) return panelOutcome(result, result.members, threshold, source);
  if (!result.ok) {
    return { verdict: 'not_evaluated', detail: unusableDetail(result), score: null, threshold, rationale: null };
  }
  const { score, rationale } = result;
  const [s, t] = formatPair(score, threshold);
  const passed = score >= threshold;
  return {
    verdict: passed ? 'pass' : 'fail',
    detail: `score ${s} ${passed ? '>=' : '<'} threshold ${t}${source === null ? '' : `, ${source}`}: ${rationale}`,
    score,
    threshold,
    rationale,
  };
}

/**
 * The rationale a panel's answer shows (docs/judges.md, "Panels"): that of the first member, in the
 * panel's order, whose score agrees with the verdict; `fallback` when none does. A run and
 * `calibrate` both show this one.
 */
export function panelRationale(members: readonly PanelMember[], threshold: number, verdict: Verdict, fallback: string): string {
  const pass = verdict === 'pass';
  const agreeing = members.find((m) => m.score !== null && (m.score >= threshold) === pass);
  return agreeing?.rationale ?? fallback;
}

/**
 * A panel's outcome: "panel: 2 of 3 members pass (score >= threshold 0.70; 2 needed), median 0.80:
 * <rationale>", the rationale being the first member's that agrees with the verdict (panelRationale).
 */
function panelOutcome(result: JudgeResult, members: PanelMember[], threshold: number, source: string | null): Outcome {
  const v = panelVerdict(members, threshold);
  if (v.verdict === 'not_evaluated') {
    const failure = result.ok ? { reason: `panel: ${members.length - v.usable} of ${members.length} members gave no usable score (${v.needed} usable needed)`, answered: true as const } : result;
    return { verdict: 'not_evaluated', detail: unusableDetail(failure, members), score: null, threshold, rationale: null, members };
  }
  const scores = members.flatMap((m) => (m.score === null ? [] : [m.score]));
  const score = median(scores);
  const rationale = panelRationale(members, threshold, v.verdict, result.ok ? result.rationale : '');
  const [s, t] = formatPair(score, threshold);
  return {
    verdict: v.verdict,
    detail: `panel: ${v.passed} of ${members.length} members pass (score >= threshold ${t}; ${v.needed} needed), median ${s}${source === null ? '' : `, ${source}`}: ${rationale}`,
    score,
    threshold,
    rationale,
    members,
  };
}

/** The judge's outcome for one reply; `file`: the suite's config file, which the reason with no judge names. */
export async function evaluateJudge(criterion: string, threshold: number, reply: string, judge: Judge | null, file: string = NEW_CONFIG_NAME): Promise<Outcome> {
  if (judge === null) return judgeOutcome({ ok: false, reason: noJudgeReason(file) }, threshold);
  let result: JudgeResult;
  try {
    result = await judge.score(criterion, reply);
  } catch (err) {
    result = { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  return judgeOutcome(result, threshold);
}
