// "no agent URL is configured", with the line to change when config.yml has one: the commented
// `# url: http://localhost:3000/api/chat` line that `init` writes under agent: (docs/cli.md, "init";
// docs/troubleshooting.md, "Configuration errors").

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_NAMES, NEW_CONFIG_NAME } from './config-names.js';
import type { ConfigIssue } from './issues.js';

/** The line (1-based) and column of a commented `# url: ...` line under the top-level `agent:` key; null when there is none. */
export function commentedUrlLine(text: string): { line: number; column: number; written: string } | null {
  const lines = text.split(/\r?\n/);
  let inAgent = false;
  for (const [i, line] of lines.entries()) {
    // A top-level key (not indented, not a comment) opens or closes agent:'s block.
    if (/^[^\s#]/.test(line)) {
      inAgent = /^agent\s*:\s*(?:#.*)?$/.test(line);
      continue;
    }
    if (!inAgent) continue;
    const m = /^(\s+)#\s*(url\s*:\s*\S.*?)\s*$/.exec(line);
    if (m !== null) return { line: i + 1, column: (m[1] as string).length + 1, written: m[2] as string };
  }
  return null;
}

/**
 * The issue for a run or probe with no agent URL. `others`: the other ways to give one, as this
 * command takes them ("pass --agent-url URL to the CLI, or set the Action's agent-url input").
 */
export function noAgentUrlIssue(dir: string, cwd: string, others: string): ConfigIssue {
  const shownDir = dir.replace(/[\\/]+$/, '');
  for (const name of CONFIG_NAMES) {
    let text: string;
    try {
      text = readFileSync(path.resolve(cwd, dir, name), 'utf8');
    } catch {
      continue; // not there (or a folder): the next name
    }
    const at = commentedUrlLine(text);
    const file = `${shownDir}/${name}`;
    if (at === null) return { file, line: null, column: null, message: 'no agent URL is configured', fix: `set agent.url in ${name}, ${others}` };
    return {
      file,
      line: at.line,
      column: at.column,
      message: `no agent URL is configured: the url line under agent: is commented out (# ${at.written})`,
      fix: `uncomment line ${String(at.line)} and set it to your agent's address (url: http://...), ${others}`,
    };
  }
  // No config file: the one to create.
  return { file: `${shownDir}/${NEW_CONFIG_NAME}`, line: null, column: null, message: 'no agent URL is configured', fix: `set agent.url in ${NEW_CONFIG_NAME}, ${others}` };
}
