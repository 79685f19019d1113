// config.yml's settings a pull request changed (docs/action.md, "The PR comment", "Suite edited"),
// compared as written: what changes a verdict listed old and new, a credential never shown.

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
});
