// report.html from the CLI: `run --html` and `report --html` write it (and only when asked);
// `demo` writes it next to its results. Real loopback agent, real files.

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, scriptedAgent, serve, useCleanup } from '../cli/helpers.js';
import { mixed } from './fixtures.js';

useCleanup();

describe('report.html from the CLI', () => {
  it('run --html writes the page with every fixture; without --html there is none', async () => {
    const agent = await serve(scriptedAgent({ hello: 'Hello <img src=x onerror=alert(1)>' }));
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: { 'list.yml': 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: "Hello" } }\n  - { label: hours, message: When are you open? }\n' },
    });
    const r = await cli(['run', '--html', 'out/report.html', '--commit', 'c'.repeat(40)], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`html: ${join(cwd, 'out/report.html')}`);
    const html = await readFile(join(cwd, 'out/report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('data-label="greeting"');
    expect(html).toContain('data-label="hours"');
    expect(html).toContain('Hello \\u003cimg src=x onerror=alert(1)\\u003e'); // in the data block, escaped
    expect(html).not.toContain('<img');

    const plain = await cli(['run', '--commit', 'c'.repeat(40)], cwd);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('html:');
    expect(existsSync(join(cwd, 'report.html'))).toBe(false);
  });

  it('report --html renders recorded results without replaying', async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9/unused'), fixtures: {} });
    await writeFile(join(cwd, 'results.json'), JSON.stringify(mixed()));
    const r = await cli(['report', '--results', 'results.json', '--html', 'page.html', '--fail-on', 'none'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(join(cwd, 'page.html'), 'utf8');
    for (const f of mixed().fixtures) expect(html).toContain(`data-label="${f.label}"`);
    // A run of one suite of a monorepo names its folder (its suitePath) under the heading and in the
    // title, as the Action's report.html does; the default folder's is not named.
    await writeFile(join(cwd, 'sales.json'), JSON.stringify({ ...mixed(), suitePath: 'apps/sales/.agent-replay' }));
    await writeFile(join(cwd, 'default.json'), JSON.stringify({ ...mixed(), suitePath: '.agent-replay' }));
    for (const [results, named] of [['sales.json', true], ['default.json', false]] as const) {
      const page = await cli(['report', '--results', results, '--html', 'page.html', '--markdown', 'page.md', '--fail-on', 'none'], cwd);
      expect(page.code, page.stderr).toBe(0);
      const text = await readFile(join(cwd, 'page.html'), 'utf8');
      expect(text.includes('<p class="meta suite">Suite <code>apps/sales/.agent-replay</code></p>'), results).toBe(named);
      expect(/<title>agent-replay · apps\/sales\/\.agent-replay · /.test(text), results).toBe(named);
      expect(text, results).not.toContain('Suite <code>.agent-replay</code>');
      expect((await readFile(join(cwd, 'page.md'), 'utf8')).includes('**Suite** `apps/sales/.agent-replay`'), results).toBe(named);
    }
  });

  it('--html is refused by commands that do not write reports', async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9/unused'), fixtures: {} });
    const r = await cli(['validate', '--html', 'x.html'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--html is not an option of "validate"');
  });
});
