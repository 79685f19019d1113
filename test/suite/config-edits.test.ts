// config.yml's settings a pull request changed (docs/action.md, "The PR comment", "Suite edited"),
// compared by the value each has for the run (a default where it is not written): what changes a
// verdict listed old and new, a credential never shown.

import { describe, expect, it } from 'vitest';
import { configEdits } from '../../src/suite/config-edits.js';

const at = (text: string): { path: string; text: string } => ({ path: '.agent-replay/config.yml', text });

describe('configEdits', () => {
  it('says a credential changed without its value, also one under a key named otherwise and an address that differs only in its query or password', async () => {
    const was = 'agent:\n  url: https://a:one@agent.example/chat?k=1\n  request: { body: { message: "{{message}}", key: sk-live-4f9aC2d8e7b6a5f4 } }\n';
    const now = 'agent:\n  url: https://a:two@agent.example/chat?k=2\n  request: { body: { message: "{{message}}", key: sk-live-9z8y7x6w5v4u3t2s } }\n';
    const edits = await configEdits({ before: at(was), after: at(now) });
    expect(edits).toEqual([
      { file: '.agent-replay/config.yml', setting: 'agent.url', change: 'secret', before: 'set', after: 'set' },
      { file: '.agent-replay/config.yml', setting: 'agent.request.body.key', change: 'secret', before: 'set', after: 'set' },
    ]);
    expect(JSON.stringify(edits)).not.toMatch(/one|two|4f9aC2|9z8y7x/);
  });

  it('lists nothing for settings that change no verdict, and reads config.yaml at the base as config.yml at the head', async () => {
    const edits = await configEdits({ before: { path: '.agent-replay/config.yaml', text: 'agent: { timeoutMs: 100, concurrency: 2 }\ncost: { capUsd: 1 }\nstats: { alpha: 0.05 }\n' }, after: at('agent: { timeoutMs: 900 }\ncost: { capUsd: 9 }\ncoverage: { conversations: [a] }\nstats: { alpha: 0.01 }\n') });
    expect(edits).toEqual([{ file: '.agent-replay/config.yml', setting: 'stats.alpha', change: 'setting', before: '0.05', after: '0.01' }]);
    expect(await configEdits({ before: at('agent: { retries: 0 }\n'), after: at('agent: { retries: 3 }\n') })).toEqual([]);
  });

  it('compares each setting by its value for the run: a default written out is no edit, a side that does not write one reads its default, "not set" only without one', async () => {
    const was = 'judge: { model: gpt-4o, panel: [{ model: a }, { model: b }, { provider: anthropic }] }\nrepeat: { count: 3 }\n';
    const now = [
      'agent: { preset: native, headers: {} }',
      'judge: { model: gpt-4o, provider: openai, baseUrl: https://api.openai.com/v1, apiKey: null, panel: [{ model: a }, { model: b }, { provider: anthropic, model: claude-haiku-4-5 }] }',
      'repeat: { count: 3, minPass: 3 }',
      'stats: { alpha: 0.05 }',
      'latency: { slowerBy: 0.5, minDeltaMs: 300 }',
      'meaning: { threshold: 0.8, model: gpt-4o }', // the meaning judge's model is the judge's
      'simulator: { model: gpt-4o }', // so is the simulated users'
      'personas: { unmockedTools: null }',
      'traces: null', // a section set to null is not given
      '',
    ].join('\n');
    expect(await configEdits({ before: at(was), after: at(now) })).toEqual([]);
    const edits = await configEdits({ before: at('stats: { alpha: 0.05 }\nrepeat: { count: 3, minPass: 2, max: 5 }\n'), after: at('latency: { slowerBy: 0.2 }\nrepeat: { count: 3 }\n') });
    expect(edits).toEqual([
      { file: '.agent-replay/config.yml', setting: 'latency.slowerBy', change: 'setting', before: '0.5', after: '0.2', default: 'before' },
      { file: '.agent-replay/config.yml', setting: 'repeat.minPass', change: 'setting', before: '2', after: '3', default: 'after' },
      { file: '.agent-replay/config.yml', setting: 'repeat.max', change: 'setting', before: '5', after: null },
    ]);
    // Without a judge there is none to default to: its model reads "not set". A null written where
    // there is no default (a path of a preset that decodes its answer: writing one drops the decoding) is shown as written.
    const judged = await configEdits({ before: at('agent: { preset: rasa-rest, response: { conversation: null } }\n'), after: at('agent: { preset: rasa-rest }\njudge: { model: gpt-4o }\n') });
    expect(judged.slice(0, 2)).toEqual([
      { file: '.agent-replay/config.yml', setting: 'judge.model', change: 'setting', before: null, after: '"gpt-4o"' },
      { file: '.agent-replay/config.yml', setting: 'agent.response.conversation', change: 'setting', before: 'null', after: null },
    ]);
    // Then what the judge brings, by default (below).
    expect(judged.slice(2).map((e) => e.setting)).toEqual(['judge.provider', 'judge.baseUrl', 'meaning.check']);
  });

  it("takes the preset's own request body, response paths and streaming as the defaults of agent.request, agent.response and agent.stream", async () => {
    // Written out as the preset has them (openai-chat's streaming body; vercel-ai always streams): no edit.
    const chat = 'agent: { preset: openai-chat, stream: true }\n';
    const chatWritten = 'agent:\n  preset: openai-chat\n  stream: true\n  request: { body: { model: "{{model}}", messages: "{{messages}}", temperature: 0, stream: true, stream_options: { include_usage: true } } }\n  response: { reply: choices.0.message.content, toolCalls: choices.0.message.tool_calls }\n';
    expect(await configEdits({ before: at(chat), after: at(chatWritten) })).toEqual([]);
    expect(await configEdits({ before: at('agent: { preset: vercel-ai }\n'), after: at('agent: { preset: vercel-ai, stream: true }\n') })).toEqual([]);
    // A body of one's own leaves the preset's keys it does not send; a reply path of one's own reads no
    // persona path the native preset does not lend: each said against the preset's.
    const edits = await configEdits({ before: at('agent: { url: "http://127.0.0.1:3000/chat" }\n'), after: at('agent:\n  url: "http://127.0.0.1:3000/chat"\n  request: { body: { session: "{{session}}", message: "{{message}}" } }\n  response: { reply: text }\n') });
    const edit = (setting: string, before: string | null, after: string | null): object => ({ file: '.agent-replay/config.yml', setting, change: 'setting', before, after, default: 'before' });
    expect(edits).toEqual([
      edit('agent.response.reply', '"reply"', '"text"'),
      edit('agent.request.body.persona', '"{{persona}}"', null),
      edit('agent.request.body.mocks', '"{{mocks}}"', null),
      edit('agent.response.toolCalls', '"toolCalls"', null),
      edit('agent.response.outcome', '"outcome"', null),
      edit('agent.response.errors', '"errors"', null),
      // A body of one's own has no welcome turn unless `start` asks for one: the run's differs.
      { file: '.agent-replay/config.yml', setting: 'agent.start', change: 'setting', before: 'true', after: 'false', default: 'both' },
    ]);
    // A preset's stream setting written where it has no other: "false (the default) is now true" only where it is an edit.
    expect(await configEdits({ before: at('agent: { preset: openai-responses }\n'), after: at('agent: { preset: openai-responses, stream: true }\n') })).toEqual([
      { file: '.agent-replay/config.yml', setting: 'agent.stream', change: 'setting', before: 'false', after: 'true', default: 'before' },
    ]);
  });

  it('reads a value the run does not use as not written: a stream the preset overrides, a model, maxTokens or assistantId no body sends', async () => {
    // vercel-ai streams whatever `stream` says: `stream: false` written changes nothing the run does.
    expect(await configEdits({ before: at('agent: { preset: vercel-ai }\n'), after: at('agent: { preset: vercel-ai, stream: false }\n') })).toEqual([]);
    expect(await configEdits({ before: at('agent: { preset: vercel-ai, stream: true }\n'), after: at('agent: { preset: vercel-ai, stream: false }\n') })).toEqual([]);
    // The native body has no {{model}}, rasa-rest's no {{maxTokens}}, openai-chat's no {{assistantId}}: nothing sent changes.
    expect(await configEdits({ before: at('agent: { model: gpt-4o }\n'), after: at('agent: { model: gpt-4o-mini }\n') })).toEqual([]);
    expect(await configEdits({ before: at('agent: { preset: rasa-rest }\n'), after: at('agent: { preset: rasa-rest, maxTokens: 50 }\n') })).toEqual([]);
    expect(await configEdits({ before: at('agent: { preset: openai-chat, model: m }\n'), after: at('agent: { preset: openai-chat, model: m, assistantId: a }\n') })).toEqual([]);
    // Where a body sends it, it is an edit: a preset's body, one of one's own, the welcome turn's.
    const edit = (setting: string, before: string | null, after: string | null): object => ({ file: '.agent-replay/config.yml', setting, change: 'setting', before, after });
    expect(await configEdits({ before: at('agent: { preset: openai-chat, model: gpt-4o }\n'), after: at('agent: { preset: openai-chat, model: gpt-4o-mini }\n') })).toEqual([edit('agent.model', '"gpt-4o"', '"gpt-4o-mini"')]);
    const own = 'agent:\n  request: { body: { message: "{{message}}", model: "{{model}}" } }\n';
    expect(await configEdits({ before: at(`${own}  model: a\n`), after: at(`${own}  model: b\n`) })).toEqual([edit('agent.model', '"a"', '"b"')]);
    const welcome = 'agent:\n  start: { body: { hello: true, model: "{{model}}" } }\n';
    expect(await configEdits({ before: at(`${welcome}  model: a\n`), after: at(`${welcome}  model: b\n`) })).toEqual([edit('agent.model', '"a"', '"b"')]);
  });

  it('says what changed in the values the run uses where neither side writes them: what `judge: {}` brings, the welcome turn a preset has', async () => {
    const edit = (setting: string, before: string | null, after: string | null, byDefault?: 'before' | 'after' | 'both'): object => ({
      file: '.agent-replay/config.yml',
      setting,
      change: 'setting',
      before,
      after,
      ...(byDefault === undefined ? {} : { default: byDefault }),
    });
    const agent = 'agent: { url: "http://127.0.0.1:3000/chat" }\n';
    // A judge added with every default: its provider, address and model, and the meaning check it turns to the judge
    // (the meaning judge and the simulated users take the judge's model: said once, on the judge's lines).
    expect(await configEdits({ before: at(agent), after: at(`${agent}judge: {}\n`) })).toEqual([
      edit('judge.provider', null, '"openai"', 'after'),
      edit('judge.baseUrl', null, '"https://api.openai.com/v1"', 'after'),
      edit('judge.model', null, '"gpt-4o-mini"', 'after'),
      edit('meaning.check', '"facts"', '"judge"', 'both'),
    ]);
    // The judge's model changed: not said again of the meaning judge and the simulated users, which take it.
    expect(await configEdits({ before: at(`${agent}judge: { model: a }\n`), after: at(`${agent}judge: { model: b }\n`) })).toEqual([edit('judge.model', '"a"', '"b"')]);
    // The native preset's welcome turn: `start: true` written is what it does anyway; `start: false` turns it off.
    expect(await configEdits({ before: at(agent), after: at('agent: { url: "http://127.0.0.1:3000/chat", start: true }\n') })).toEqual([]);
    expect(await configEdits({ before: at(agent), after: at('agent: { url: "http://127.0.0.1:3000/chat", start: false }\n') })).toEqual([edit('agent.start', 'true', 'false', 'before')]);
    // Another preset has none: said beside the preset, both sides by default.
    expect(await configEdits({ before: at(agent), after: at('agent: { url: "http://127.0.0.1:3000/chat", preset: rasa-rest }\n') })).toEqual([
      edit('agent.preset', '"native"', '"rasa-rest"', 'before'),
      edit('agent.start', 'true', 'false', 'both'),
    ]);
    // A welcome body of one's own: compared key by key with the preset's.
    expect(await configEdits({ before: at(agent), after: at('agent:\n  url: "http://127.0.0.1:3000/chat"\n  start: { body: { session: "{{session}}", persona: "{{persona}}", start: true, hello: 1 } }\n') })).toEqual([
      edit('agent.start.body.hello', null, '1'),
      edit('agent.start.body.mocks', '"{{mocks}}"', null, 'before'),
    ]);
    // `start: null` is no welcome turn, as `start: false` is (src/suite/config/agent.ts): said as the run reads it, and the same as false.
    expect(await configEdits({ before: at(agent), after: at('agent: { url: "http://127.0.0.1:3000/chat", start: null }\n') })).toEqual([edit('agent.start', 'true', 'false', 'before')]);
    expect(await configEdits({ before: at('agent: { url: "http://127.0.0.1:3000/chat", start: false }\n'), after: at('agent: { url: "http://127.0.0.1:3000/chat", start: null }\n') })).toEqual([]);
    // `headers`, `request` and `response` null are not given: the run sends and reads as without them.
    for (const none of ['headers: null', 'request: null', 'response: null']) {
      expect(await configEdits({ before: at(agent), after: at(`agent: { url: "http://127.0.0.1:3000/chat", ${none} }\n`) })).toEqual([]);
    }
    // The welcome's response paths of one's own: compared with those it reads otherwise, the message turn's (the preset's, or agent.response's).
    expect(await configEdits({ before: at(agent), after: at('agent:\n  url: "http://127.0.0.1:3000/chat"\n  start: { response: { reply: greeting } }\n') })).toEqual([edit('agent.start.response.reply', '"reply"', '"greeting"', 'before')]);
    const own = 'agent:\n  url: "http://127.0.0.1:3000/chat"\n  response: { reply: answer }\n';
    expect(await configEdits({ before: at(own), after: at(`${own}  start: { response: { reply: answer } }\n`) })).toEqual([]);
    expect(await configEdits({ before: at(own), after: at(`${own}  start: { response: { reply: greeting } }\n`) })).toEqual([edit('agent.start.response.reply', '"answer"', '"greeting"', 'before')]);
  });

  it('says a setting whose kind changed (a number now a mapping) once, whole on each side, its addresses cut and its credentials not shown', async () => {
    const was = 'stats: { alpha: 0.05 }\nagent: { url: "https://u:pw-hidden@agent.example/chat" }\njudge: { apiKey: sk-live-4f9aC2d8e7b6a5f4 }\n';
    const now = 'stats: { alpha: { x: 1 } }\nagent: { url: { preview: "https://u:pw-hidden@agent.example/chat" } }\njudge: { apiKey: { value: sk-live-4f9aC2d8e7b6a5f4 } }\n';
    const edits = await configEdits({ before: at(was), after: at(now) });
    expect(edits).toEqual([
      { file: '.agent-replay/config.yml', setting: 'stats.alpha', change: 'setting', before: '0.05', after: '{"x":1}' },
      { file: '.agent-replay/config.yml', setting: 'agent.url', change: 'setting', before: '"https://agent.example/chat"', after: '{"preview":"https://agent.example/chat"}' },
      { file: '.agent-replay/config.yml', setting: 'judge.apiKey', change: 'secret', before: 'set', after: 'set' },
    ]);
    expect(JSON.stringify(edits)).not.toMatch(/hidden|4f9aC2/);
  });

  it('says a side whose text was not given (GitHub gives none over 1 MB) too large to compare, never added or removed', async () => {
    expect(await configEdits({ before: at('judge: { model: gpt-4o }\n'), after: { path: '.agent-replay/config.yml', text: null } })).toEqual([
      { file: '.agent-replay/config.yml', setting: null, change: 'unreadable', before: null, after: 'is over 1 MB (GitHub gives no text of a file that large)' },
    ]);
  });
});
