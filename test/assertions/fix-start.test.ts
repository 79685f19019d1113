// Every fix a reason can end with is one FIX_START finds (src/assertions/format.ts): the list of
// known fix wordings is how a long line is cut before its fix and how a shared line keeps it, so a
// fix written in new words was cut again, silently. Read from the sources, so that a new one
// cannot be missed: each "; <words>" that the modules writing reasons put in a string (an agent's
// error, a client's reason, a check's detail, a span's fault), and each fix one of them puts after
// "; " from a constant, a function or a `fix` field (followed to its strings), is either a fix
// FIX_START finds or one of NOT_A_FIX's clauses, each with why it is not one.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { fixStart, FIX_START } from '../../src/assertions/format.js';
import { NOT_TLS_FIX } from '../../src/http/tls.js';
import { clipDetail } from '../../src/report/escape.js';
import { tlsProblem } from '../../src/tls-certificate.js';
import { incompleteCause, lateCause, noSpansCause } from '../../src/traces/observer.js';
import { sourceFiles } from '../support/source-files.js';

/**
 * Modules among them whose strings are no item's reason: the wait for the agent's words (a run's
 * failure and log lines, printed whole), and the prompt the meaning judge is sent. (src/mocks/ is
 * not read: its error is thrown in the agent's process, and reaches a reason only quoted in the agent's.)
 */
const APART = new Set(['src/agent/ready.ts', 'src/judge/meaning-prompt.ts']);

/** The modules whose strings become reasons a line shows and clips (clipDetail, clipKeepingFix, causeWords). */
const WRITERS = [
  ...['src/agent', 'src/http', 'src/traces', 'src/judge', 'src/simulator', 'src/assertions', 'src/replay'].flatMap((d) => sourceFiles(d)),
  ...['src/evaluate/personas.ts', 'src/agent-fixes.ts', 'src/tls-alert.ts', 'src/tls-certificate.ts', 'src/tls-plain.ts', 'src/judge-url-setting.ts'],
].filter((f) => !APART.has(f));

/** A value put in a template (`${...}`), as the text FIX_START reads it: any word. */
const SLOT = 'X';

interface Site {
  at: string;
  /** The text after "; ", its slots as SLOT. */
  text: string;
  /** When the text begins with a slot, or goes on in the next string (`'...; ' + ...`): that expression, whose strings are followed (leads). */
  slot: ts.Expression | null;
}

