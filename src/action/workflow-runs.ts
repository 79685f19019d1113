// What a workflow runs from the repository itself (docs/security.md, "A pull request that edits its
// own check"): the local actions its steps use (`uses: ./tools/replay-action`, `uses: ./` when the
// repository is an action) and the files its `run:` steps run as written (`bash scripts/setup.sh`,
// `node tools/setup.mjs`), each from the repository's root. A pull request that changes one changes
// what runs the check as surely as one that changes the workflow. Read from the text as written: a
// path an expression, a variable or a script builds is not followed. Pure: the reads are suite-edits.ts's.

import { posix } from 'node:path';

/** What a workflow's (or a composite action's) steps name in the repository, each from its root. */
export interface StepsNamed {
  /** The folders of the local actions used (`.` for `uses: ./`). */
  actions: string[];
  /** The relative paths of the files `run:` steps run (runPaths), their `working-directory` applied. */
  paths: string[];
}

/** `${{ github.workspace }}/`, `$GITHUB_WORKSPACE/`, `${GITHUB_WORKSPACE}/`: the repository's root, in a run line. */
const WORKSPACE = /(\$\{\{\s*github\.workspace\s*\}\}|\$\{?GITHUB_WORKSPACE\}?)\//g;
const ROOT_MARK = '\u0000/';

const record = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A path from the root, or null when it leaves the repository or is not a path (an expression, a variable, a pattern). */
function fromRoot(dir: string, path: string): string | null {
  if (path === '' || /[$*?{}\\]/.test(path) || path.startsWith('~')) return null;
  const joined = posix.normalize(path.startsWith('/') ? path.slice(1) : posix.join(dir, path)).replace(/\/+$/, '');
  return joined === '..' || joined.startsWith('../') || joined === '' ? null : joined;
}

/**
 * A working directory (`working-directory`, a `defaults.run` one) from the root, as GitHub takes
 * one: from the workspace, over the one around it (`outer`, when it gives none); `.` when written
 * with an expression.
 */
function workingDirectory(value: unknown, outer: string): string {
  const dir = text(value);
  if (dir === null) return outer;
  return fromRoot('.', dir.replace(WORKSPACE, '/')) ?? '.';
}

/** `${{ github.action_path }}/`, `$GITHUB_ACTION_PATH/`: a composite action's own folder, in its run lines. */
const ACTION_PATH = /(\$\{\{\s*github\.action_path\s*\}\}|\$\{?GITHUB_ACTION_PATH\}?)\//g;

/** Commands that run the file they are given (`bash scripts/x.sh`, `node tools/setup.mjs`, `npx tsx seed.ts`, `source env.sh`). */
const RUNNERS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'source', '.', 'node', 'python', 'python3', 'ruby', 'perl', 'php', 'pwsh', 'powershell', 'deno', 'bun', 'tsx', 'ts-node', 'npx']);
/** Words before a command that run it (`sudo bash x.sh`, `nohup node x.mjs &`). */
const PREFIXES = new Set(['sudo', 'nohup', 'exec', 'time', 'env', 'command', 'xvfb-run']);
/** The end of a file a step runs by its path alone (`./start.sh`, `ci/check.py`). */
const SCRIPT = /\.(sh|bash|zsh|mjs|cjs|js|ts|mts|cts|py|rb|pl|php|ps1)$/i;

/**
 * The commands of a run line, each as its words: split at newlines and `;`, `&`, `|`, `(`, `)`,
 * quotes taken off (a quoted word is one word), a redirection's file and a comment left out.
 */
function commands(script: string): string[][] {
  const all: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: string | null = null;
  let wordStarted = false;
  let redirect = false;
  const endWord = (): void => {
    if (wordStarted) {
      if (!redirect) words.push(word);
      redirect = false;
    }
    word = '';
    wordStarted = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) all.push(words);
    words = [];
    redirect = false;
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      wordStarted = true;
    } else if (ch === '#' && !wordStarted) {
      const eol = script.indexOf('\n', i);
      i = eol < 0 ? script.length : eol - 1;
    } else if (ch === '\n' || ch === ';' || ch === '&' || ch === '|' || ch === '(' || ch === ')' || ch === '`') {
      endCommand();
    } else if (ch === '<' || ch === '>') {
      // `2>&1`, `>> out.log`, `< in.txt`: the file a redirection names is not run, nor is its descriptor a word.
      if (/^\d+$/.test(word)) {
        word = '';
        wordStarted = false;
      }
      endWord();
      while (script[i + 1] === '>' || script[i + 1] === '&') i++;
      redirect = true;
    } else if (ch === ' ' || ch === '\t' || ch === '\r') {
      endWord();
    } else {
      word += ch;
      wordStarted = true;
    }
  }
  endCommand();
  return all;
}

