import { describe, expect, it } from 'vitest';
import { NATIVE_MAPPING, OPENAI_CHAT_MAPPING } from '../../src/config.js';
import type { AgentMapping } from '../../src/config.js';
import {
  backoffDelay,
  buildHeaders,
  MAX_RETRY_AFTER_MS,
  mapResponse,
  parseRetryAfter,
  readPath,
  renderTemplate,
  snippet,
} from '../../src/agent/index.js';
import { mapPersonaFields } from '../../src/agent/response.js';

const values = { session: 's-1', message: 'Can I get my money back?', persona: null, model: 'gpt-4o-mini' };

describe('renderTemplate', () => {
  it('replaces exact placeholders by raw values, keeping a null persona null', () => {
    expect(renderTemplate(NATIVE_MAPPING.body, values)).toEqual({ session: 's-1', message: 'Can I get my money back?', persona: null });
    expect(renderTemplate('{{persona}}', { ...values, persona: 'vip' })).toBe('vip');
    expect(renderTemplate('{{ model }}', values)).toBe('gpt-4o-mini');
    expect(renderTemplate('{{model}}', { ...values, model: null })).toBeNull();
  });

  it('interpolates placeholders inside longer strings, null as empty', () => {
    expect(renderTemplate('[{{persona}}] {{message}} ({{session}})', values)).toBe('[] Can I get my money back? (s-1)');
    expect(renderTemplate('{{session}}{{session}}', values)).toBe('s-1s-1');
  });

  it('walks arrays and objects, leaves keys, other scalars and unknown placeholders alone, and does not mutate', () => {
    const template = OPENAI_CHAT_MAPPING.body;
    const before = JSON.stringify(template);
    expect(renderTemplate(template, values)).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Can I get my money back?' }],
      temperature: 0,
    });
    expect(JSON.stringify(template)).toBe(before);
    expect(renderTemplate({ '{{session}}': [1, true, null, '{{other}}'] }, values)).toEqual({ '{{session}}': [1, true, null, '{{other}}'] });
  });

  it('does not re-expand placeholders that appear in the values', () => {
    expect(renderTemplate('{{message}} {{session}}', { ...values, message: '{{session}}' })).toBe('{{session}} s-1');
  });
});

describe('readPath', () => {
  const json = { choices: [{ message: { content: 'hi' } }], route: { stage: 'a' }, 'a.b': 1 };
  it.each([
    ['choices.0.message.content', 'hi'],
    ['route.stage', 'a'],
    ['choices.1.message', undefined],
    ['choices.x', undefined],
    ['route.stage.length', undefined],
    ['constructor', undefined],
    ['missing.deep', undefined],
  ])('%s -> %j', (path, expected) => {
    expect(readPath(json, path)).toBe(expected);
  });

  it('indexes a top-level array and returns the root for the empty path', () => {
    expect(readPath([{ text: 'x' }], '0.text')).toBe('x');
    expect(readPath('root', '')).toBe('root');
  });
});

describe('mapResponse', () => {
  it('maps the native protocol', () => {
    const result = mapResponse({ reply: 'ok', route: { conversation: 'refunds', stage: 'policy' }, offTrack: ['x'], ended: true }, NATIVE_MAPPING);
    expect(result).toEqual({ ok: true, turn: { reply: 'ok', route: { conversation: 'refunds', stage: 'policy' }, offTrack: ['x'], ended: true } });
  });

  it('defaults route, ended and offTrack when absent or of the wrong type', () => {
    expect(mapResponse({ reply: 'ok', route: { conversation: 'c', stage: 3 }, offTrack: 'no', ended: 'yes' }, NATIVE_MAPPING)).toEqual({
      ok: true,
      turn: { reply: 'ok', route: null, offTrack: [], ended: false },
    });
    const routeless: AgentMapping = { ...NATIVE_MAPPING, stage: null };
    expect(mapResponse({ reply: 'ok', route: { conversation: 'c', stage: 's' } }, routeless)).toMatchObject({ turn: { route: null } });
  });

  it('names the path and what was found when there is no string reply', () => {
    expect(mapResponse({}, NATIVE_MAPPING)).toEqual({ ok: false, error: 'response has no string at "reply" (found nothing; the response is an object (keys: none))' });
    expect(mapResponse({ reply: 42 }, NATIVE_MAPPING)).toEqual({ ok: false, error: 'response has no string at "reply" (found number 42; the response is an object (keys: reply))' });
    expect(mapResponse({ choices: [] }, OPENAI_CHAT_MAPPING)).toEqual({
      ok: false,
      error: 'response has no string at "choices.0.message.content" (found nothing: "choices" is an array of 0, with no "0"; the response is an object (keys: choices))',
    });
    // A path of one's own that stops part way: the last part there and what it holds, not only the top keys.
    const own: AgentMapping = { ...NATIVE_MAPPING, reply: 'data.text' };
    expect(mapResponse({ data: { answer: 'hi' } }, own)).toEqual({
      ok: false,
      error: 'response has no string at "data.text" (found nothing: "data" is an object (keys: answer), with no "text"; the response is an object (keys: data); its text may be at "data.answer")',
    });
    expect(mapResponse({ data: 'hi' }, own)).toMatchObject({ error: expect.stringContaining('(found nothing: "data" is a string, with no "text";') });
    expect(mapResponse({ other: 1 }, own)).toMatchObject({ error: expect.stringContaining('(found nothing; the response is an object (keys: other))') });
    expect(mapResponse({ reply: null }, NATIVE_MAPPING)).toMatchObject({ error: expect.stringContaining('(found null;') });
  });
});

