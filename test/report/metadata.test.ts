import { describe, expect, it } from 'vitest';
import { hasMarker, parseCommentMetadata, renderComment } from '../../src/report/index.js';
import { ctx, hostile, mixed, SHA } from './fixtures.js';

const MARKER = '<!-- agent-replay:marker=agent-replay:ci.yml -->';
const meta = (json: string): string => `${MARKER}\n<!-- agent-replay:meta ${json} -->\nbody`;

describe('comment metadata', () => {
  it('round-trips through a rendered comment', () => {
    const body = renderComment(mixed(), ctx);
    expect(parseCommentMetadata(body)).toEqual({
      marker: 'agent-replay:ci.yml',
      headSha: SHA,
      runId: '9876543210',
      artifactName: 'agent-replay-results',
    });
    expect(hasMarker(body, 'agent-replay:ci.yml')).toBe(true);
    expect(hasMarker(body, 'agent-replay:other.yml')).toBe(false);
  });

  it('names the accepting commit once the baselines are committed, and only then', () => {
    const commit = 'b'.repeat(40);
    const acceptance = { accepted: ['greeting'], refused: [], skipped: [], commitSha: commit, commitUrl: null, note: null, commands: null };
    expect(parseCommentMetadata(renderComment(mixed(), { ...ctx, acceptance }))).toMatchObject({ headSha: SHA, acceptedSha: commit });
    // Not committed (a fork), or nothing accepted: no acceptedSha.
    expect(parseCommentMetadata(renderComment(mixed(), { ...ctx, acceptance: { ...acceptance, commitSha: null } }))).not.toHaveProperty('acceptedSha');
    expect(parseCommentMetadata(renderComment(mixed(), { ...ctx, acceptance: { ...acceptance, accepted: [] } }))).not.toHaveProperty('acceptedSha');
    expect(parseCommentMetadata(meta(`{"headSha":"${SHA}","runId":"1","artifactName":"a","acceptedSha":"nope"}`))).toBeNull();
  });

  it('accepts CRLF bodies as GitHub may return them', () => {
    const body = renderComment(mixed(), ctx).replace(/\n/g, '\r\n');
    expect(parseCommentMetadata(body)?.headSha).toBe(SHA);
    expect(hasMarker(body, 'agent-replay:ci.yml')).toBe(true);
  });

  it('writes null for invalid values instead of embedding them', () => {
    const body = renderComment(mixed(), {
      ...ctx,
      headSha: 'not-a-sha --> <script>',
      runId: '12; DROP',
      artifactName: 'name with spaces -->',
      marker: 'evil --> <b>',
    });
    const lines = body.split('\n');
    expect(lines[0]).toBe('<!-- agent-replay:marker=evil_-___b_ -->');
    expect(parseCommentMetadata(body)).toEqual({ marker: 'evil_-___b_', headSha: null, runId: null, artifactName: null });
    expect(count(lines.slice(0, 2).join('\n'), '-->')).toBe(2);
  });

  it('is not fooled by agent text that contains a metadata line', () => {
    const body = renderComment(hostile(), ctx);
    const forged = `${MARKER}\n<!-- agent-replay:meta {"headSha":"${'f'.repeat(40)}","runId":"1","artifactName":"x"} -->`;
    // A forged copy later in the body is ignored: only the first two lines count.
    expect(parseCommentMetadata(`${body}\n${forged}`)?.headSha).toBe(SHA);
    expect(parseCommentMetadata(`hello\n${forged}`)).toBeNull();
    expect(hasMarker(`hello\n${MARKER}`, 'agent-replay:ci.yml')).toBe(false);
  });

  it.each([
    ['not json', meta('{headSha: 1}')],
    ['array', meta('[1,2]')],
    ['unknown key', meta('{"headSha":null,"runId":null,"artifactName":null,"extra":1}')],
    ['short sha', meta('{"headSha":"abc123","runId":null,"artifactName":null}')],
    ['uppercase sha', meta(`{"headSha":"${'A'.repeat(40)}","runId":null,"artifactName":null}`)],
    ['run id not digits', meta('{"headSha":null,"runId":"12a","artifactName":null}')],
    ['run id number', meta('{"headSha":null,"runId":12,"artifactName":null}')],
    ['artifact with slash', meta('{"headSha":null,"runId":null,"artifactName":"a/b"}')],
    ['comment terminator', meta('{"headSha":null,"runId":null,"artifactName":"x-->"}')],
    ['missing meta line', `${MARKER}\nbody`],
    ['marker not first', `\n${MARKER}\n<!-- agent-replay:meta {} -->`],
    ['bad marker', meta('{}').replace('agent-replay:ci.yml', 'a b')],
    ['double dash marker', meta('{}').replace('agent-replay:ci.yml', 'a--b')],
    ['empty', ''],
  ])('rejects %s', (_name, body) => {
    expect(parseCommentMetadata(body)).toBeNull();
  });

  it('accepts missing keys as null', () => {
    expect(parseCommentMetadata(meta('{}'))).toEqual({ marker: 'agent-replay:ci.yml', headSha: null, runId: null, artifactName: null });
  });
});

function count(s: string, needle: string): number {
  return s.split(needle).length - 1;
}
