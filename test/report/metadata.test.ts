import { describe, expect, it } from 'vitest';
import { hasMarker, parseCommentMetadata, renderComment } from '../../src/report/index.js';
import { gateRun, offenderText, type Offender } from '../../src/evaluate/index.js';
import { clip } from '../../src/report/escape.js';
import { metaLine } from '../../src/report/metadata.js';
import { artifactNameFor } from '../../src/action/context.js';
import { FAIL_ON_CONDITIONS, type FailOnCondition, type FixtureRecord, type RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, hostile, mixed, resetLines, run, SHA } from './fixtures.js';

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

  it('writes an artifact name that holds `--` (a suite folder `apps/--beta`) without `--` in the HTML comment, and reads it back as it was', () => {
    const name = artifactNameFor(SHA, 2, undefined, 'apps/--beta');
    expect(name).toContain('---beta');
    const body = renderComment(mixed(), { ...ctx, artifactName: name });
    const lines = body.split('\n');
    // Between `<!--` and `-->`, no `--` at all: the comment stays well-formed HTML.
    expect(lines[1]?.slice('<!--'.length, -'-->'.length)).not.toContain('--');
    expect(parseCommentMetadata(body)?.artifactName).toBe(name);
    // A name without `--` is written as it always was.
    expect(metaLine({ headSha: null, runId: null, artifactName: 'agent-replay-results-a-b' })).toBe('<!-- agent-replay:meta {"headSha":null,"runId":null,"artifactName":"agent-replay-results-a-b"} -->');
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

// The check's failed gate rides in the meta, for the accept flow's comment that commits nothing
// (docs/action.md, "Accept"); read back, anything but the shape written is left out.
describe('the gate in the comment metadata', () => {
  const slow = (label: string): FixtureRecord =>
    fixture(label, { baseline: { ...baseline(label, `Reply for ${label}.`), latencyMs: 1200 }, latencyMs: 2940, slower: { baselineMs: 1200, latencyMs: 2940 } } as Partial<FixtureRecord>);
  const headOf = (body: string): string => body.split('\n').slice(0, 2).join('\n');
  const gateOf = (r: RunRecord, failOn: FailOnCondition[]) => gateRun(r, failOn);

  it('round-trips a failed gate: the first 5 labels of each condition, its counts', () => {
    resetLines();
    const r = run([...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(slow)]);
    const gate = gateOf(r, ['newly_failing', 'slower']);
    const read = parseCommentMetadata(renderComment(r, { ...ctx, gate }));
    expect(read).toEqual({
      marker: 'agent-replay:ci.yml',
      headSha: SHA,
      runId: '9876543210',
      artifactName: 'agent-replay-results',
      gate: { failed: true, offenders: [{ condition: 'slower', labels: ['a', 'b', 'c', 'd', 'e'], fixtures: 7, scripts: 0 }] },
    });
    // Read back, it says what the check said: "and 2 more" from the counts.
    expect(offenderText(read?.gate?.offenders[0] as Offender)).toBe(offenderText(gate.offenders[0] as Offender));
  });

  it('writes no gate when it passed, and an older comment without one reads as before', () => {
    resetLines();
    const r = run([slow('a')]);
    expect(headOf(renderComment(r, { ...ctx, gate: gateOf(r, ['newly_failing']) }))).toBe(headOf(renderComment(r, ctx)));
    expect(parseCommentMetadata(renderComment(r, ctx))).not.toHaveProperty('gate');
  });

  it('keeps labels that would end the HTML comment inert, and reads them back as they were', () => {
    resetLines();
    const evil = 'x --> <script>alert(1)</script> & --!>';
    const r = run([slow(evil), slow('b')]);
    const body = renderComment(r, { ...ctx, gate: gateOf(r, ['slower']) });
    expect(count(headOf(body), '-->')).toBe(2);
    expect(headOf(body)).not.toMatch(/<script|--!>/);
    expect(parseCommentMetadata(body)?.gate?.offenders[0]?.labels).toEqual([evil, 'b']);
  });

  it('stays within the meta line however long and many the labels: fewer named, the rest counted', () => {
    resetLines();
    const long = (i: number): string => `${'-'.repeat(150)}${i}`;
    const r = run(Array.from({ length: 20 }, (_, i) => slow(long(i))));
    const flaky = r.fixtures.map((f) => ({ ...f, repeat: { count: 3, minPass: 2, passed: 2, flaky: true } })) as FixtureRecord[];
    const both = { ...r, fixtures: flaky };
    const read = parseCommentMetadata(renderComment(both, { ...ctx, gate: gateOf(both, ['slower', 'flaky']) }));
    const offenders = read?.gate?.offenders ?? [];
    expect(offenders.map((o) => [o.condition, o.fixtures])).toEqual([['slower', 20], ['flaky', 20]]);
    for (const o of offenders) expect(o.labels.length).toBeLessThan(5);
    expect(offenders[0]?.labels[0]).toBe(clip(long(0), 100));
  });

  it('reads back the largest gate it writes: every condition, the longest labels, the largest counts', () => {
    const conditions = FAIL_ON_CONDITIONS.filter((c) => c !== 'none');
    const labels = Array.from({ length: 9 }, (_, i) => `${'-'.repeat(300)}${i}`);
    const gate = { failed: true, offenders: conditions.map((condition) => ({ condition, labels, fixtures: 1e9, scripts: 0 })) };
    const line = metaLine({ headSha: SHA, runId: '9'.repeat(20), artifactName: 'a'.repeat(200), acceptedSha: 'b'.repeat(64), gate });
    const read = parseCommentMetadata(`${MARKER}\n${line}\nbody`);
    expect(read?.gate?.offenders.map((o) => o.condition)).toEqual(conditions);
    expect(read).toMatchObject({ headSha: SHA, acceptedSha: 'b'.repeat(64) });
  });

  const valid = { failed: true, offenders: [{ condition: 'slower', labels: ['a'], fixtures: 1, scripts: 0 }] };
  it.each([
    ['not an object', '"slower"'],
    ['failed false', JSON.stringify({ ...valid, failed: false })],
    ['an unknown key', JSON.stringify({ ...valid, reason: 'x' })],
    ['an unknown condition', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], condition: 'rm -rf' }] })],
    ['the condition none', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], condition: 'none' }] })],
    ['more labels than items', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], labels: ['a', 'b'] }] })],
    ['six labels', JSON.stringify({ failed: true, offenders: [{ condition: 'slower', labels: ['a', 'b', 'c', 'd', 'e', 'f'], fixtures: 9, scripts: 0 }] })],
    ['a label too long', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], labels: ['x'.repeat(101)] }] })],
    ['a negative count', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], scripts: -1 }] })],
    ['a fractional count', JSON.stringify({ failed: true, offenders: [{ ...valid.offenders[0], fixtures: 1.5 }] })],
  ])('leaves out a gate with %s, and reads the rest', (_name, json) => {
    expect(parseCommentMetadata(meta(`{"headSha":"${SHA}","runId":"1","artifactName":"a","gate":${json}}`))).toEqual({
      marker: 'agent-replay:ci.yml',
      headSha: SHA,
      runId: '1',
      artifactName: 'a',
    });
    expect(parseCommentMetadata(meta(`{"headSha":"${SHA}","runId":"1","artifactName":"a","gate":${JSON.stringify(valid)}}`))?.gate).toEqual(valid);
  });
});