/**
 * The relative paths of the files a run line runs, from the root: a command written as a path
 * (`./start.sh`, `scripts/check.py`), and each argument of a command that runs a file (RUNNERS:
 * `bash scripts/x.sh`, `node --import tsx tools/seed.ts`; an option's value after `=` too).
 * `action`: the folder of the composite action it is a step of.
 */
function runPaths(script: string, dir: string, action: string | null): string[] {
  const rooted = script.replace(WORKSPACE, ROOT_MARK);
  const placed = action === null ? rooted : rooted.replace(ACTION_PATH, action === '.' ? ROOT_MARK : `${ROOT_MARK}${action}/`);
  // Any other expression (`${{ inputs.file }}`) makes its word no path: `$` is never one's.
  const expressionless = placed.replace(/\$\{\{[^}]*\}\}/g, '$');
  const path = (word: string): string | null => {
    if (word.startsWith(ROOT_MARK)) return fromRoot('.', word.slice(ROOT_MARK.length));
    if (word.startsWith('/') || /[()'"=]/.test(word)) return null;
    return fromRoot(dir, word);
  };
  const paths: string[] = [];
  for (const cmd of commands(expressionless)) {
    let i = 0;
    // `NAME=value`, and a prefix with its options (`sudo -E`, `env -i`).
    while (i < cmd.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(cmd[i] as string) || PREFIXES.has(cmd[i] as string) || (i > 0 && PREFIXES.has(cmd[i - 1] as string) && (cmd[i] as string).startsWith('-')))) i++;
    const first = cmd[i];
    if (first === undefined) continue;
    const name = posix.basename(first);
    if (RUNNERS.has(name)) {
      for (const w of cmd.slice(i + 1)) {
        const value = w.startsWith('-') ? (w.includes('=') ? w.slice(w.indexOf('=') + 1) : null) : w;
        const at = value === null ? null : path(value);
        if (at !== null && at !== '.') paths.push(at);
      }
    } else if (first.includes('/') || SCRIPT.test(first)) {
      const at = path(first);
      if (at !== null && at !== '.') paths.push(at);
    }
  }
  return paths;
}

/** What `steps` name: their local actions and run paths; `dir`, the working directory they run in; `action`, the composite action's folder they are of. */
export function stepsNamed(steps: unknown, dir: string, into: StepsNamed, action: string | null = null): void {
  if (!Array.isArray(steps)) return;
  for (const s of steps) {
    const step = record(s);
    if (step === null) continue;
    const uses = text(step.uses);
    if (uses !== null && (uses === '.' || uses.startsWith('./'))) {
      const at = uses === '.' || uses === './' ? '.' : fromRoot('.', uses);
      if (at !== null) into.actions.push(at);
    }
    const run = text(step.run);
    if (run !== null) into.paths.push(...runPaths(run, workingDirectory(step['working-directory'], dir), action));
  }
}

/** What a workflow (its values, as YAML reads them) names: each job's steps, `defaults.run.working-directory` applied. */
export function workflowNamed(data: unknown): StepsNamed {
  const named: StepsNamed = { actions: [], paths: [] };
  const wf = record(data);
  if (wf === null) return named;
  const wfDir = workingDirectory(record(record(wf.defaults)?.run)?.['working-directory'], '.');
  for (const j of Object.values(record(wf.jobs) ?? {})) {
    const job = record(j);
    if (job === null) continue;
    stepsNamed(job.steps, workingDirectory(record(record(job.defaults)?.run)?.['working-directory'], wfDir), named);
  }
  return named;
}

/**
 * What runs of a local action at `dir` (its action.yml's values): the folders whose files it runs.
 * A JavaScript action (`using: node20`) runs its `main`, `pre` and `post`: their folders (`dist/`
 * for `main: dist/index.js`); any other (composite, Docker) its whole folder, but for a composite
 * action at the root, whose folder is every file: none. A composite action's steps name more
 * (`into`), from the root as a workflow's do (`${{ github.action_path }}/` from its folder).
 */
export function actionFolders(dir: string, data: unknown, into: StepsNamed): string[] {
  const runs = record(record(data)?.runs);
  const using = text(runs?.using) ?? '';
  if (runs !== null && /^node\d+$/.test(using)) {
    const files = ['main', 'pre', 'post'].map((k) => text(runs[k])).filter((f): f is string => f !== null);
    const folders = files.map((f) => fromRoot(dir, f)).map((f) => (f === null ? null : posix.dirname(f)));
    if (folders.length > 0 && folders.every((f) => f !== null)) return [...new Set(folders as string[])];
    return [dir];
  }
  if (runs !== null && using === 'composite') {
    stepsNamed(runs.steps, '.', into, dir);
    // The repository's own composite action (`uses: ./`): its folder is every file, so only what its steps name.
    if (dir === '.') return [];
  }
  return [dir];
}

/** Whether `path` is in the folder `dir` (`.`: every path). */
export function inFolder(path: string, dir: string): boolean {
  return dir === '.' || path.startsWith(`${dir}/`);
}
