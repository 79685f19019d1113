// The welcome turn's mistyped reply path, end to end through the real CLI (docs/presets.md, "Any
// JSON API"): `run` says it once on stderr with the line of config.yml, and the keys the agent's
// answer had are data: a control character in one is shown escaped, never sent to the terminal.
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

describe('a welcome answer with nothing at agent.start.response.reply', () => {
  it('is one warning on stderr naming the line, the path and the keys, escaped for the terminal', async () => {
    const server = await serve((req) => {
      const body = (req.json ?? {}) as { hello?: boolean };
      if (body.hello === true) return { json: { greeting: 'Welcome!', 'x\u001b[31m': 1 } };
      return { json: { reply: 'done', route: null, offTrack: [] } };
    });
    const start = '  start:\n    body: { session: "{{session}}", hello: true }\n    response: { reply: greting }\n';
    const cwd = await makeProject({ config: agentConfig(server.url, start), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n  - { label: b, message: ho }\n' } });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: welcome turn'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('response has no string at "greting" (found nothing; the response is an object (keys: greeting, x\\u001b[31m); its text may be at "greeting"); agent.start.response.reply is set at .agent-replay/config.yml:7.');
    expect(r.stderr).not.toContain('\u001b[31m');
    // probe, where a config is tried first, says it too.
    const probe = await cli(['probe', 'hi'], cwd);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stderr.split('\n').filter((l) => l.startsWith('warning: welcome turn: response has no string at "greting"'))).toHaveLength(1);
    expect(probe.stderr).toContain('x\\u001b[31m');
    expect(probe.stderr + probe.stdout).not.toContain('\u001b[31m');
  });
});
