// The hidden first two lines of our PR comment: the sticky marker and the run metadata.
//
//   <!-- agent-replay:marker=agent-replay:ci.yml -->
//   <!-- agent-replay:meta {"headSha":"<40 hex>","runId":"123","artifactName":"agent-replay-results"} -->
//
// Once the accept flow committed that run's baselines, the meta also names the commit
// (`"acceptedSha":"<40 hex>"`): a label applied again on that head is then a no-op
// (docs/action.md, "Accept").
//
// When the check's gate failed, the meta also carries it (`"gate":{"failed":true,"offenders":[...]}`,
// at most 5 labels of each condition, each as the comment shows it): the accept flow's comment
// that commits nothing shows the same run against the same baselines, so it says the same gate
// (docs/action.md, "Accept"). Read back, it is untrusted: anything but that shape is left out.
//
// Only these two lines, at the very top, are read back; every value is validated on the way out
// and on the way in, so nothing later in the body (agent text included) can forge or end them.

import * as z from 'zod';
import { FAIL_ON_CONDITIONS } from '../types.js';
import { clip } from './escape.js';
import { onFirstUse } from '../patterns.js';
import type { GateView } from './model.js';

export interface CommentMetadata {
  marker: string;
  headSha: string | null;
  runId: string | null;
  artifactName: string | null;
  /** The commit that accepted this run's baselines; absent until one did. */
  acceptedSha?: string;
  /** The check's gate, when it failed; absent in a comment that says none (an older one included). */
  gate?: GateView;
}

const SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const RUN_ID_RE = /^[0-9]{1,20}$/;
const ARTIFACT_RE = /^[A-Za-z0-9._-]{1,200}$/;
const MARKER_RE = /^[A-Za-z0-9._:/+=@-]{1,200}$/;

/**
 * The marker as written in the comment: characters outside `[A-Za-z0-9._:/+=@-]` become `_`,
 * runs of `-` collapse (an HTML comment cannot contain `--`), at most 200 characters.
 */
export function sanitizeMarker(marker: string): string {
  const s = marker
    .replace(/[^A-Za-z0-9._:/+=@-]/g, '_')
    .replace(/-{2,}/g, '-')
    .slice(0, 200);
  return s === '' ? '_' : s;
}

export function validSha(value: unknown): value is string {
  return typeof value === 'string' && SHA_RE.test(value);
}

function clean(value: string | null | undefined, re: RegExp, lower = false): string | null {
  if (typeof value !== 'string') return null;
  const v = lower ? value.toLowerCase() : value;
  return re.test(v) ? v : null;
}

export function markerLine(marker: string): string {
  return `<!-- agent-replay:marker=${sanitizeMarker(marker)} -->`;
}

/** Labels of one condition kept, and their length as the comment shows one (LIMITS.label). */
const GATE_LABELS = 5;
const GATE_LABEL_CHARS = 100;
/** Room for all the labels kept, escaped, shared by the conditions: past its share, a condition names fewer ("+3 more" counts the rest). */
const GATE_LABELS_ROOM = 2000;

/** The stored gate's shape, built on first use: only a comment's meta line reads or writes it (onFirstUse). */
const gateSchema = onFirstUse(() =>
  z
    .object({
      failed: z.literal(true),
      offenders: z
        .array(
          z
            .object({
              condition: z.enum(FAIL_ON_CONDITIONS.filter((c) => c !== 'none') as [string, ...string[]]),
              labels: z.array(z.string().min(1).max(GATE_LABEL_CHARS)).max(GATE_LABELS),
              fixtures: z.number().int().nonnegative().max(1e9),
              scripts: z.number().int().nonnegative().max(1e9),
            })
            .strict()
            .refine((o) => o.labels.length <= o.fixtures + o.scripts),
        )
        .max(FAIL_ON_CONDITIONS.length),
    })
    .strict(),
);

