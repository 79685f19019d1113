// Request-body templates and response paths: the pure half of the agent mapping
// (docs/presets.md, "Any JSON API: templates and paths").

import type { JsonValue } from '../config.js';

/** The values a request-body template can refer to. */
export interface TemplateValues {
  session: string;
  message: string;
  persona: string | null;
  model: string | null;
  /** `agent.maxTokens` (anthropic-messages preset); absent: a key that is exactly `{{maxTokens}}` is left out. */
  maxTokens?: number;
  /** `agent.assistantId` (langgraph preset). */
  assistantId?: string | null;
  /** A persona script's mocks (possibly []); absent for a fixture, whose request then has no such key. */
  mocks?: JsonValue;
  /**
   * The conversation so far as chat messages, `{role: 'user' | 'assistant', content}`, ending with
   * this turn's message: a fixture sends its one message; a persona script's turn n sends the
   * earlier messages and replies too, for APIs that keep no history (chat completions, messages).
   */
  messages?: JsonValue;
}

/** A chat message of `messages`, the shape `{{uiMessages}}` is built from. */
interface ChatMessage {
  role: string;
  content: string;
}

const PLACEHOLDER = /\{\{\s*(session|uiMessages|messages|message|persona|model|mocks|maxTokens|assistantId)\s*\}\}/g;
const EXACT_PLACEHOLDER = /^\{\{\s*(session|uiMessages|messages|message|persona|model|mocks|maxTokens|assistantId)\s*\}\}$/;

/**
 * Renders a JSON template: every string value is searched for `{{session}}`, `{{message}}`,
 * `{{messages}}`, `{{uiMessages}}`, `{{persona}}`, `{{model}}`, `{{mocks}}`, `{{maxTokens}}` and `{{assistantId}}`. A string that is exactly one placeholder becomes the
 * raw value (a null persona or model stays null, mocks stay a list); placeholders inside longer
 * strings are interpolated, with null as '' and mocks as JSON text. A key whose value is exactly
 * `{{mocks}}` is left out when there are no mocks to send (a fixture), so a fixture's request is
 * unchanged. Object keys and unknown placeholders are left alone. The template is not mutated.
 */
export function renderTemplate(template: JsonValue, values: TemplateValues): JsonValue {
  return compileTemplate(template)(values) ?? null;
}

/** A template compiled: renders it for one request's values (undefined: a key to leave out). */
export type CompiledTemplate = (values: TemplateValues) => JsonValue | undefined;

/**
 * The template read once (its placeholders found, its keys listed), so that a request renders it
 * without searching its strings again: what renderTemplate makes of it, value for value.
 */
export function compileTemplate(template: JsonValue): CompiledTemplate {
  if (typeof template === 'string') return compileString(template);
  if (Array.isArray(template)) {
    const items = template.map(compileTemplate);
    return (values) => items.map((item) => item(values) ?? null);
  }
  if (template !== null && typeof template === 'object') {
    const keys = Object.keys(template);
    const entries = keys.map((key) => compileTemplate(template[key]!));
    return (values) => {
      const out: { [key: string]: JsonValue } = {};
      for (let i = 0; i < keys.length; i++) {
        const rendered = entries[i]!(values);
        if (rendered !== undefined) out[keys[i]!] = rendered;
      }
      return out;
    };
  }
  return () => template;
}

function compileString(template: string): CompiledTemplate {
  const exact = EXACT_PLACEHOLDER.exec(template);
  if (exact) {
    const name = exact[1] as Placeholder;
    return (values) => valueOf(name, values);
  }
  // Literal text and placeholders in turn: parts[0], a placeholder, parts[2], ... (even: text).
  const parts: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(last, match.index), match[1]!);
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return () => template;
  parts.push(template.slice(last));
  return (values) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) out += interpolated(parts[i] as Placeholder, values) + parts[i + 1]!;
    return out;
  };
}

/** A placeholder inside a longer string: null as '', a list as JSON text. */
function interpolated(name: Placeholder, values: TemplateValues): string {
  const value = valueOf(name, values);
  if (name === 'mocks' || name === 'messages' || name === 'uiMessages') return value === undefined ? '' : JSON.stringify(value);
  return value === undefined || value === null ? '' : String(value as string | number);
}

/** The chat history to send; without one (a single message), that message as the user's. */
function messagesOf(values: TemplateValues): JsonValue {
  return values.messages ?? [{ role: 'user', content: values.message }];
}

/**
 * The history as the Vercel AI SDK's `useChat` sends it (DefaultChatTransport, AI SDK 5): UI
 * messages `{id, role, parts: [{type: 'text', text}]}`, user and assistant alike. Each message keeps
 * its id from turn to turn (`<session>-1`, `<session>-2`, ... by position), as a chat UI does.
 */
function uiMessagesOf(values: TemplateValues): JsonValue {
  const messages = messagesOf(values);
  if (!Array.isArray(messages)) return [];
  return messages.map((m, i) => {
    const { role, content } = m as unknown as ChatMessage;
    return { id: `${values.session}-${i + 1}`, role, parts: [{ type: 'text', text: content }] };
  });
}

type Placeholder = keyof TemplateValues | 'uiMessages';

function valueOf(name: Placeholder, values: TemplateValues): JsonValue | undefined {
  if (name === 'messages') return messagesOf(values);
  if (name === 'uiMessages') return uiMessagesOf(values);
  return values[name];
}

/**
 * Reads a dotted path (`choices.0.message.content`) from parsed JSON. Numeric segments index
 * arrays; any segment is an own-property key of an object. The empty path is the value itself.
 * Returns undefined when any step is missing.
 */
export function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current: unknown = value;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A short description of what was found at a path, for error messages (never the whole value). */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `${typeof value} ${String(value)}`;
}
