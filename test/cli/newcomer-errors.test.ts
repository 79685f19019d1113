// What a newcomer meets before the first run: no suite yet, init run from a subfolder of the
// repository, an agent URL written without its scheme. Each message names the fix that applies
// (docs/troubleshooting.md, docs/cli.md "init").

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { agentConfig, cli, makeProject, serve, useCleanup, type CliRun } from './helpers.js';

useCleanup();

describe('a folder without a suite', () => {
  it('validate and run name init, the --dir flag and the Action (dir input, actions/checkout) as fixes', async () => {
    const cwd = await tempDir('agent-replay-nosuite-');
    for (const argv of [['validate'], ['run', '--agent-url', 'http://127.0.0.1:9/api/chat']]) {
      const r = await cli(argv, cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain('.agent-replay/fixtures: no fixtures folder: .agent-replay/fixtures does not exist');
      expect(r.stderr).toContain('npx agent-replay init');
      expect(r.stderr).toContain('point --dir (the dir input in the Action) at your suite folder');
      expect(r.stderr).toContain('actions/checkout');
    }
  });

  it('a suite folder without fixtures: no init advice (the suite is there), the --dir flag and the dir input', async () => {
    const cwd = await tempDir('agent-replay-nofixtures-');
    await mkdir(join(cwd, '.agent-replay'));
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('point --dir (the dir input in the Action) at your suite folder');
    expect(r.stderr).not.toContain('agent-replay init');
  });
});

describe('a command run from a subfolder of the repository (cd src && npx agent-replay run)', () => {
  it('validate, run, probe, calibrate and accept say the suite is in a parent folder, with the fix; nothing is read or sent', async () => {
    const agent = await serve();
    const root = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    await mkdir(join(root, '.git'));
    const sub = join(root, 'src', 'lib');
    await mkdir(sub, { recursive: true });
    const commands = [['validate'], ['run'], ['probe', 'hello'], ['calibrate'], ['accept']];
    for (const argv of commands) {
      const r = await cli(argv, sub);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(`error: .agent-replay: no suite folder here (${sub}), but a parent folder holds one: ../../.agent-replay; it was not read\n  fix: run from ${root} (cd ../..), where .agent-replay is, or give --dir ../../.agent-replay (the dir input in the Action)`);
      expect(r.stderr).not.toContain('agent-replay init');
      expect(r.stderr).not.toContain('no run to accept');
    }
    expect(agent.requests.length).toBe(0);
    const given = await cli(['validate', '--dir', '../../.agent-replay'], sub);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain('../../.agent-replay: 1 fixture');
  });

  it('--dir given relative is looked for above too; outside git, up to the file system root', async () => {
    const top = await tempDir('agent-replay-nogit-');
    await mkdir(join(top, 'suite', 'fixtures'), { recursive: true });
    const sub = join(top, 'a', 'b');
    await mkdir(sub, { recursive: true });
    const r = await cli(['validate', '--dir', 'suite'], sub);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: suite: no suite folder here (${sub}), but a parent folder holds one: ../../suite; it was not read`);
    expect(r.stderr).toContain('or give --dir ../../suite');
  });

  it('not above the root of the repository: a suite outside it is not the repository\'s', async () => {
    const outer = await tempDir('agent-replay-outer-');
    await mkdir(join(outer, '.agent-replay', 'fixtures'), { recursive: true });
    const repo = join(outer, 'repo');
    await mkdir(join(repo, '.git'), { recursive: true });
    await mkdir(join(repo, 'src'));
    for (const cwd of [repo, join(repo, 'src')]) {
      const r = await cli(['validate'], cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('.agent-replay/fixtures: no fixtures folder');
      expect(r.stderr).not.toContain('parent folder');
    }
  });
});

describe('--dir naming a file', () => {
  it('says the path is a file and that --dir takes the suite folder, naming the folder the file is in; nothing is sent', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: x\nmessage: q\n' } });
    expect((await cli(['run', '--out', 'r.json'], cwd)).code).toBe(0);
    const sent = agent.requests.length;
    const cases: [string[], string][] = [
      [['validate', '--dir', '.agent-replay/fixtures/a.yml'], '.agent-replay/fixtures/a.yml'],
      [['run', '--dir', '.agent-replay/config.yml'], '.agent-replay/config.yml'],
      [['accept', '--dir', '.agent-replay/config.yml', '--results', 'r.json'], '.agent-replay/config.yml'],
    ];
    for (const [argv, shown] of cases) {
      const r = await cli(argv, cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`error: ${shown}: a file, not a folder: --dir (the dir input in the Action) takes the suite folder, the one that holds config.yml (or config.yaml) and fixtures/`);
      expect(r.stderr).toContain('fix: point --dir (the dir input) at .agent-replay, the suite folder this file is in');
      expect(r.stderr).not.toContain('does not exist');
    }
    expect(agent.requests.length).toBe(sent);
    await writeFile(join(cwd, 'notes.txt'), 'x');
    const loose = await cli(['validate', '--dir', 'notes.txt'], cwd);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toContain('error: notes.txt: a file, not a folder');
    expect(loose.stderr).toContain('fix: point --dir (the dir input) at the suite folder (default .agent-replay); none yet? npx agent-replay init writes one');
  });
});

describe('--dir written with backslashes (a path typed on Windows) on macOS or Linux', () => {
  it.skipIf(sep !== '/')('says a backslash separates nothing here and gives the folder with slashes; nothing is sent or accepted', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: x\nmessage: q\n' } });
    await mkdir(join(cwd, 'bots'));
    await rename(join(cwd, '.agent-replay'), join(cwd, 'bots', '.agent-replay'));
    for (const argv of [['validate'], ['run'], ['accept', '--results', 'r.json']]) {
      const r = await cli([...argv, '--dir', 'bots\\.agent-replay'], cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(
        "error: bots\\.agent-replay: no folder named 'bots\\.agent-replay' here: on this system a backslash is part of a folder's name, not a separator, and bots/.agent-replay is the suite folder\n  fix: give --dir bots/.agent-replay (the dir input in the Action), with slashes\n",
      );
      expect(r.stderr).not.toContain('no fixtures folder');
    }
    expect(agent.requests.length).toBe(0);
    // A folder that is named with a backslash is read as named.
    await mkdir(join(cwd, 'odd\\name', 'fixtures'), { recursive: true });
    await writeFile(join(cwd, 'odd\\name', 'fixtures', 'a.yml'), 'label: y\nmessage: q\n');
    const named = await cli(['validate', '--dir', 'odd\\name'], cwd);
    expect(named.code, named.stderr).toBe(0);
  });
});

describe('--dir written with backslashes, naming no folder with slashes either', () => {
  it.skipIf(sep !== '/')('says both: no such folder, and a backslash separates nothing here; not a bare "no fixtures folder" under the backslashed name', async () => {
    const cwd = await tempDir('agent-replay-backslash-');
    for (const argv of [['validate'], ['run', '--agent-url', 'http://127.0.0.1:9/api/chat'], ['accept', '--results', 'r.json'], ['calibrate']]) {
      const r = await cli([...argv, '--dir', 'bots\\.agent-replay'], cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(
        "error: bots\\.agent-replay: no folder named 'bots\\.agent-replay' here, nor bots/.agent-replay: on this system a backslash is part of a folder's name, not a separator\n  fix: give --dir the suite folder with slashes, as in bots/.agent-replay (the dir input in the Action); none yet? npx agent-replay init --dir bots/.agent-replay writes one\n",
      );
      expect(r.stderr, argv.join(' ')).not.toContain('no fixtures folder');
    }
    // Without a backslash, a folder that is not there is said as before.
    const plain = await cli(['validate', '--dir', 'bots/.agent-replay'], cwd);
    expect(plain.stderr).toContain('no fixtures folder: bots/.agent-replay/fixtures does not exist');
  });
});

describe('a response.reply path of one\'s own that is not in the answer', () => {
  /** `run` of one fixture against `url`, with agent.response.reply set to data.text at config.yml:6: it fails (exit 1). */
  async function runReadingDataText(url: string): Promise<CliRun> {
    const config = agentConfig(url, '  request: { body: { input: "{{message}}" } }\n  response: { reply: data.text }\n');
    const cwd = await makeProject({ config, fixtures: { 'a.yml': 'label: refund\nmessage: Can I get my money back?\n' } });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(1);
    return r;
  }

  it('names the last part of the path that is there and its keys, so that the path to write shows', async () => {
    const agent = await serve(() => ({ json: { data: { answer: 'Returns within 30 days.' } } }));
    const r = await runReadingDataText(agent.url);
    expect(r.stdout).toContain(
      'message turn: response has no string at "data.text" (found nothing: "data" is an object (keys: answer), with no "text"; the response is an object (keys: data); its text may be at "data.answer"); agent.response.reply is set at .agent-replay/config.yml:6',
    );
    // The cause names the line of config.yml that sets the path, as other configuration messages do.
    expect(r.stdout).toContain('no reply at "data.text" in the agent\'s answers: the answer\'s text may be at "data.answer": change agent.response.reply at .agent-replay/config.yml:6 to data.answer if that is the reply, or check agent.preset');
  });

  it('an NDJSON answer: names the path as written (not the joined "reply" it is read into) and its line', async () => {
    const agent = await serve(() => ({ headers: { 'content-type': 'application/x-ndjson' }, body: '{"data":{"answer":"Returns"}}\n{"data":{"answer":" within 30 days."}}\n' }));
    const r = await runReadingDataText(agent.url);
    expect(r.stdout).toContain(
      'message turn: response has no string at "data.text" on any of its NDJSON lines (the last line is an object (keys: data): "data" is an object (keys: answer), with no "text"; its text may be at "data.answer"); agent.response.reply is set at .agent-replay/config.yml:6',
    );
    // Where the lines' text is, and the line to write, as for a JSON answer.
    expect(r.stdout).toContain('no reply at "data.text" in the agent\'s answers: the answer\'s text may be at "data.answer": change agent.response.reply at .agent-replay/config.yml:6 to data.answer if that is the reply, or check agent.preset');
    expect(r.stdout).not.toContain('no string at "reply"');
  });

  it('an event stream with no text: says the path of config.yml\'s line is not what is read from a stream', async () => {
    const agent = await serve(() => ({ headers: { 'content-type': 'text/event-stream' }, body: 'data: {"type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n' }));
    const r = await runReadingDataText(agent.url);
    expect(r.stdout).toContain(
      'message turn: no reply text and no tool call could be read from the stream (a vercel-ai stream, 2 events: start, finish); agent.response.reply, set at .agent-replay/config.yml:6, is read only on events of no known format, and this stream is read by its format',
    );
  });
});

describe('init from a subfolder of a git repository', () => {
  it('writes the files, and warns that GitHub reads workflows only at the repository root, with the command to run there', async () => {
    const root = await tempDir('agent-replay-monorepo-');
    await mkdir(join(root, '.git'));
    const sub = join(root, 'packages', 'bot');
    await mkdir(sub, { recursive: true });
    const r = await cli(['init'], sub);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('created  .github/workflows/agent-replay.yml');
    expect(r.stderr).toContain(`warning: ${sub} is inside the git repository ${root}`);
    expect(r.stderr).toContain('GitHub runs only the workflows in .github/workflows at the root of the repository');
    expect(r.stderr).toContain('npx agent-replay init --dir packages/bot/.agent-replay');
  });

  it('from a folder whose path has a space: the command to run at the root pastes as one cd and one --dir', async () => {
    const root = join(await tempDir('agent-replay-monorepo-'), 'my repo');
    await mkdir(join(root, '.git'), { recursive: true });
    const sub = join(root, 'packages', 'chat bot');
    await mkdir(sub, { recursive: true });
    const r = await cli(['init'], sub);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`cd '${root}' && npx agent-replay init --dir 'packages/chat bot/.agent-replay'`);
    expect(r.stderr).toContain('set dir: "packages/chat bot/.agent-replay" in agent-replay.yml');
  });

  it("when the root already has another suite's workflows: the warning sends to init at the root, never to move these over them", async () => {
    const root = await tempDir('agent-replay-monorepo-');
    await mkdir(join(root, '.git'));
    expect((await cli(['init'], root)).code).toBe(0);
    const sub = join(root, 'packages', 'bot');
    await mkdir(sub, { recursive: true });
    const r = await cli(['init'], sub);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('npx agent-replay init --dir packages/bot/.agent-replay');
    expect(r.stderr).toContain('(the root already has .github/workflows/agent-replay.yml, .github/workflows/agent-replay-accept.yml, .github/workflows/agent-replay-report.yml: init at the root leaves them as they are and says which steps to add for this suite');
    expect(r.stderr).not.toContain('move the workflow files to');
    // And it does: init at the root, as the warning says.
    const atRoot = await cli(['init', '--dir', 'packages/bot/.agent-replay'], root);
    expect(atRoot.stdout).toContain("add this suite's steps to them, after the steps there");
    expect(atRoot.stdout).toContain('          dir: packages/bot/.agent-replay');
  });

  it('at the root of the repository: no warning', async () => {
    const root = await tempDir('agent-replay-repo-');
    await mkdir(join(root, '.git'));
    const r = await cli(['init'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('an agent URL without its scheme', () => {
  it('--agent-url localhost:3000/api/chat says the scheme is missing and gives the address with http://', async () => {
    const cwd = await makeProject({ fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    const r = await cli(['run', '--agent-url', 'localhost:3000/api/chat'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('agent URL "localhost:3000/api/chat" has no scheme (http:// or https://)');
    expect(r.stderr).toContain('http://localhost:3000/api/chat');
    expect(r.stderr).not.toContain('uses localhost');
  });

  it('agent.url in config.yml: the same, at its line', async () => {
    const cwd = await makeProject({ config: 'agent:\n  url: 127.0.0.1:3000/chat\n', fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agent-replay/config.yml:2:8: agent.url "127.0.0.1:3000/chat" has no scheme (http:// or https://)');
    expect(r.stderr).toContain('http://127.0.0.1:3000/chat');
  });

  it('a host name without the scheme (agent.url, judge.baseUrl, --agent-url): the same, with https://', async () => {
    const fixtures = { 'f.yml': 'label: x\nmessage: q\n' };
    const inFile = await makeProject({ config: 'agent:\n  url: preview.example.com/api/chat\njudge:\n  model: m\n  apiKey: k\n  baseUrl: api.openai.com/v1\n', fixtures });
    const v = await cli(['validate'], inFile);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('.agent-replay/config.yml:2:8: agent.url "preview.example.com/api/chat" has no scheme (http:// or https://): write https://preview.example.com/api/chat');
    expect(v.stderr).toContain('.agent-replay/config.yml:6:12: judge.baseUrl "api.openai.com/v1" has no scheme (http:// or https://): write https://api.openai.com/v1');
    expect(v.stderr).not.toContain('is not a valid URL');
    const flag = await cli(['run', '--agent-url', 'preview.example.com/api/chat'], await makeProject({ fixtures }));
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('agent URL "preview.example.com/api/chat" has no scheme (http:// or https://): write https://preview.example.com/api/chat');
  });
});

describe('run --markdown with a configuration error', () => {
  it('writes the configuration errors the terminal says, the line to write as code, over what an earlier run left; nothing is sent', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    expect((await cli(['run', '--markdown', 'r.md'], cwd)).code).toBe(0);
    const sent = agent.requests.length;
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'b.yml'), 'label: b\nmesage: hi\n');
    const r = await cli(['run', '--markdown', 'r.md'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: .agent-replay/fixtures/b.yml:2:1: fixture "b": unknown key "mesage"');
    expect(r.stdout).toContain(`markdown: ${join(cwd, 'r.md')}`);
    const md = await readFile(join(cwd, 'r.md'), 'utf8');
    expect(md).toContain('## agent-replay: configuration errors');
    expect(md).toContain('**1 configuration error** in the suite. Nothing was sent to the agent and nothing was spent.');
    expect(md).toContain('- `.agent-replay/fixtures/b.yml:2:1`: fixture "b"');
    expect(md).toContain('fix: did you mean "message"? rename the key, so that line 2 reads `message: hi`');
    expect(md).not.toContain('No new failures');
    expect(md).not.toContain('**Suite**');
    expect(agent.requests.length).toBe(sent);
  });

  it('names the suite in another folder of its repository above them, as the Action comments them', async () => {
    const cwd = await tempDir('agent-replay-config-errors-suite-');
    await mkdir(join(cwd, '.git'));
    const dir = 'apps/sales/.agent-replay';
    await mkdir(join(cwd, dir, 'fixtures'), { recursive: true });
    await writeFile(join(cwd, dir, 'fixtures', 'b.yml'), 'label: b\nmesage: hi\n');
    const r = await cli(['run', '--dir', dir, '--agent-url', 'http://127.0.0.1:9/', '--markdown', 'r.md'], cwd);
    expect(r.code, r.stderr).toBe(2);
    const md = await readFile(join(cwd, 'r.md'), 'utf8');
    expect(md).toMatch(/^(?:<!--[^\n]*-->\n)+\*\*Suite\*\* `apps\/sales\/\.agent-replay`\n\n## agent-replay: configuration errors\n/);
  });
});
