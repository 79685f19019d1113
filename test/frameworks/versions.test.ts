// The versions the docs say were tested are the versions these tests ran: the framework packages
// of test/frameworks/package-lock.json (and installed from it: a stale node_modules fails here too),
// named in docs/presets.md's table and on each framework page. Every version a page gives after a
// package's name must be one the lock holds for it, and each locked version must be named: upgrading
// a framework in the lock without updating the docs fails, and so does a docs version left behind.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

interface Lock {
  packages: Record<string, { version?: string }>;
}

const lockFile = (): Lock => JSON.parse(readFileSync(join(ROOT, 'test', 'frameworks', 'package-lock.json'), 'utf8')) as Lock;
const installed = (pkg: string): string => (JSON.parse(readFileSync(join(ROOT, 'test', 'frameworks', 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const doc = (page: string): string => readFileSync(join(ROOT, 'docs', page), 'utf8');

/** How the docs name a package, the locked packages whose versions that name carries, and the pages that give them. */
const NAMED: { name: string; packages: string[]; pages: string[] }[] = [
  { name: '`ai`', packages: ['ai', 'ai-v5'], pages: ['presets.md', 'frameworks/vercel-ai.md'] },
  { name: '`@langchain/langgraph`', packages: ['@langchain/langgraph'], pages: ['presets.md', 'frameworks/langgraph.md'] },
  { name: '`@langchain/langgraph-cli`', packages: ['@langchain/langgraph-cli'], pages: ['frameworks/langgraph.md'] },
  { name: '`langgraphjs dev`', packages: ['@langchain/langgraph-cli'], pages: ['presets.md'] },
  { name: '`langchain`', packages: ['langchain'], pages: ['presets.md', 'frameworks/langgraph.md'] },
  { name: '`@mastra/core`', packages: ['@mastra/core'], pages: ['presets.md', 'frameworks/mastra.md'] },
  { name: '`@mastra/hono`', packages: ['@mastra/hono'], pages: ['presets.md', 'frameworks/mastra.md'] },
  { name: '`@mastra/ai-sdk`', packages: ['@mastra/ai-sdk'], pages: ['frameworks/mastra.md'] },
  { name: '`@openai/agents`', packages: ['@openai/agents'], pages: ['presets.md'] },
  { name: '`@dwmkerr/mock-llm`', packages: ['@dwmkerr/mock-llm'], pages: ['presets.md'] },
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every version a text gives right after `name` (whitespace, line breaks included, between them). */
function versionsNamed(text: string, name: string): string[] {
  return [...text.matchAll(new RegExp(`${escape(name)}\\s+v?(\\d+\\.\\d+\\.\\d+(?:-[\\w.]*\\w)?)`, 'g'))].map((m) => m[1]!);
}

/** What differs between the lock and the pages, one line each; empty when they agree. */
function versionProblems(lock: Lock, read: (page: string) => string): string[] {
  const problems: string[] = [];
  for (const { name, packages, pages } of NAMED) {
    const locked = packages.map((p) => lock.packages[`node_modules/${p}`]?.version ?? `(${p} not in the lock)`);
    for (const page of pages) {
      const named = versionsNamed(read(page), name);
      const missing = locked.filter((v) => !named.includes(v));
      const stale = [...new Set(named.filter((v) => !locked.includes(v)))];
      if (missing.length > 0) problems.push(`docs/${page} does not name ${name} ${missing.join(', ')} (the lock's version${missing.length === 1 ? '' : 's'})`);
      if (stale.length > 0) problems.push(`docs/${page} names ${name} ${stale.join(', ')}, which the lock does not hold (it has ${locked.join(', ')})`);
    }
  }
  return problems;
}

describe('the tested versions in the docs', () => {
  it('every version the pages name is the lock\'s, and every locked version is named', () => {
    expect(versionProblems(lockFile(), doc)).toEqual([]);
  });

  it('the installed packages are the lock\'s (else the tests ran something else: npm ci --prefix test/frameworks)', () => {
    const lock = lockFile();
    const stale = NAMED.flatMap((n) => n.packages)
      .filter((p, i, all) => all.indexOf(p) === i)
      .filter((p) => installed(p) !== lock.packages[`node_modules/${p}`]?.version)
      .map((p) => `${p}: installed ${installed(p)}, locked ${lock.packages[`node_modules/${p}`]?.version}`);
    expect(stale).toEqual([]);
  });

  it('the check fails when the lock moves on and the docs do not, or the docs keep an older version', () => {
    const lock = lockFile();
    const moved: Lock = { packages: { ...lock.packages, 'node_modules/@mastra/core': { version: '1.72.0' } } };
    const problems = versionProblems(moved, doc);
    expect(problems).toContain('docs/presets.md does not name `@mastra/core` 1.72.0 (the lock\'s version)');
    expect(problems).toContain('docs/frameworks/mastra.md names `@mastra/core` 1.71.0, which the lock does not hold (it has 1.72.0)');
    const leftBehind = (page: string): string => (page === 'frameworks/vercel-ai.md' ? `${doc(page)}\nOnce tested with \`ai\` 6.0.1.` : doc(page));
    expect(versionProblems(lock, leftBehind)).toEqual([`docs/frameworks/vercel-ai.md names \`ai\` 6.0.1, which the lock does not hold (it has ${lock.packages['node_modules/ai']?.version}, ${lock.packages['node_modules/ai-v5']?.version})`]);
  });
});
