// A streamed answer of the agent's own JSON (docs/presets.md, "Streamed replies"): with
// `agent.response.reply` in config.yml, each event (an SSE `data:` event, an NDJSON line) is read by
// that path and the strings joined; an event without the path adds nothing; a stream where no event
// has it is a missing reply that names the path and config.yml's line, once. The config is loaded
// from a real config.yml, the agent is a real server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEventStream, watchFirstText } from '../../src/agent/stream.js';
import { configClients } from './config-client.js';

const { clientFor, closeAll } = configClients();
afterEach(closeAll);

const request = { session: 's', message: 'hi', persona: null };
/** Line 4 of config.yml sets the reply path. */
const OWN_PATH = '  request: { body: { input: "{{message}}" } }\n  response: { reply: delta.content, ended: done }\n';
const EVENTS = [{ delta: { content: 'Within ' } }, { meta: { model: 'm' } }, { delta: { content: '30 days.' } }, { done: true, usage: { prompt_tokens: 3, completion_tokens: 4 } }];
const sse = (events: unknown[]): string => `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
const ndjson = (events: unknown[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');

describe('a stream of the agent\'s own JSON, read by agent.response.reply', () => {
  it('SSE: the path read on each event, the strings joined; an event without it adds nothing; the other fields from the last event', async () => {
    const client = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': 'text/event-stream' }, body: sse(EVENTS) }));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', ended: true, usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('NDJSON: the same events as lines read the same', async () => {
    const client = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(EVENTS) }));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', ended: true });
  });

  it('no event with a string at the path: a missing reply naming the path, the last event, where the text is and config.yml\'s line, said once', async () => {
    // The text's path is the likeliest over every event, as a JSON answer's is (the last one here holds only "done").
    const events = [{ delta: { text: 'Within ' } }, { delta: { text: '30 days.' } }, { done: true }];
    for (const [type, body, unit] of [['text/event-stream', sse(events), 'stream events (the last event'], ['application/x-ndjson', ndjson(events), 'NDJSON lines (the last line']] as const) {
      const client = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': type }, body }));
      const turn = await client.converse(request);
      expect(turn).toEqual({
        kind: 'errored',
        errorKind: 'missing_reply',
        answered: 1,
        error: `message turn: response has no string at "delta.content" on any of its ${unit} is an object (keys: done); its text may be at "delta.text"); agent.response.reply is set at .agent-replay/config.yml:4`,
      });
      // Said once: the path and its line are not repeated per event.
      expect(JSON.stringify(turn).split('delta.content').length - 1).toBe(1);
    }
    // No text in any event: nothing is guessed; a path that stops part way in the last event is said as before.
    const bare = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson([{ delta: { n: 1 } }, { delta: { id: 2 } }]) }));
    expect(await bare.converse(request)).toMatchObject({
      error: 'message turn: response has no string at "delta.content" on any of its NDJSON lines (the last line is an object (keys: delta): "delta" is an object (keys: id), with no "content"); agent.response.reply is set at .agent-replay/config.yml:4',
    });
  });

  it('the welcome turn reads its stream by the path it inherits from agent.response.reply', async () => {
    const client = await clientFor(`${OWN_PATH}  start: { body: { start: true } }\n`, () => ({ headers: { 'content-type': 'text/event-stream' }, body: sse([{ delta: { content: 'Hello' } }, { delta: { content: '!' } }]) }));
    expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: 'Hello!' });
  });

  it('without a path of config.yml\'s, such events are skipped and named (the preset\'s path is not read on them); a known format is read by its format', async () => {
    const native = await clientFor('', () => ({ headers: { 'content-type': 'text/event-stream' }, body: sse([{ reply: 'Hi' }]) }));
    expect(await native.converse(request)).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', error: 'message turn: no reply text and no tool call could be read from the stream (JSON events of no known format, 1 event: {reply}): set agent.response.reply in config.yml to the path of the text in each event' });
    // A config.yaml suite's client is told its file (AgentClientDeps.configName): the stored error names it.
    const yamlSuite = await clientFor('', () => ({ headers: { 'content-type': 'text/event-stream' }, body: sse([{ reply: 'Hi' }]) }), { configName: 'config.yaml' });
    expect(await yamlSuite.converse(request)).toMatchObject({ error: 'message turn: no reply text and no tool call could be read from the stream (JSON events of no known format, 1 event: {reply}): set agent.response.reply in config.yaml to the path of the text in each event' });
    const openai = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': 'text/event-stream' }, body: sse([{ choices: [{ delta: { content: 'Hi' } }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }]) }));
    expect(await openai.converse(request)).toMatchObject({ kind: 'replied', reply: 'Hi' });
  });
});

describe('decodeEventStream and watchFirstText with a reply path', () => {
  const path = (event: unknown): unknown => (event as { delta?: { content?: unknown } }).delta?.content;

  it('plain text or an event of a known format first makes the stream theirs; a path is read only on a stream of the agent\'s own JSON', () => {
    expect(decodeEventStream(sse([{ delta: { content: 'a' } }]), path)).toEqual({ ok: true, byPath: { reply: 'a', last: { delta: { content: 'a' } }, toolCalls: undefined }, toolCallsFrom: { items: [] } });
    expect(decodeEventStream('data: plain\n\ndata: {"delta":{"content":"a"}}\n\n', path)).toEqual({ ok: true, value: { reply: 'plain', toolCalls: null } });
    expect(decodeEventStream(sse([{ type: 'text-delta', id: 't', delta: 'b' }, { delta: { content: 'a' } }, { type: 'finish' }]), path)).toEqual({ ok: true, value: { reply: 'b', toolCalls: [] } });
    // Text read by the path first makes the stream the agent's own: a later event of a known format's look is read by the path, and the text is kept.
    expect(decodeEventStream(sse([{ delta: { content: 'a' } }, { type: 'finish' }]), path)).toEqual({ ok: true, byPath: { reply: 'a', last: { type: 'finish' }, toolCalls: undefined }, toolCallsFrom: { items: [] } });
  });

  it('the first token is the first event with text at the path', () => {
    const watch = watchFirstText(path);
    expect(watch.push('data: {"meta":{}}\n\n')).toBe(false);
    expect(watch.push('data: {"delta":{"content":""}}\n\ndata: {"delta":{"con')).toBe(false);
    expect(watch.push('tent":"Hi"}}\n\n')).toBe('text');
    expect(watchFirstText().push('data: {"delta":{"content":"Hi"}}\n\n')).toBe(false);
  });
});
