// How deep a JSON text nests, found by scanning it: baseline files are read back with parsers that
// recurse once a level (the `yaml` document that places an error, zod's schema), and a hundred
// thousand levels (a few hundred kilobytes of `[`) would exhaust their stack, or crash the process
// outright when V8 compiles a regular expression at the stack's edge (docs/fixtures.md, "Baselines").

/** The most levels of lists and objects a baseline or results file may nest: a tool call's 256 (docs/presets.md, "Tool calls") under the file's own. */
export const MAX_JSON_DEPTH = 320;

/** The offset of the first `[` or `{` (outside strings) that opens a level deeper than `max`, or null. */
export function deepJsonOffset(text: string, max: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return null;
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
