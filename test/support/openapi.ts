// A compact validator of HTTP requests (and responses) against GitHub's OpenAPI description
// (`@octokit/openapi`, api.github.com). Used by the fake GitHub server in github-server.ts.
//
// What it checks:
// - method + path: the path must match one of the spec's path templates (literal segments exactly,
//   `{param}` = one non-empty segment; when nothing matches, a template ending in a parameter may
//   swallow the remaining segments when it is a path-like parameter (`ref`, `path`, `basehead`),
//   e.g. `git/ref/{ref}` with `heads/main`), and the method must be
//   one of that template's operations. The most literal template wins (`issues/comments/{id}`
//   before `issues/{issue_number}/...`).
// - parameters: path parameter values against their schema (an `integer` must be digits), query
//   parameter NAMES (an unknown name is a violation) and values, required query parameters.
// - request body: presence when the operation requires one, absence when it takes none, and the
//   value against the requestBody JSON schema: type, nullable, required, properties (unknown
//   properties ARE violations in requests: GitHub ignores them silently, so a typo would go
//   unnoticed), additionalProperties, items, enum, oneOf/anyOf (at least one must match),
//   allOf, min/max length, min/max items, minimum/maximum, pattern.
// - response bodies (optional, non-strict: extra properties allowed) against the response schema.
// Limits: no `format` checks (date-time, uri, email), headers and content negotiation are not
// checked, oneOf is "at least one", array query parameters and `discriminator` are not interpreted.

import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { fullDescriptionFile } from './openapi-trim.js';

type JsonValue = unknown;

