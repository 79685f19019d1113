// Token usage through `agent-replay run` (docs/latency.md, "Usage"), in process: an
// OpenAI-compatible agent on 127.0.0.1 that reports `usage` on some replies, a malformed one on
// another. results.json records them, the terminal and the markdown report show the tokens beside
// the estimate, and the malformed usage costs one warning on stderr, never an error.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

describe('run: tokens reported', () => {
  it('records usage per fixture and run, shows it on every surface, and warns once for a malformed usage', async () => {
    const agent = await serve((req) => {
      const last = ((req.json as { messages: { content: string }[] }).messages.at(-1)?.content ?? '').trim();
      const usage: Record<string, unknown> = {
        refund: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 },
        hours: { prompt_tokens: 800, completion_tokens: 100, total_tokens: 900 },
        broken: { prompt_tokens: '800', completion_tokens: 100 },
        other: { prompt_tokens: -5, completion_tokens: 1 },
      };
      return { json: { choices: [{ message: { role: 'assistant', content: `You said ${last}` }, finish_reason: 'stop' }], ...(last in usage ? { usage: usage[last] } : {}) } };
    });
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  preset: openai-chat\n  model: m\n  retries: 0\n  backoffMs: 0\n`,
      fixtures: {
        'all.yml':
          'fixtures:\n  - { label: refund, message: refund, assert: { contains: said } }\n  - { label: hours, message: hours }\n' +
          '  - { label: broken, message: broken }\n  - { label: other, message: other }\n  - { label: quiet, message: quiet }\n',
      },
    });
    const r = await cli(['run', '--out', 'out/results.json', '--markdown', 'out/report.md', '--concurrency', '1'], cwd);
    expect(r.code).toBe(0);
    const record = await readResults(join(cwd, 'out/results.json'));
    expect(record.fixtures.map((f) => [f.label, f.errored, f.usage])).toEqual([
      ['refund', false, { inputTokens: 1200, outputTokens: 300 }],
      ['hours', false, { inputTokens: 800, outputTokens: 100 }],
      ['broken', false, null],
      ['other', false, null],
      ['quiet', false, null],
    ]);
    expect(record.usage).toEqual({ inputTokens: 2000, outputTokens: 400 });
    // Two malformed usages, one warning, naming what it found and where to look.
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('token usage in a shape agent-replay does not read (found an object with prompt_tokens, completion_tokens)');
    expect(r.stdout).toContain('tokens reported: 2.4k (2k in, 400 out)');
    expect(await readFile(join(cwd, 'out/report.md'), 'utf8')).toContain('tokens reported: 2.4k (2k in, 400 out)');
  });
});
