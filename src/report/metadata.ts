// The hidden first two lines of our PR comment: the sticky marker and the run metadata.
//
//   <!-- agent-replay:marker=agent-replay:ci.yml -->
//   <!-- agent-replay:meta {"headSha":"<40 hex>","runId":"123","artifactName":"agent-replay-results"} -->
//
// Once the accept flow committed that run's baselines, the meta also names the commit
// (`"acceptedSha":"<40 hex>"`): a label applied again on that head is then a no-op
// (docs/action.md, "Accept").
//
// Only these two lines, at the very top, are read back; every value is validated on the way out
// and on the way in, so nothing later in the body (agent text included) can forge or end them.

export interface CommentMetadata {
  marker: string;
  headSha: string | null;
  runId: string | null;
  artifactName: string | null;
  /** The commit that accepted this run's baselines; absent until one did. */
  acceptedSha?: string;
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

export function metaLine(meta: { headSha: string | null; runId: string | null; artifactName: string | null; acceptedSha?: string | null }): string {
  const accepted = clean(meta.acceptedSha, SHA_RE, true);
  const json = JSON.stringify({
    headSha: clean(meta.headSha, SHA_RE, true),
    runId: clean(meta.runId, RUN_ID_RE),
    artifactName: clean(meta.artifactName, ARTIFACT_RE),
    ...(accepted !== null ? { acceptedSha: accepted } : {}),
  });
  return `<!-- agent-replay:meta ${json} -->`;
}

/** True when the first line of `body` is our marker for `marker`. */
export function hasMarker(body: string, marker: string): boolean {
  if (typeof body !== 'string') return false;
  const first = body.split('\n', 1)[0] ?? '';
  return first.replace(/\r$/, '') === markerLine(marker);
}

const MARKER_LINE_RE = /^<!-- agent-replay:marker=([A-Za-z0-9._:/+=@-]{1,200}) -->$/;
const META_LINE_RE = /^<!-- agent-replay:meta (\{[^\n]{0,600}\}) -->$/;
const META_KEYS = new Set(['headSha', 'runId', 'artifactName', 'acceptedSha']);

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
  return { marker, headSha, runId, artifactName, ...(acceptedSha !== null ? { acceptedSha } : {}) };
}