export interface Schema {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: JsonValue[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  default?: JsonValue;
}

interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

interface RequestBody {
  $ref?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaType>;
}

interface OperationObject {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses?: Record<string, ResponseObject>;
}

interface SpecDocument {
  paths: Record<string, Record<string, OperationObject | Parameter[] | unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export interface Operation {
  method: string;
  /** The spec's path template, e.g. `/repos/{owner}/{repo}/issues/{issue_number}/comments`. */
  template: string;
  operationId: string;
  parameters: Parameter[];
  requestBody: RequestBody | null;
  responses: Record<string, ResponseObject>;
}

export interface RequestCheck {
  operation: Operation | null;
  pathParams: Record<string, string>;
  problems: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Template {
  template: string;
  segments: string[];
  literalCount: number;
  operations: Map<string, Operation>;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export class OpenApiSpec {
  private readonly doc: SpecDocument;
  private readonly templates: Template[] = [];
  private readonly samples = new Map<string, unknown>();

  constructor(doc: SpecDocument) {
    this.doc = doc;
    for (const [template, item] of Object.entries(doc.paths)) {
      const shared = (Array.isArray(item['parameters']) ? item['parameters'] : []) as Parameter[];
      const operations = new Map<string, Operation>();
      for (const method of METHODS) {
        const op = item[method] as OperationObject | undefined;
        if (!op) continue;
        const own = (op.parameters ?? []).map((p) => this.resolve<Parameter>(p));
        const names = new Set(own.map((p) => `${p.in}:${p.name}`));
        const parameters = [...shared.map((p) => this.resolve<Parameter>(p)).filter((p) => !names.has(`${p.in}:${p.name}`)), ...own];
        operations.set(method.toUpperCase(), {
          method: method.toUpperCase(),
          template,
          operationId: op.operationId ?? `${method} ${template}`,
          parameters,
          requestBody: op.requestBody ? this.resolve<RequestBody>(op.requestBody) : null,
          responses: op.responses ?? {},
        });
      }
      const segments = template.split('/').slice(1);
      this.templates.push({
        template,
        segments,
        literalCount: segments.filter((s) => !s.startsWith('{')).length,
        operations,
      });
    }
    this.templates.sort((a, b) => b.literalCount - a.literalCount);
  }

  /**
   * The api.github.com description shipped in @octokit/openapi, parsed once per process: the copy
   * the test run's global set-up trimmed (openapi-trim.ts), else the whole file.
   */
  static load(): OpenApiSpec {
    if (!cached) {
      let file: string | undefined;
      try {
        file = inject('openapiFile');
      } catch {
        // Not inside a Vitest worker (a script): the whole description.
      }
      cached = new OpenApiSpec(JSON.parse(readFileSync(file ?? fullDescriptionFile(), 'utf8')) as SpecDocument);
    }
    return cached;
  }

  /** Follows `$ref` (`#/components/...`) until a non-reference object. */
  resolve<T extends { $ref?: string }>(node: T): T {
    let current: T = node;
    for (let i = 0; i < 20 && current.$ref; i++) {
      const parts = current.$ref.replace(/^#\//, '').split('/');
      let target: unknown = this.doc;
      for (const part of parts) target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (target === undefined) throw new Error(`openapi: unresolved $ref ${current.$ref}`);
      current = target as T;
    }
    return current;
  }

  /** Finds the operation for a method and a concrete path (no query string). */
  match(method: string, pathname: string): { operation: Operation | null; pathParams: Record<string, string>; problem: string | null } {
    const parts = pathname.split('/').slice(1);
    const candidates: { t: Template; params: Record<string, string> }[] = [];
    const greedy: { t: Template; params: Record<string, string> }[] = [];
    for (const t of this.templates) {
      const params = matchSegments(t.segments, parts, false);
      if (params) candidates.push({ t, params });
      else {
        const g = matchSegments(t.segments, parts, true);
        if (g) greedy.push({ t, params: g });
      }
    }
    const found = candidates.length > 0 ? candidates : greedy;
    if (found.length === 0) return { operation: null, pathParams: {}, problem: `no path in the OpenAPI description matches ${pathname}` };
    for (const { t, params } of found) {
      const op = t.operations.get(method.toUpperCase());
      if (op) return { operation: op, pathParams: params, problem: null };
    }
    const first = found[0]!;
    return {
      operation: null,
      pathParams: first.params,
      problem: `${method.toUpperCase()} is not an operation of ${first.t.template} (it has ${[...first.t.operations.keys()].join(', ')})`,
    };
  }

  /** Checks one request; `body` is the parsed JSON body, or undefined when there was none. */
  checkRequest(method: string, pathname: string, query: URLSearchParams, body: unknown): RequestCheck {
    const { operation, pathParams, problem } = this.match(method, pathname);
    if (!operation) return { operation: null, pathParams, problems: [problem ?? 'no operation'] };
    const problems: string[] = [];
    for (const p of operation.parameters.filter((p) => p.in === 'path')) {
      const value = pathParams[p.name];
      if (value === undefined || value === '') problems.push(`path parameter ${p.name} is missing`);
      else if (p.schema) problems.push(...this.checkScalarText(p.schema, value, `path parameter ${p.name}`));
    }
    const queryParams = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    for (const name of new Set(query.keys())) {
      const p = queryParams.get(name);
      if (!p) {
        problems.push(`query parameter ${name} is not a parameter of ${operation.operationId} (known: ${[...queryParams.keys()].join(', ') || 'none'})`);
        continue;
      }
      if (p.schema) for (const value of query.getAll(name)) problems.push(...this.checkScalarText(p.schema, value, `query parameter ${name}`));
    }
    for (const p of queryParams.values()) if (p.required && !query.has(p.name)) problems.push(`required query parameter ${p.name} is missing`);

    const rb = operation.requestBody;
    const jsonSchema = rb ? jsonMediaSchema(rb.content) : undefined;
    if (body === undefined) {
      if (rb?.required) problems.push(`${operation.operationId} requires a request body`);
    } else if (!rb) {
      problems.push(`${operation.operationId} takes no request body, got ${describe(body)}`);
    } else if (jsonSchema) {
      problems.push(...this.checkValue(jsonSchema, body, 'body', true));
    }
    return { operation, pathParams, problems };
  }

  /** Checks a JSON response body against the operation's schema for that status (extra properties allowed). */
  checkResponse(operation: Operation, status: number, body: unknown): string[] {
    const response = operation.responses[String(status)];
    if (!response) {
      if (status >= 400) return []; // error answers (fault injection, 5xx) are not all described
      return [`${operation.operationId} has no ${status} response in the OpenAPI description`];
    }
    const schema = jsonMediaSchema(this.resolve(response).content);
    return schema ? this.checkValue(schema, body, 'response', false) : [];
  }

  /** Validates `value` against `schema`; returns problems, each naming the JSON path. */
  checkValue(schemaIn: Schema, value: unknown, at: string, strict: boolean): string[] {
    const schema = this.resolve(schemaIn);
    if (value === null && schema.nullable) return [];
    if (schema.allOf) {
      const problems = schema.allOf.flatMap((s) => this.checkValue(s, value, at, false));
      if (problems.length > 0) return problems;
      if (strict && typeOf(value) === 'object') {
        const known = new Set(schema.allOf.flatMap((s) => Object.keys(this.resolve(s).properties ?? {})));
        return Object.keys(value as object).filter((k) => !known.has(k)).map((k) => `${at}.${k}: unknown property`);
      }
      return [];
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const alternatives = schema[key];
      if (!alternatives) continue;
      const results = alternatives.map((s) => this.checkValue(s, value, at, strict));
      if (results.some((r) => r.length === 0)) return [];
      const best = results.reduce((a, b) => (b.length < a.length ? b : a));
      return [`${at}: matches none of the ${key} alternatives (closest: ${best.join('; ')})`];
    }
    const problems: string[] = [];
    if (schema.enum && !schema.enum.some((e) => e === value)) {
      problems.push(`${at}: ${describe(value)} is not one of ${describe(schema.enum)}`);
      return problems;
    }
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (types.length > 0) {
      const ok = types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
      if (!ok) {
        problems.push(`${at}: expected ${types.join(' | ')}${schema.nullable ? ' | null' : ''}, got ${actual} ${describe(value)}`);
        return problems;
      }
    }
    if (typeof value === 'string') {
      if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${at}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${at}: longer than ${schema.maxLength}`);
      if (schema.pattern !== undefined && !safePattern(schema.pattern).test(value)) problems.push(`${at}: does not match /${schema.pattern}/`);
    }
    if (typeof value === 'number') {
      if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: below ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: above ${schema.maximum}`);
    }
    if (Array.isArray(value)) {
      if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at}: fewer than ${schema.minItems} items`);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${at}: more than ${schema.maxItems} items`);
      if (schema.items) value.forEach((item, i) => problems.push(...this.checkValue(schema.items!, item, `${at}[${i}]`, strict)));
    }
    if (actual === 'object') {
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) if (!(name in record)) problems.push(`${at}.${name}: required property missing`);
      const properties = schema.properties ?? {};
      for (const [name, v] of Object.entries(record)) {
        const ps = properties[name];
        if (ps) problems.push(...this.checkValue(ps, v, `${at}.${name}`, strict));
        else if (typeof schema.additionalProperties === 'object') problems.push(...this.checkValue(schema.additionalProperties, v, `${at}.${name}`, strict));
        else if (schema.additionalProperties === false || (strict && schema.additionalProperties === undefined && schema.properties)) {
          problems.push(`${at}.${name}: unknown property (known: ${Object.keys(properties).join(', ')})`);
        }
      }
    }
    return problems;
  }

