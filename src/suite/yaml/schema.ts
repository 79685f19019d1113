// One reading of YAML for every suite file (fixtures and config.yml).
//
// The values always come from one parser, js-yaml (fast: about six times the speed of the `yaml`
// package), with a schema written here to resolve plain scalars exactly as the YAML 1.2 core
// schema of the `yaml` package does. The `yaml` package is only used to place problems (file:line)
// and to word syntax errors, with the same schema, so both see the same values (a generated
// differential test in test/suite/yaml.test.ts holds them equal). The rules, in words:
//
// - null: empty, `~`, `null`, `Null`, `NULL`. true/false: `true`, `True`, `TRUE`, `false`, ...
//   (`yes`, `no`, `on`, `off`, `y`, `n` are text).
// - integers: `123`, `-7`, `+7`, `0o17`, `0x1F` (`0b101`, `1_000`, `-0x1F` are text).
// - floats: `1.5`, `.5`, `-1.`, `1e3`, `1.5E-3`, `.inf`, `-.inf`, `.nan`.
// - no dates (`2026-11-30` is text), no merge keys (`<<: *base` is refused by readYaml), no other tags:
//   `!!binary`, `!!timestamp`, `!custom` are errors. A `%YAML 1.1` directive changes nothing.
// - anchors and aliases repeat a value; when the aliases of a file would add more than
//   MAX_ALIAS_VALUES values (a "billion laughs" bomb), the file is refused before anything walks it.

import jsyaml from 'js-yaml';
import type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';

const FLOAT_NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const INT_OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const INT_HEX_RE = /^0x[0-9a-fA-F]+$/;

// The resolvers look at the first character or the length before any regular expression: they
// run for every plain scalar of every file, and most plain scalars are words.

/** `0`-`9`, `+`, `-` (and `.` for floats): the only ways a number can start. */
function mayBeNumber(data: string, dot: boolean): boolean {
  const c = data.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || (dot && c === 46);
}

const nullType = new jsyaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data === null || data === '' || data === '~' || data === 'null' || data === 'Null' || data === 'NULL',
  construct: () => null,
  predicate: (v: unknown) => v === null,
});

const boolType = new jsyaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data !== null && (data.length === 4 || data.length === 5) && /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(data),
  construct: (data: string) => data[0] === 't' || data[0] === 'T',
  predicate: (v: unknown) => typeof v === 'boolean',
});

const intType = new jsyaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data !== null && mayBeNumber(data, false) && (INT_RE.test(data) || INT_OCT_RE.test(data) || INT_HEX_RE.test(data)),
  construct: (data: string) =>
    INT_OCT_RE.test(data) ? parseInt(data.slice(2), 8) : INT_HEX_RE.test(data) ? parseInt(data.slice(2), 16) : parseInt(data, 10),
  predicate: (v: unknown) => Number.isInteger(v),
});

const floatType = new jsyaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data !== null && mayBeNumber(data, true) && (FLOAT_RE.test(data) || FLOAT_EXP_RE.test(data) || FLOAT_NAN_RE.test(data)),
  construct: (data: string) => {
    if (FLOAT_NAN_RE.test(data)) {
      if (data.slice(-3).toLowerCase() === 'nan') return NaN;
      return data[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
    return parseFloat(data);
  },
  predicate: (v: unknown) => typeof v === 'number',
});

const IMPLICIT = [nullType, boolType, intType, floatType];

/** A letter other than n, N, t, T, f, F, or an underscore: no implicit type's text starts with it. */
function isWordStart(c: number): boolean {
  const lower = c | 0x20;
  return ((lower >= 97 && lower <= 122) || c === 95) && lower !== 110 && lower !== 116 && lower !== 102;
}

/** js-yaml's schema for suite files: the YAML 1.2 core schema as the `yaml` package reads it. */
export const SUITE_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: IMPLICIT });

/**
 * A plain scalar's value under SUITE_SCHEMA, resolved as js-yaml resolves an untagged plain scalar:
 * the first implicit type whose rule takes the text, in the schema's order, or the text itself.
 */
export function plainScalarValue(written: string): unknown {
  // A word (`refund`, `q-00001`, a key): its first character starts none of the types' texts (null
  // and true/false start with n, N, t, T, f, F or ~, numbers with a digit, +, - or .), which each
  // resolver would look at in turn, for every key and plain value of every file.
  if (isWordStart(written.charCodeAt(0))) return written;
  for (const type of IMPLICIT) {
    if (type.resolve(written)) return type.construct(written);
  }
  return written;
}

/** Options of every `yaml` document parsed for positions and syntax errors: the same schema. */
export const YAML_DOC_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  prettyErrors: false,
  schema: 'core',
  merge: false,
  customTags: [],
};

/** Values that aliases may add to one file (a list of 5,000 fixtures sharing one assertion adds 15,000). */
export const MAX_ALIAS_VALUES = 100_000;

/**
 * How many values the aliases of `data` add when it is walked as a tree (js-yaml shares one
 * object per anchor, so the data is a graph), counted up to just over `limit`; Infinity when an
 * alias refers to a collection that contains it.
 */
export function aliasExpansion(data: unknown, limit = MAX_ALIAS_VALUES): number {
  const size = new Map<object, number>();
  const inProgress = new Set<object>();
  let added = 0;
  const walk = (v: unknown): number => {
    if (v === null || typeof v !== 'object') return 1;
    const known = size.get(v);
    if (known !== undefined) {
      added += known;
      return known;
    }
    if (inProgress.has(v)) {
      added = Infinity;
      return 1;
    }
    inProgress.add(v);
    let n = 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      n += walk(child);
      if (added > limit) break;
    }
    inProgress.delete(v);
    size.set(v, n);
    return n;
  };
  walk(data);
  return added;
}