/** JSON that cannot end or break the HTML comment it sits in, whatever its strings hold. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The failed gate as the meta keeps it: the first labels of each condition, within GATE_LABELS_ROOM. */
function storedGate(gate: GateView | null | undefined): GateView | null {
  if (!gate?.failed) return null;
  const met = gate.offenders.filter((o) => o.condition !== 'none');
  const offenders = met.map((o) => {
    // Each condition its share of the room: one with long labels leaves the others theirs.
    let room = Math.floor(GATE_LABELS_ROOM / met.length);
    const labels: string[] = [];
    for (const label of o.labels.slice(0, GATE_LABELS)) {
      const kept = clip(label, GATE_LABEL_CHARS);
      const cost = inertJson(kept).length;
      if (kept === '' || cost > room) break;
      room -= cost;
      labels.push(kept);
    }
    return { condition: o.condition, labels, fixtures: o.fixtures, scripts: o.scripts };
  });
  const stored = { failed: true, offenders };
  return gateSchema().safeParse(stored).success ? stored : null;
}

export function metaLine(meta: { headSha: string | null; runId: string | null; artifactName: string | null; acceptedSha?: string | null; gate?: GateView | null }): string {
  const accepted = clean(meta.acceptedSha, SHA_RE, true);
  // An artifact name may hold `--` (a suite folder `apps/--beta` is `apps---beta`), which an HTML
  // comment may not: each `-` another follows is written `\u002d`, which JSON reads back as `-`.
  const json = JSON.stringify({
    headSha: clean(meta.headSha, SHA_RE, true),
    runId: clean(meta.runId, RUN_ID_RE),
    artifactName: clean(meta.artifactName, ARTIFACT_RE),
    ...(accepted !== null ? { acceptedSha: accepted } : {}),
  }).replace(/-(?=-)/g, '\\u002d');
  const gate = storedGate(meta.gate);
  return `<!-- agent-replay:meta ${gate === null ? json : `${json.slice(0, -1)},"gate":${inertJson(gate)}}`} -->`;
}

/** True when the first line of `body` is our marker for `marker`. */
export function hasMarker(body: string, marker: string): boolean {
  if (typeof body !== 'string') return false;
  const first = body.split('\n', 1)[0] ?? '';
  return first.replace(/\r$/, '') === markerLine(marker);
}

const MARKER_LINE_RE = /^<!-- agent-replay:marker=([A-Za-z0-9._:/+=@-]{1,200}) -->$/;
const META_LINE_RE = /^<!-- agent-replay:meta (\{[^\n]{0,4000}\}) -->$/;
const META_KEYS = new Set(['headSha', 'runId', 'artifactName', 'acceptedSha', 'gate']);

/** Reads the marker and metadata back from the first two lines of a comment; null if malformed. */
export function parseCommentMetadata(body: string): CommentMetadata | null {
  if (typeof body !== 'string') return null;
  const lines = body.split('\n', 2).map((l) => l.replace(/\r$/, ''));
  const markerMatch = MARKER_LINE_RE.exec(lines[0] ?? '');
  const metaMatch = META_LINE_RE.exec(lines[1] ?? '');
  if (!markerMatch || !metaMatch) return null;
  const marker = markerMatch[1] as string;
  if (!MARKER_RE.test(marker) || marker.includes('--')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metaMatch[1] as string);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const record = parsed as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!META_KEYS.has(key)) return null;
  const field = (key: string, re: RegExp): string | null | undefined => {
    const v = record[key];
    if (v === undefined || v === null) return null;
    return typeof v === 'string' && re.test(v) ? v : undefined;
  };
  const headSha = field('headSha', SHA_RE);
  const runId = field('runId', RUN_ID_RE);
  const artifactName = field('artifactName', ARTIFACT_RE);
  const acceptedSha = field('acceptedSha', SHA_RE);
  if (headSha === undefined || runId === undefined || artifactName === undefined || acceptedSha === undefined) return null;
  // A gate not in the shape written is left out: the comment then says no gate, as an older one.
  const gate = gateSchema().safeParse(record.gate);
  return { marker, headSha, runId, artifactName, ...(acceptedSha !== null ? { acceptedSha } : {}), ...(gate.success ? { gate: gate.data as GateView } : {}) };
}