  /**
   * A minimal value that satisfies the named component schema (`#/components/schemas/<name>`):
   * every required property filled with a placeholder of the right type. The fake server overlays
   * its own state on it so its answers validate against the spec.
   */
  sample(name: string): Record<string, unknown> {
    let value = this.samples.get(name);
    if (value === undefined) {
      value = this.sampleOf({ $ref: `#/components/schemas/${name}` }, 0);
      this.samples.set(name, value);
    }
    return structuredClone(value) as Record<string, unknown>;
  }

  private sampleOf(schemaIn: Schema, depth: number): unknown {
    const schema = this.resolve(schemaIn);
    if (schema.nullable && depth > 0) return null;
    if (schema.enum && schema.enum.length > 0) return schema.enum[0];
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => this.sampleOf(s, depth)));
    const alt = schema.oneOf ?? schema.anyOf;
    if (alt && alt[0]) return this.sampleOf(alt[0], depth);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'integer':
      case 'number':
        return schema.minimum ?? 1;
      case 'boolean':
        return false;
      case 'array':
        return [];
      case 'string':
        if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
        if (schema.format === 'uri') return 'https://example.invalid/';
        return 'x';
      default: {
        if (depth > 12) return {};
        const out: Record<string, unknown> = {};
        for (const name of schema.required ?? []) {
          const ps = schema.properties?.[name];
          out[name] = ps ? this.sampleOf(ps, depth + 1) : 'x';
        }
        return out;
      }
    }
  }

  private checkScalarText(schemaIn: Schema, text: string, at: string): string[] {
    const schema = this.resolve(schemaIn);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    let value: unknown = text;
    if (type === 'integer') {
      if (!/^-?\d+$/.test(text)) return [`${at}: expected an integer, got ${describe(text)}`];
      value = Number(text);
    } else if (type === 'number') {
      if (Number.isNaN(Number(text))) return [`${at}: expected a number, got ${describe(text)}`];
      value = Number(text);
    } else if (type === 'boolean') {
      if (text !== 'true' && text !== 'false') return [`${at}: expected true or false, got ${describe(text)}`];
      value = text === 'true';
    } else if (type === 'array' || schema.oneOf || schema.anyOf) {
      return []; // comma-separated lists and alternatives: not interpreted
    }
    return this.checkValue(schema, value, at, false);
  }
}

let cached: OpenApiSpec | null = null;

/** Parameters whose values are paths and may arrive with raw slashes (`git/ref/heads/main`). */
const SLASHED_PARAMS = new Set(['ref', 'path', 'basehead']);

function matchSegments(template: string[], parts: string[], greedyLast: boolean): Record<string, string> | null {
  const last = template[template.length - 1] ?? '';
  const lastIsParam = last.startsWith('{') && (!greedyLast || SLASHED_PARAMS.has(last.slice(1, -1)));
  if (template.length !== parts.length && !(greedyLast && lastIsParam && parts.length > template.length)) return null;
  if (greedyLast && !(lastIsParam && parts.length > template.length)) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const seg = template[i]!;
    const isLast = i === template.length - 1;
    const part = greedyLast && isLast ? parts.slice(i).join('/') : parts[i];
    if (part === undefined) return null;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (part === '') return null;
      params[seg.slice(1, -1)] = safeDecode(part);
    } else if (seg !== part) {
      return null;
    }
  }
  return params;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function jsonMediaSchema(content: Record<string, MediaType> | undefined): Schema | undefined {
  if (!content) return undefined;
  const key = Object.keys(content).find((k) => /json/.test(k));
  return key ? content[key]?.schema : undefined;
}
