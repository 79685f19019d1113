// Drift: the verdict comparison against the baseline and whether the reply and route changed
// (docs/semantics.md#drift), as a replay records it. What counts as a change, and as drifted, is
// decided in changes.ts. Pure.

import type { Baseline, Drift, DriftVerdict, Route, Verdict } from '../types.js';

/** The verdict comparison (docs/semantics.md#drift): exactly six values. */
export function driftVerdict(current: Verdict, baseline: Pick<Baseline, 'verdict'> | null): DriftVerdict {
  // Precedence: no baseline wins, even when the check was not evaluated this time.
  if (baseline === null) return 'no_baseline';
  if (current === 'not_evaluated') return 'not_evaluated';
  if (baseline.verdict === 'pass') return current === 'pass' ? 'still_passing' : 'newly_failing';
  return current === 'fail' ? 'still_failing' : 'newly_passing';
}

export function sameRoute(a: Route | null, b: Route | null): boolean {
  if (a === null || b === null) return a === b;
  return a.conversation === b.conversation && a.stage === b.stage;
}

/** Two sequences of routes (a persona script's turns) are the same, turn by turn. */
export function sameRoutes(a: readonly (Route | null)[], b: readonly (Route | null)[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRoute(r, b[i] ?? null));
}

/**
 * Drift of a replay that produced a reply. Errored replays have no drift at all (null),
 * which is the caller's business: this function is only called when a reply exists.
 */
export function computeDrift(
  current: Verdict,
  reply: string,
  route: Route | null,
  baseline: Baseline | null,
): Drift {
  const verdict = driftVerdict(current, baseline);
  if (baseline === null) return { reply: null, route: null, verdict };
  return {
    reply: baseline.reply === reply ? 'same' : 'different',
    route: sameRoute(baseline.route, route) ? 'same' : 'different',
    verdict,
  };
}

/** The cause a fixture's reply gets when its baseline answered another message (docs/meaning.md, "An edited fixture"). */
export const MESSAGE_EDITED = "the fixture's message was edited since the baseline";

/**
 * Whether two messages (or persona tags) are one question: the same text, or the same but for how
 * an accented letter is encoded (`é` as one character, Unicode NFC, or as `e` and a combining
 * accent, NFD, as some macOS editors save text), which look the same (docs/meaning.md, "An edited
 * fixture"). Null (no persona tag) is only itself.
 */
function sameMessage(a: string | null, b: string | null): boolean {
  return a === b || (a !== null && b !== null && a.normalize('NFC') === b.normalize('NFC'));
}

/**
 * Did `baseline` answer another message than the fixture's now (docs/meaning.md, "An edited
 * fixture")? Its message, or its persona tag, is not the fixture's (sameMessage). A baseline
 * accepted before the message was kept says nothing: false, as before.
 */
export function answeredAnotherMessage(baseline: Pick<Baseline, 'message' | 'persona'> | null, fixture: { message: string; persona: string | null }): boolean {
  if (baseline === null || baseline.message === undefined) return false;
  return !sameMessage(baseline.message, fixture.message) || !sameMessage(baseline.persona ?? null, fixture.persona);
}

/**
 * What was edited in a fixture since `baseline` answered it (docs/meaning.md, "An edited fixture"),
 * as the reports show it: the message the baseline answered (null when only the persona tag
 * changed) and, only when the persona tag changed, the baseline's (null: none). Null when nothing
 * was (answeredAnotherMessage).
 */
export function editedSinceBaseline(
  baseline: Pick<Baseline, 'message' | 'persona'> | null,
  fixture: { message: string; persona: string | null },
): { messageWas: string | null; personaWas?: string | null } | null {
  if (baseline === null || !answeredAnotherMessage(baseline, fixture)) return null;
  const messageWas = baseline.message !== undefined && !sameMessage(baseline.message, fixture.message) ? baseline.message : null;
  return !sameMessage(baseline.persona ?? null, fixture.persona) ? { messageWas, personaWas: baseline.persona ?? null } : { messageWas };
}
