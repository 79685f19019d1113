// The keys of an agent's JSON an error lists ("(keys: a, b)": tool-calls.ts, keysText) are the
// agent's text: each is bounded as any quoted text of a message is (assertions/format.ts, line), and
// the list to its first eight, with how many more, so that a 5,000-character key or ten thousand
// keys do not go whole into the error results.json keeps (docs/security.md, "Agent text is data").
import { describe, expect, it } from 'vitest';
import { NATIVE_MAPPING } from '../../src/config.js';
import { describeShape } from '../../src/agent/tool-calls.js';
import { mapResponse, readToolCalls } from '../../src/agent/response.js';
import { decodeMastra } from '../../src/agent/decode.js';
import { decodeEventStream } from '../../src/agent/stream.js';
import { readUsage } from '../../src/agent/usage.js';

const LONG = 'k'.repeat(5000);
/** An error of at most `max` characters that names the key by its first characters and no more. */
const expectBounded = (error: string, max: number): void => {
  expect(error.length).toBeLessThanOrEqual(max);
  expect(error).toContain(`${'k'.repeat(60)}…`);
  expect(error).not.toContain('k'.repeat(61));
};

describe("an answer's keys listed in an error", () => {
  it('a 5,000-character key is cut to 60 characters and an ellipsis', () => {
    expect(describeShape({ [LONG]: 1, b: 2 })).toBe(`an object (keys: ${'k'.repeat(60)}…, b)`);
  });

  it('past eight keys, the list says how many more', () => {
    const many = Object.fromEntries(Array.from({ length: 10_008 }, (_, i) => [`key${i}`, i]));
    expect(describeShape(many)).toBe('an object (keys: key0, key1, key2, key3, key4, key5, key6, key7 and 10,000 more)');
    expect(describeShape(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i])))).toBe('an object (keys: k0, k1, k2, k3, k4, k5, k6, k7 and 1 more)');
    expect(describeShape(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i])))).toBe('an object (keys: k0, k1, k2, k3, k4, k5, k6, k7)');
  });

  it('a key with a line break stays on the error\'s line', () => {
    expect(describeShape({ 'a\nb\r\nc': 1 })).toBe('an object (keys: a b c)');
  });

  it('the error of a missing reply, as results.json keeps it, is bounded', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${LONG}${i}`, i]));
    const read = mapResponse(many, NATIVE_MAPPING);
    expect(read.ok).toBe(false);
    expectBounded(read.ok ? '' : read.error, 700);
    expect(read.ok ? '' : read.error).toContain(' and 12 more)');
  });

  it('the error of an item that is not a tool call is bounded', () => {
    const read = readToolCalls({ toolCalls: [{ type: 'surprise', [LONG]: 1 }] }, NATIVE_MAPPING);
    expectBounded(read.ok ? '' : read.error, 1200);
  });

  it("a Mastra answer with neither text nor tool calls: its keys bounded the same way", () => {
    const read = decodeMastra({ [LONG]: 1, ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i])) });
    expect(read.ok ? '' : read.error).toBe(`response is not a Mastra generate result: no "text" and no "toolCalls" (keys: ${'k'.repeat(60)}…, k0, k1, k2, k3, k4, k5, k6 and 2 more)`);
    const one = decodeMastra({ [LONG]: 1 });
    expectBounded(one.ok ? '' : one.error, 200);
  });

  // A stream's events named in its error ("3 events: a, b, c"): an event's type, its event: name and
  // its keys are the agent's text, bounded the same way.
  it("a stream's events named in its error: each type, event name and key bounded", () => {
    const text = [`data: ${JSON.stringify({ type: LONG })}\n\n`, `event: ${'e'.repeat(5000)}\ndata: {"x":1}\n\n`, `data: ${JSON.stringify({ [`${LONG}1`]: 1, b: 2 })}\n\n`].join('');
    const read = decodeEventStream(text);
    const error = read.ok ? '' : read.error;
    expect(error).toBe(`no reply text and no tool call could be read from the stream (JSON events of no known format, 3 events: ${'k'.repeat(60)}…, ${'e'.repeat(60)}…, {${'k'.repeat(60)}…, b}): set agent.response.reply in config.yml to the path of the text in each event`);
  });

  it('a usage of a shape not read: its keys bounded, and how many more', () => {
    const many = { [LONG]: 1, ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, i])) };
    expect(readUsage(many)).toEqual({ kind: 'malformed', found: `an object with ${'k'.repeat(60)}…, t0, t1, t2, t3, t4, t5, t6 and 3 more` });
  });
});
