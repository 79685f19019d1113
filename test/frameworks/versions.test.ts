// The versions the docs say were tested are the versions these tests ran: the framework packages
// installed from test/frameworks/package-lock.json, named in docs/presets.md's table and on each
// framework page. Upgrading a framework in the lock without updating the docs fails here.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const installed = (pkg: string): string => (JSON.parse(readFileSync(join(ROOT, 'test', 'frameworks', 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const doc = (page: string): string => readFileSync(join(ROOT, 'docs', page), 'utf8').replace(/\s+/g, ' ');

/** [installed package, how the docs name it, the pages that name its version]. */
const NAMED: [string, string, string[]][] = [
  ['ai', '`ai`', ['presets.md', 'frameworks/vercel-ai.md']],
  ['ai-v5', '`ai`', ['presets.md', 'frameworks/vercel-ai.md']],
  ['@langchain/langgraph', '`@langchain/langgraph`', ['presets.md', 'frameworks/langgraph.md']],
  ['@langchain/langgraph-cli', '`@langchain/langgraph-cli`', ['frameworks/langgraph.md']],
  ['@langchain/langgraph-cli', '`langgraphjs dev`', ['presets.md']],
  ['langchain', '`langchain`', ['presets.md', 'frameworks/langgraph.md']],
  ['@mastra/core', '`@mastra/core`', ['presets.md', 'frameworks/mastra.md']],
  ['@mastra/hono', '`@mastra/hono`', ['presets.md', 'frameworks/mastra.md']],
  ['@openai/agents', '`@openai/agents`', ['presets.md']],
  ['@dwmkerr/mock-llm', '`@dwmkerr/mock-llm`', ['presets.md']],
];

describe('the tested versions in the docs', () => {
  for (const [pkg, name, pages] of NAMED) {
    it(`${pkg}: ${pages.join(', ')} name the installed version`, () => {
      const version = installed(pkg);
      for (const page of pages) expect(doc(page), `docs/${page} should name ${name} ${version}`).toContain(`${name} ${version}`);
    });
  }
});
