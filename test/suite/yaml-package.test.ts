// The `yaml` package is imported on first need (src/suite/yaml/package.ts, docs/performance.md):
// loading a valid suite never imports it; a suite with a problem to place imports it and is read
// again, with the problem placed as before. The package is imported once per module graph, and test
// files share one (vitest.config.ts, isolate: false): the first test starts a fresh graph.
import { describe, expect, it, vi } from 'vitest';
import { loadSuiteConfig } from '../../src/suite/index.js';
import { C, F, repo } from './helpers.js';

describe('the yaml package, imported when a problem needs it', () => {
  it('a valid suite loads without it; a suite with a misspelt key imports it and places the key', async () => {
    // A module graph of its own, in which no other test file has imported the package yet.
    vi.resetModules();
    const { lazyParses, YamlNotLoaded, yamlPackage } = await import('../../src/suite/yaml/index.js');
    const { brief, load, OK_FIXTURE } = await import('./helpers.js');
    expect(() => yamlPackage()).toThrow(YamlNotLoaded);
    const valid = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(valid.errors).toEqual([]);
    expect(valid.suite?.fixtures.map((f) => f.label)).toEqual(['ok']);
    expect(() => yamlPackage()).toThrow(YamlNotLoaded);
    expect(lazyParses.count).toBe(0);

    const bad = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n', [`${F}/a.yml`]: 'label: ok\nmessage: hi\nmesage: typo\n' });
    expect(brief(bad.errors)).toEqual([expect.stringMatching(/^\.agent-replay\/fixtures\/a\.yml:3: .*mesage/)]);
    expect(bad.errors[0]).toMatchObject({ line: 3, column: 1 });
    expect(typeof yamlPackage().parseDocument).toBe('function');
  });

  it("a refused file's words (syntax.ts) are loaded with the package, also when the package was loaded before the reader", async () => {
    // A list item's "-" with no space: said in our words by syntax.ts, not in the parser's.
    const text = 'fixtures:\n  - label: a\n    message: hi\n  -label: b\n';
    const said = /^invalid YAML: line 4 has no space after its "-"/;
    vi.resetModules();
    const first = await import('../../src/suite/yaml/index.js');
    expect(() => first.readYaml('a.yml', text)).toThrow(first.YamlNotLoaded);
    const read = await first.withYamlPackage(() => first.readYaml('a.yml', text));
    expect(read.errors.map((e) => e.message)).toEqual([expect.stringMatching(said)]);

    // The package loaded in a module graph before the reader was imported: the words load at the next need.
    vi.resetModules();
    const pkg = await import('../../src/suite/yaml/package.js');
    await pkg.loadYamlPackage();
    const late = await import('../../src/suite/yaml/index.js');
    const again = await late.withYamlPackage(() => late.readYaml('a.yml', text));
    expect(again.errors.map((e) => e.message)).toEqual([expect.stringMatching(said)]);
  });

  it('a syntax error in config.yml is worded by the yaml package, through loadSuiteConfig too', async () => {
    const cwd = await repo({ [C]: 'agent:\n  url: "http://127.0.0.1:9/chat\n' });
    const loaded = await loadSuiteConfig({ dir: '.agent-replay', cwd, env: {} });
    expect(loaded.config).toBeNull();
    expect(loaded.errors.length).toBeGreaterThan(0);
    expect(loaded.errors[0]).toMatchObject({ file: '.agent-replay/config.yml', message: expect.stringMatching(/^invalid YAML: /) });
    expect(loaded.errors[0]!.line).not.toBeNull();
  });
});
