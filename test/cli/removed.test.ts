// A fixture deleted (or renamed without its baseline) in a pull request: its accepted baseline has
// no item now. The run says so in results.json (`removed`), in the headline and a section of the
// comment, and in the terminal (docs/action.md, "The PR comment", "Removed"), so that deleting a failing fixture
// never reads as a suite that passed; a merge of shard records says it once.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

const FIXTURES = {
  'f.yml': 'fixtures:\n' + ['hours', 'refund', 'shipping'].map((l) => `  - { label: ${l}, message: "${l}?", assert: { contains: "echo" } }\n`).join(''),
};

describe('baselines whose fixture is gone', () => {
  it('are named in results.json, the headline, the comment, report.html and the terminal; a run without any says nothing', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: FIXTURES });
    expect((await cli(['run'], cwd)).code).toBe(0);
    expect((await cli(['accept'], cwd)).code).toBe(0);
    const before = await cli(['run', '--markdown', 'before.md'], cwd);
    expect(before.stdout).toContain('agent-replay: No regressions: 3 unchanged\n');
    expect((await readResults(join(cwd, '.agent-replay/results/results.json'))).removed).toBeUndefined();
    expect(await readFile(join(cwd, 'before.md'), 'utf8')).not.toContain('Removed');

    // The pull request deletes the failing-to-be fixture "shipping" and renames "refund".
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(cwd, '.agent-replay/fixtures/f.yml'), 'fixtures:\n  - { label: hours, message: "hours?", assert: { contains: "echo" } }\n  - { label: refunds, message: "refund?", assert: { contains: "echo" } }\n');
    const after = await cli(['run', '--markdown', 'after.md', '--out', 'after.json', '--html', 'after.html'], cwd);
    expect(after.code).toBe(0);
    const record = await readResults(join(cwd, 'after.json'));
    expect(record.removed).toEqual([
      { label: 'refund', kind: 'fixture', file: '.agent-replay/baselines/refund.json' },
      { label: 'shipping', kind: 'fixture', file: '.agent-replay/baselines/shipping.json' },
    ]);
    // Not "No regressions": something the baselines held is no longer replayed.
    expect(after.stdout).toContain('agent-replay: No new failures: 1 new · 1 unchanged · 2 removed\n');
    expect(after.stdout).toContain('\nRemoved (2): refund, shipping: baselines whose fixture or persona script is not in the suite now; nothing was replayed for them\n');
    const md = await readFile(join(cwd, 'after.md'), 'utf8');
    expect(md).toContain('No new failures: 1 new · 1 unchanged · 2 removed');
    expect(md).toContain('#### 🗑️ Removed (2)\n\n');
    expect(md).toContain('- `refund` (fixture): `.agent-replay/baselines/refund.json`\n- `shipping` (fixture): `.agent-replay/baselines/shipping.json`\n');

    const html = await readFile(join(cwd, 'after.html'), 'utf8');
    expect(html).toContain('No new failures: 1 new · 1 unchanged · 2 removed');
    expect(html).toContain('<p class="notice">Removed (2): refund (.agent-replay/baselines/refund.json), shipping (.agent-replay/baselines/shipping.json): accepted baselines');

    // Two shards of that suite each name the removed baselines; their merge says them once.
    expect((await cli(['run', '--shard', '1/2', '--out', 's1.json'], cwd)).code).toBe(0);
    expect((await cli(['run', '--shard', '2/2', '--out', 's2.json'], cwd)).code).toBe(0);
    const merged = await cli(['report', '--results', 's1.json', '--results', 's2.json', '--out', 'merged.json'], cwd);
    expect(merged.code).toBe(0);
    expect((await readResults(join(cwd, 'merged.json'))).removed?.map((b) => b.label)).toEqual(['refund', 'shipping']);
    expect(merged.stdout).toContain('2 removed');
  });
});