describe('mapPersonaFields: JSON nesting too deep to keep', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
  const within = JSON.parse(`${'['.repeat(256)}${']'.repeat(256)}`) as unknown;

  it('an error entry or an off-track signal nesting 100,000 levels is an invalid response naming it; 256 levels are read', () => {
    // They were kept as they came, and the record's recursive readers ran out of stack ("agent client failed: Maximum call stack size exceeded").
    expect(mapPersonaFields({ reply: 'ok', errors: ['fine', deep] }, NATIVE_MAPPING)).toEqual({ ok: false, error: '"errors.1" nests deeper than 256 levels of lists and objects' });
    expect(mapPersonaFields({ reply: 'ok', offTrack: [{ signal: 'x' }, deep] }, NATIVE_MAPPING)).toEqual({ ok: false, error: '"offTrack.1" nests deeper than 256 levels of lists and objects' });
    const read = mapPersonaFields({ reply: 'ok', errors: [within], offTrack: [within] }, NATIVE_MAPPING);
    expect(read).toMatchObject({ ok: true, fields: { errors: [{ kind: 'error', tool: null, message: JSON.stringify(within) }] } });
  });
});

describe('backoff and Retry-After', () => {
  it('uses full jitter over an exponentially growing ceiling', () => {
    expect(backoffDelay(0, 250, () => 0.5)).toBe(125);
    expect(backoffDelay(2, 250, () => 0.5)).toBe(500);
    expect(backoffDelay(3, 250, () => 0)).toBe(0);
    expect(backoffDelay(20, 250, () => 0.999)).toBeLessThanOrEqual(30_000);
  });

  it('parses seconds and HTTP dates, capped, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(['0'], now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('3600', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('headers and snippets', () => {
  it('adds JSON headers that configured headers override case-insensitively', () => {
    expect(buildHeaders({ Authorization: 'Bearer t', 'Content-Type': 'application/vnd.api+json' })).toEqual({
      accept: 'application/json',
      'user-agent': 'agent-replay',
      Authorization: 'Bearer t',
      'Content-Type': 'application/vnd.api+json',
    });
  });

  it('collapses whitespace and keeps at most 200 characters', () => {
    expect(snippet('  a\n\n b  ')).toBe('a b');
    expect(snippet('')).toBe('(empty body)');
    const long = snippet('x'.repeat(1000));
    expect(long.length).toBe(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('a missing reply names where the answer holds its text (docs/troubleshooting.md, "The agent")', () => {
  it('the likeliest reply string: text with a space, then a word, never an id, a time, an address or an error', () => {
    const at = (json: unknown): string => (mapResponse(json, NATIVE_MAPPING) as { error: string }).error;
    expect(at({ message: 'Refunds take 30 days.', id: 'x1' })).toBe('response has no string at "reply" (found nothing; the response is an object (keys: message, id); its text may be at "message")');
    expect(at({ id: '0b6f3d6e-0b9a-4c8e-9d1a-2f3b4c5d6e7f', output: 'hello', created: '2026-12-06T10:00:00Z', link: 'https://example.com/a' })).toContain('; its text may be at "output")');
    expect(at({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Returns within 30 days.' }] })).toContain('; its text may be at "messages.1.content")');
    // An error the answer carries is no reply; nor is a key a dotted path cannot name; nothing to name: said as before.
    expect(at({ error: { message: 'Invalid model name given' } })).toBe('response has no string at "reply" (found nothing; the response is an object (keys: error))');
    expect(at({ 'a.b': 'some text here' })).not.toContain('its text may be at');
    expect(at({ count: 3 })).toBe('response has no string at "reply" (found nothing; the response is an object (keys: count))');
    // Something at the path, of another kind: what was found is the message, no guess.
    expect(at({ reply: 42, text: 'Refunds take 30 days.' })).toBe('response has no string at "reply" (found number 42; the response is an object (keys: reply, text))');
  });
});
