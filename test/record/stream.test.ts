// results.json written as items finish (record/stream.ts): whatever order the items finish in,
// and whatever part of the run is recorded, the file is serializeRecord's text; a failure to write
// never loses the record; no temporary file is left. Real files in temporary folders.

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRecordStream, RecordWriteError, serializeRecord, writeRecordFile } from '../../src/record/index.js';
import { contiguous } from '../../src/record/stream.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const made: string[] = [];
afterEach(async () => {
  for (const p of made.splice(0)) await rm(p, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-stream-'));
  made.push(dir);
  return dir;
}

// Replies with what JSON escapes or encodes in several bytes: quotes, backslashes, new lines,
// accents, an emoji (a surrogate pair), U+2028, a control character.
const REPLIES = ['Refunds within 30 days.', 'Say "hi" \\ then\nnew line', 'déjà vu, 30 jours 😀', 'line\u2028separator\u0007bell', ''];

function fixture(i: number): FixtureRecord {
  const label = `f-${String(i).padStart(5, '0')}`;
  return fixtureRecord({
    label,
    file: `.agent-replay/fixtures/group-${i % 7}.yml`,
    line: i + 1,
    message: `Question ${i}: can I return my order?`,
    persona: i % 3 === 0 ? 'impatient' : null,
    assertion: { kind: 'contains', value: '30' },
    definitionHash: `h${i}`,
    reply: `${REPLIES[i % REPLIES.length]} #${i} ${'x'.repeat(i % 50)}`,
    route: { conversation: 'refunds', stage: `s${i % 4}` },
    verdict: i % 5 === 0 ? 'fail' : 'pass',
    detail: 'reply contains "30"',
    durationMs: i % 97,
  });
}

/** Serialization does not look at the shape: a small object stands for a persona record. */
function persona(i: number): PersonaRecord {
  return { label: `p-${i}`, turns: [{ index: 1, user: `hello ${i}`, reply: `héllo ${i}` }], checks: [], verdict: 'pass' } as unknown as PersonaRecord;
}

function record(fixtures: FixtureRecord[], personas: PersonaRecord[], over: Partial<RunRecord> = {}): RunRecord {
  return {
    schemaVersion: 1,
    tool: { name: 'agent-replay', version: '0.1.0' },
    startedAt: '2026-12-01T10:00:00.000Z',
    finishedAt: '2026-12-01T10:00:05.000Z',
    durationMs: 5000,
    commit: 'a'.repeat(40),
    agent: { host: '127.0.0.1:1234' },
    judge: { name: null },
    estimate: { usd: 0.04, capUsd: 0.1, aboveCap: false, confirmed: false },
    tallies: { passed: fixtures.length, failed: 0, notEvaluated: 0, errored: 0 },
    interrupted: false,
    fixtures,
    personas,
    spend: { agentTurns: 3, agentRetries: 0, judgeCalls: 0, judgeReused: 0 },
    ...over,
  };
}

/** A fixed shuffle of 0..n-1 (items finishing out of order). */
function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let seed = 12345;
  for (let i = n - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

const N = 3000; // about 800 KB of items: many chunks of the side file

describe('openRecordStream', () => {
  it('items finishing out of order: the file is serializeRecord(record), the old file stays until the end, no temporary file is left', async () => {
    const dir = await folder();
    const target = join(dir, 'results.json');
    await writeFile(target, 'the previous run\n');
    const fixtures = Array.from({ length: N }, (_, i) => fixture(i));
    const personas = Array.from({ length: 40 }, (_, i) => persona(i));
    const stream = openRecordStream(target);
    const fOrder = shuffled(N);
    const pOrder = shuffled(personas.length);
    for (let k = 0; k < N; k++) {
      stream.item('fixture', fOrder[k] as number, fixtures[fOrder[k] as number] as FixtureRecord);
      if (k < pOrder.length) stream.item('persona', pOrder[k] as number, personas[pOrder[k] as number] as PersonaRecord);
    }
    expect(await readFile(target, 'utf8')).toBe('the previous run\n');
    const run = record(fixtures, personas);
    expect(await stream.finish(run)).toEqual({ path: target });
    const text = await readFile(target, 'utf8');
    expect(text).toBe(serializeRecord(run));
    expect(text.length).toBeGreaterThan(500_000);
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it('more than a megabyte of spooled items of one kind: copied in pieces, the file is serializeRecord(record)', async () => {
    const dir = await folder();
    const target = join(dir, 'results.json');
    const fixtures = Array.from({ length: 2 * N + 500 }, (_, i) => fixture(i));
    const stream = openRecordStream(target);
    fixtures.forEach((f, i) => stream.item('fixture', i, f));
    const run = record(fixtures, [persona(1)]);
    await stream.finish(run);
    const text = await readFile(target, 'utf8');
    expect(text.length).toBeGreaterThan(1024 * 1024 + 200_000);
    expect(text).toBe(serializeRecord(run));
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it('contiguous: adjacent chunks of the side file become one range, a gap starts another', () => {
    expect(contiguous([])).toEqual([]);
    expect(contiguous([[0, 10], [10, 5], [15, 1]])).toEqual([[0, 16]]);
    expect(contiguous([[0, 10], [12, 5], [17, 3], [40, 1]])).toEqual([[0, 10], [12, 8], [40, 1]]);
  });

  it('serializes an item when it finishes: a change made to the object afterwards is not in the file', async () => {
    // A record is written once and never changed; this shows that the first items were spooled
    // to the side file as they finished, not serialized from the record at the end.
    const dir = await folder();
    const target = join(dir, 'results.json');
    const fixtures = Array.from({ length: N }, (_, i) => fixture(i));
    const stream = openRecordStream(target);
    fixtures.forEach((f, i) => stream.item('fixture', i, f));
    const before = serializeRecord(record(fixtures, []));
    (fixtures[0] as { reply: string }).reply = 'changed after it finished';
    await stream.finish(record(fixtures, []));
    const text = await readFile(target, 'utf8');
    expect(text).toBe(before);
    expect(text).not.toContain('changed after it finished');
  });

  it('an interrupted run: the items that finished after a gap are written too, in suite order', async () => {
    const dir = await folder();
    const target = join(dir, 'results.json');
    const fixtures = Array.from({ length: N }, (_, i) => fixture(i));
    const stream = openRecordStream(target);
    // Item 3 never finished; the last item and item 1500 finished first, then the others in order.
    const order = [N - 1, 1500, ...Array.from({ length: N }, (_, i) => i).filter((i) => i !== 3 && i !== 1500 && i !== N - 1)];
    for (const i of order) stream.item('fixture', i, fixtures[i] as FixtureRecord);
    const finished = fixtures.filter((_, i) => i !== 3);
    const run = record(finished, [], { interrupted: true, tallies: { passed: finished.length, failed: 0, notEvaluated: 0, errored: 0 } });
    await stream.finish(run);
    expect(await readFile(target, 'utf8')).toBe(serializeRecord(run));
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it('an item the record holds as another object than the one that finished is written as the record holds it', async () => {
    const dir = await folder();
    const target = join(dir, 'results.json');
    const fixtures = Array.from({ length: N }, (_, i) => fixture(i));
    const stream = openRecordStream(target);
    fixtures.forEach((f, i) => stream.item('fixture', i, f));
    const replaced = fixtures.map((f, i) => (i === 5 ? ({ ...f, verdict: 'fail', detail: 'replaced' } as FixtureRecord) : f));
    const run = record(replaced, []);
    await stream.finish(run);
    expect(await readFile(target, 'utf8')).toBe(serializeRecord(run));
  });

  it('a run with no items, a small run (nothing spooled) and a record without a personas list', async () => {
    const dir = await folder();
    for (const [name, run] of [
      ['empty.json', record([], [])],
      ['small.json', record([fixture(1), fixture(2)], [persona(1)])],
      ['bare.json', { schemaVersion: 1, fixtures: [] } as unknown as RunRecord],
    ] as const) {
      const stream = openRecordStream(join(dir, name));
      run.fixtures.forEach((f, i) => stream.item('fixture', i, f));
      await stream.finish(run);
      expect(await readFile(join(dir, name), 'utf8')).toBe(serializeRecord(run));
    }
    expect((await readdir(dir)).sort()).toEqual(['bare.json', 'empty.json', 'small.json']);
  });

  it('a folder that cannot be created: the error names the target and the fix, the record is in the temporary folder, nothing is left next to the target', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'not-a-folder'), 'a file\n');
    const target = join(dir, 'not-a-folder', 'results.json');
    const fixtures = Array.from({ length: N }, (_, i) => fixture(i));
    const stream = openRecordStream(target);
    fixtures.forEach((f, i) => stream.item('fixture', i, f));
    const run = record(fixtures, []);
    const error = await stream.finish(run).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RecordWriteError);
    const failure = error as RecordWriteError;
    if (failure.fallback !== null) made.push(dirname(failure.fallback));
    expect(failure.message).toContain(`could not write the results to ${target}`);
    expect(failure.message).toContain(`${join(dir, 'not-a-folder')} is a file, not a folder (EEXIST`);
    expect(failure.message).toMatch(/the record was written to .*agent-replay-results-[^/]*\/results\.json instead/);
    expect(failure.message).toMatch(/--out/);
    expect(failure.fallback?.startsWith(tmpdir())).toBe(true);
    expect(await readFile(failure.fallback as string, 'utf8')).toBe(serializeRecord(run));
    expect(await readdir(dir)).toEqual(['not-a-folder']);
  });

  it('a path with a line break and an escape sequence: the error names it on one line, each shown (the CLI\'s line, the Action\'s failure annotation)', async () => {
    const dir = await folder();
    const blocked = 'blocked\nx\u001b[2J';
    await writeFile(join(dir, blocked), 'a file\n');
    const stream = openRecordStream(join(dir, blocked, 'results.json'));
    const error = await stream.finish(record([fixture(1)], [])).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RecordWriteError);
    const failure = error as RecordWriteError;
    if (failure.fallback !== null) made.push(dirname(failure.fallback));
    const shown = join(dir, 'blocked ⏎ x\\u001b[2J');
    expect(failure.message).toContain(`could not write the results to ${join(shown, 'results.json')}: ${shown} is a file, not a folder (EEXIST`);
    // eslint-disable-next-line no-control-regex
    expect(failure.message).not.toMatch(/[\u0000-\u001f]/);
    // The real paths stay as they are, for the code that writes elsewhere.
    expect(failure.target).toBe(join(dir, blocked, 'results.json'));
  });

  it('discard: the run did not happen, nothing is written and no temporary file is left', async () => {
    const dir = await folder();
    const target = join(dir, 'results.json');
    const stream = openRecordStream(target);
    Array.from({ length: N }, (_, i) => fixture(i)).forEach((f, i) => stream.item('fixture', i, f));
    await stream.discard();
    expect(existsSync(target)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('writeRecordFile', () => {
  it('writes serializeRecord(record) in pieces', async () => {
    const dir = await folder();
    const run = record(
      Array.from({ length: N }, (_, i) => fixture(i)),
      Array.from({ length: 3 }, (_, i) => persona(i)),
    );
    await writeRecordFile(join(dir, 'r.json'), run);
    expect(await readFile(join(dir, 'r.json'), 'utf8')).toBe(serializeRecord(run));
    expect(await readdir(dir)).toEqual(['r.json']);
  });
});