const sources = new Map(WRITERS.map((f) => [f, ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)]));
const where = (node: ts.Node): string => {
  const sf = node.getSourceFile();
  return `${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
};

/** Every declaration of the writers by name: consts, functions, and `fix:`-like fields of object literals. */
const consts = new Map<string, ts.Expression[]>();
const functions = new Map<string, ts.Node[]>();
const fields = new Map<string, ts.Expression[]>();
const add = <T,>(map: Map<string, T[]>, name: string, value: T): void => void map.set(name, [...(map.get(name) ?? []), value]);
for (const sf of sources.values()) {
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      const init = node.initializer;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) add(functions, node.name.text, init);
      else add(consts, node.name.text, init);
    }
    if (ts.isFunctionDeclaration(node) && node.name !== undefined) add(functions, node.name.text, node);
    if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) add(fields, node.name.text, node.initializer);
    // `{ what, fix }`: the field is the const of its name.
    if (ts.isShorthandPropertyAssignment(node)) add(fields, node.name.text, node.name);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/** The function a declaration is in, or its file. */
function scopeOf(node: ts.Node): ts.Node {
  let at: ts.Node = node.parent;
  while (!ts.isSourceFile(at) && !ts.isFunctionLike(at)) at = at.parent;
  return at;
}

function encloses(outer: ts.Node, inner: ts.Node): boolean {
  return inner.getStart() >= outer.getStart() && inner.getEnd() <= outer.getEnd();
}

/** What a function returns: its return statements' expressions, or an arrow's body. */
function returns(fn: ts.Node): ts.Expression[] {
  if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return [fn.body];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (node !== fn && (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node))) return;
    if (ts.isReturnStatement(node) && node.expression !== undefined) out.push(node.expression);
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return out;
}

/**
 * How a value may begin, as text (its slots as SLOT), followed through conditionals, `??`, `||`,
 * `+`, consts, functions and fields of the writers; null for a value that is not followed (a
 * parameter, a call of another module), which the test names so that it is listed.
 */
function leads(expr: ts.Expression, seen = new Set<ts.Node>()): string[] | null {
  if (seen.has(expr)) return [];
  seen.add(expr);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr.text];
  if (ts.isTemplateExpression(expr)) {
    if (expr.head.text !== '') return [`${expr.head.text}${SLOT}`];
    const first = expr.templateSpans[0];
    const inner = first === undefined ? null : leads(first.expression, seen);
    return inner === null ? null : inner.map((l) => `${l}${first?.literal.text ?? ''}`);
  }
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) return leads(expr.expression, seen);
  const all = (parts: ts.Expression[]): string[] | null => {
    const out: string[] = [];
    for (const p of parts) {
      const l = leads(p, seen);
      if (l === null) return null;
      out.push(...l);
    }
    return out;
  };
  if (ts.isConditionalExpression(expr)) return all([expr.whenTrue, expr.whenFalse]);
  if (ts.isBinaryExpression(expr)) {
    const op = expr.operatorToken.kind;
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return all([expr.left, expr.right]);
    if (op === ts.SyntaxKind.PlusToken) return leads(expr.left, seen);
  }
  const named = (name: string, from: Map<string, ts.Expression[]>): string[] | null => {
    const found = from.get(name);
    return found === undefined ? null : all(found);
  };
  if (ts.isIdentifier(expr)) {
    // The const in scope where it is read, when there is one (a function's own `fix`), else any of its name.
    const scoped = (consts.get(expr.text) ?? []).filter((init) => init.getSourceFile() === expr.getSourceFile() && encloses(scopeOf(init), expr));
    return scoped.length > 0 ? all(scoped) : named(expr.text, consts);
  }
  if (ts.isPropertyAccessExpression(expr)) return named(expr.name.text, fields);
  if (ts.isCallExpression(expr)) {
    const callee = ts.isIdentifier(expr.expression) ? expr.expression.text : ts.isPropertyAccessExpression(expr.expression) ? expr.expression.name.text : null;
    const fns = callee === null ? undefined : functions.get(callee);
    return fns === undefined ? null : all(fns.flatMap(returns));
  }
  return null;
}

/** The string a string ending in "; " goes on with (`'...; ' + '...'`), or null. */
function nextOperand(node: ts.Node): ts.Expression | null {
  const parent = node.parent;
  return ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken && parent.left === node ? parent.right : null;
}

/** Every "; " in a string of the writers, with the text after it. */
function sites(): Site[] {
  const out: Site[] = [];
  for (const sf of sources.values()) {
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        for (const m of node.text.matchAll(/; /g)) out.push({ at: where(node), text: node.text.slice(m.index + 2), slot: m.index + 2 === node.text.length ? nextOperand(node) : null });
      } else if (ts.isTemplateExpression(node)) {
        const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
        pieces.forEach((piece, i) => {
          const rest = [piece, ...pieces.slice(i + 1)].join(SLOT);
          for (const m of piece.matchAll(/; /g)) {
            const after = rest.slice(m.index + 2);
            const span = node.templateSpans[i];
            // A "; " that ends its piece: the text after it is the slot's value.
            const slot = m.index + 2 === piece.length ? (span !== undefined ? span.expression : nextOperand(node)) : null;
            out.push({ at: where(node), text: after, slot });
          }
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** FIX_START at the text's start. */
const START = new RegExp(`^${FIX_START.source}`);

/**
 * The clauses after "; " that are not fixes, by how they begin, each with why: what happened said
 * on, a list's separator, or a fix inside a parenthesis (which fixStart never takes: atTopLevel).
 */
const NOT_A_FIX: readonly (readonly [string, string])[] = [
  ['there is no reply', 'what happened: the conversation ended in the welcome'],
  ['agent.response.reply, set at ', 'what happened: where the path is set, and which events it reads'],
  ['its text may be at ', "inside noReplyAt's parenthesis: where the answer's text is (the cause gives the fix)"],
  ['the response is ', "inside noReplyAt's parenthesis: the answer's shape"],
  ['nothing in the response is a list of tool calls', 'what happened: no path would read one'],
  ['the agent ended the stream without answering', 'what happened'],
  ['it did not run', 'what happened to a tool call'],
  ['agent-replay reaches servers through ', 'why a proxy is refused, before its fix after ": "'],
  ['given up ', "inside retry.ts's parenthesis: why no other attempt was made"],
  ['+X more', 'a list cut short'],
  ['the toolX called: ', 'what happened: the calls a tool check read'],
  ['missing: ', "what happened: a script's missing fields"],
  ['mocked: false)', "inside a tool call's parenthesis"],
  ["if it is X's own certificate: ", 'inside a fix, after its start ("a proxy that inspects TLS ...")'],
  ['its tokens are not counted', "a run's warning on usage, printed whole: what it means, then what to send"],
];

/** Values put after "; " that the test does not follow, by their expression's text, each not a fix. */
const UNFOLLOWED: readonly (readonly [string, string])[] = [
  ['soFar.said', 'what a cut stream had said'],
  ["mapping.replyAt.key ?? 'agent.response.reply'", 'the key that sets the path, and where: "<key> is set at <file>:<line>"'],
  ['cut.toolCallItems[first.index] ?? `call ${first.index + 1}`', 'the tool call that is not one'],
  ["kinds.map(([n, words]) => `${n} ${words}`).join(', ')", "a panel's counts"],
  ['v.needed', "a panel's count needed"],
];

function unfound(): string[] {
  const out: string[] = [];
  const known = (text: string): boolean => START.test(`; ${text}`) || NOT_A_FIX.some(([p]) => text.startsWith(p));
  for (const site of sites()) {
    if (site.slot === null) {
      // Nothing after it: a separator (a list joined with "; ": members, checks, calls).
      if (site.text !== '' && !known(site.text)) out.push(`${site.at}: "; ${site.text.slice(0, 60)}"`);
      continue;
    }
    // `; ${file} sets personas.unmockedTools: ...`: known with any value in the slot.
    if (site.text !== '' && known(site.text)) continue;
    const slot = site.slot.getText();
    if (UNFOLLOWED.some(([u]) => u === slot)) continue;
    const values = leads(site.slot);
    if (values === null) out.push(`${site.at}: "; \${${slot}}" (not followed)`);
    else for (const v of values) if (!known(v)) out.push(`${site.at}: "; ${v.slice(0, 60)}" (from \${${slot}})`);
  }
  return out;
}

describe('every fix a reason ends with is one FIX_START finds', () => {
  it('reads the fixes of the writers, through the values put after "; " (the test would prove nothing otherwise)', () => {
    const all = sites();
    const said = (at: string): string[] => all.filter((x) => x.at.startsWith(at)).flatMap((x) => (x.slot === null ? [x.text] : (leads(x.slot) ?? [])));
    expect(said('src/agent/stream.ts')).toContain('send each line of a chunk as its own data: line');
    expect(said('src/agent/http-client.ts')).toEqual(expect.arrayContaining(['nothing listens there: check agent-url (agent.url) and that the agent is running', 'check the host name in agent-url (agent.url)', 'renew the certificate']));
    expect(said('src/judge/http.ts')).toContain("check the runner's clock, or renew the certificate");
    expect(all.length).toBeGreaterThan(60);
  });

  it('each "; <words>" of the modules that write reasons is a fix FIX_START finds, or a clause listed as none', () => {
    expect(unfound()).toEqual([]);
  });

  // The fixes FIX_START did not know, each in a reason as its writer puts it, made long (a long
  // host name): a detail line bounded at 160 was cut at 160, in the fix; it cuts what happened and keeps the fix whole.
  const id = 'a'.repeat(32);
  const far = `collector-${'x'.repeat(120)}.example:4318`;
  const receiving = { endpoint: far, receiving: true, waitMs: 5000 };
  it.each([
    ['an expired certificate', `its TLS certificate is refused: expired (CERT_HAS_EXPIRED) at ${far}; ${tlsProblem('CERT_HAS_EXPIRED')?.fix ?? ''}`, 'renew the certificate'],
    ['plain HTTP at an https:// URL', `the agent answered without TLS at ${far}, after 1 attempt (ERR_SSL_WRONG_VERSION_NUMBER); ${NOT_TLS_FIX}`, NOT_TLS_FIX],
    ['nothing listening', `could not reach the agent at ${far} after 3 attempts: connection refused (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running`, 'nothing listens there: check agent-url (agent.url) and that the agent is running'],
    ['late spans', lateCause(id, '5 s', far, 4), 'have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs'],
    ["another trace's spans", noSpansCause(id, receiving, 2), 'does the agent start its spans under the incoming traceparent?'],
    ['incomplete spans in a store', incompleteCause(id, 2, 'b'.repeat(16), { ...receiving, receiving: false }), 'is traces.waitMs long enough for the store to index them?'],
  ])('%s: the fix is found, and a bounded line keeps it whole', (_what, reason, fix) => {
    expect(reason.slice(fixStart(reason))).toBe(`; ${fix}`);
    expect(reason.length).toBeGreaterThan(200);
    // The bound is what happened's: the fix is not counted (clipKeepingFix).
    const line = clipDetail(reason, 160);
    expect(line.endsWith(`\u2026; ${fix}`)).toBe(true);
    expect(line.length - fix.length - 2).toBeLessThanOrEqual(160);
  });
});
