// `${NAME}` in any string value of the config is read from the environment. Every substituted value
// is a secret: it is collected so that it can be redacted everywhere, and never quoted in an issue;
// except a `model` (a judge's, a panel member's, the simulator's): an identifier that every surface
// shows and a baseline's judge fingerprint keeps, not a credential (docs/security.md, "Secrets").
// A config file from untrusted code (a fork's commit run with the workflow's secrets, docs/security.md)
// may read the environment only where `only` allows: elsewhere a reference is an issue and nothing
// is read, so the file cannot put the runner's tokens or the workflow's secrets where it likes.

import type { ConfigIssue } from './issues.js';
import { pathText, type PathSegment, type SourceFile } from './yaml/index.js';
import { headOf, shownJson } from '../words.js';

/** `$${NAME}` is a literal `${NAME}`; `${NAME}` is substituted. */
const REFERENCE_RE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names of the `${NAME}` references in a value as written (`$${NAME}` is the literal, none). */
export function referencedNames(written: string): string[] {
  const names = [...written.matchAll(REFERENCE_RE)].filter((m) => m[1] === '').map((m) => m[2] as string);
  return [...new Set(names)];
}

export interface Substitution<T> {
  value: T;
  issues: ConfigIssue[];
  secrets: string[];
  /** The values with a reference that was not read (its issue is in `issues`): what they hold is not what the file means. */
  unread: PathSegment[][];
  /** The issues of `issues` that say a variable is not set (or empty): what a command that sends nothing may leave unsaid. */
  unset: ConfigIssue[];
}

/** Where references may be read (untrusted code), and the issue for one that may not. */
export interface EnvLimit {
  allowed(path: readonly PathSegment[]): boolean;
  refused(name: string, path: readonly PathSegment[]): { message: string; fix: string };
}

/** `${{ secrets.NAME }}`: the workflow's expression syntax, which only GitHub reads (in the workflow file). */
const WORKFLOW_EXPRESSION_RE = /^\$\{\{([^}]*)\}\}/;

/**
 * A `${` in `text` that starts no reference and is not written `$${` (the literal): GitHub's
 * `${{ secrets.X }}`, a name with spaces or a dash, a reference never closed. Each would be sent as
 * written, which is never what was meant: an issue with the reference to write instead, or null.
 * `file`: the config file's name (config.yml, or config.yaml), said of what it does not read.
 */
function brokenReference(text: string, path: readonly PathSegment[], file: string): { message: string; fix: string } | null {
  for (let i = text.indexOf('${'); i !== -1; i = text.indexOf('${', i + 2)) {
    if (text[i - 1] === '$') continue;
    const rest = text.slice(i);
    if (/^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(rest)) continue;
    const name = pathText(path);
    const expression = WORKFLOW_EXPRESSION_RE.exec(rest);
    if (expression !== null) {
      const shown = `\${{${headOf(expression[1] as string, 60)}}}`;
      const inner = /^\s*(?:secrets|vars|env)\.([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(expression[1] as string)?.[1];
      const variable = inner ?? 'NAME';
      return {
        message: `${name} holds ${shown}, the workflow's expression syntax, which ${file} does not read: it would be sent as written`,
        fix: `write \${${variable}} here, and give the step that runs agent-replay env: ${variable}: ${inner === undefined ? shown : `\${{ ${(expression[1] as string).trim()} }}`}`,
      };
    }
    const written = headOf(/^\$\{[^}]*\}?/.exec(rest)?.[0] ?? '${', 60);
    const inner = written.replace(/^\$\{/, '').replace(/\}$/, '').trim();
    const meant = /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) ? `write \${${inner}}` : 'export the variable under a name of letters, digits and _ and write ${THAT_NAME}';
    return {
      message: `${name} holds ${shownJson(written)}, which is not a \${NAME} reference (a name of letters, digits and _ in \${...}, no spaces): it would be sent as written`,
      fix: `${meant}, or ${meant.startsWith('write') ? '' : 'write '}$\${ to send the text as written`,
    };
  }
  return null;
}

export function substituteEnv<T>(
  value: T,
  env: Record<string, string | undefined>,
  src: SourceFile,
  /** The config file's name as messages say it (config.yml, or config.yaml). */
  file: string,
  base: readonly PathSegment[] = [],
  only: EnvLimit | null = null,
  /** Values left as written: the schema refused them already (a reference where a number belongs). */
  skip: (path: readonly PathSegment[]) => boolean = () => false,
): Substitution<T> {
  const issues: ConfigIssue[] = [];
  const secrets: string[] = [];
  const unread: PathSegment[][] = [];
  const unset: ConfigIssue[] = [];

  const substituteString = (text: string, path: PathSegment[]): string => {
    if (skip(path)) return text;
    const broken = brokenReference(text, path, file);
    if (broken !== null) {
      const pos = src.valueAt(path);
      issues.push({ file: src.file, line: pos.line, column: pos.column, ...broken });
    }
    return substituteReferences(text, path);
  };

  const substituteReferences = (text: string, path: PathSegment[]): string =>
    text.replace(REFERENCE_RE, (whole, escaped: string, name: string) => {
      if (escaped) return whole.slice(1);
      if (only !== null && !only.allowed(path)) {
        const pos = src.valueAt(path);
        issues.push({ file: src.file, line: pos.line, column: pos.column, ...only.refused(name, path) });
        unread.push(path);
        return '';
      }
      const found = env[name];
      if (found === undefined || found === '') {
        const pos = src.valueAt(path);
        const issue: ConfigIssue = {
          file: src.file,
          line: pos.line,
          column: pos.column,
          message: found === undefined ? `environment variable ${name} is not set` : `environment variable ${name} is set but empty`,
          fix:
            found === undefined
              ? // A workflow's secrets reach the step only through its env: (docs/configuration.md, "Environment variables and secrets").
                `export ${name}=... before running agent-replay; in a workflow, set it under env: of the step (${name}: \${{ secrets.${name} }} for a secret)`
              : `give ${name} a value; in a workflow, check that the secret it comes from exists (GitHub passes a missing secret as an empty string)`,
        };
        issues.push(issue);
        unset.push(issue);
        unread.push(path);
        return '';
      }
      if (path[path.length - 1] !== 'model') secrets.push(found);
      return found;
    });

  const walk = (v: unknown, path: PathSegment[]): unknown => {
    if (typeof v === 'string') return substituteString(v, path);
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, [...path, k]);
      return out;
    }
    return v;
  };

  return { value: walk(value, [...base]) as T, issues, secrets, unread, unset };
}
