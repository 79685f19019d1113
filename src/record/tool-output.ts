// A tool call's output in one shape (docs/results-json.md, "Tool calls"): the value the tool
// returned. Frameworks that carry it as text (chat tool messages, Responses function_call_output,
// Anthropic tool_result blocks, LangChain tool messages) serialize an object or array result to
// JSON text; that text is read back as the value, so the same result is recorded the same way
// whichever protocol carried it. Any other text (a sentence, a number written as text) stays text.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function toolOutput<T extends Json>(value: T): Json {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return value;
  try {
    return JSON.parse(t) as Json;
  } catch {
    return value;
  }
}
