// How a baseline file ends its lines and whether it starts with a UTF-8 byte-order mark, so that a
// rewrite keeps them (docs/fixtures.md, "Line endings and byte-order marks"): the CLI reads the
// file it replaces (write.ts), the Action the blob stored at the reviewed head (src/action/accept.ts).
// A new baseline takes the style of the folder's first baseline, chosen the same way in both
// (styleOfNewBaseline).

import { createHash } from 'node:crypto';

/** How a baseline file ends its lines and whether it starts with a byte-order mark. */
export interface FileStyle {
  crlf: boolean;
  bom: boolean;
}

export const LF_NO_BOM: FileStyle = { crlf: false, bom: false };

/** Every style a baseline is written in. */
export const FILE_STYLES: readonly FileStyle[] = [LF_NO_BOM, { crlf: true, bom: false }, { crlf: false, bom: true }, { crlf: true, bom: true }];

/** The style of a file from its first bytes: a mark is EF BB BF at the start; its first line ending decides CRLF. */
export function styleOfBytes(bytes: Uint8Array): FileStyle {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const lf = bytes.indexOf(0x0a);
  return { crlf: lf > 0 && bytes[lf - 1] === 0x0d, bom };
}

/** `text` (serializeBaseline's: LF line endings; every line break inside a value is escaped as \n) in `style`. */
export function inStyleOf(style: FileStyle, text: string): string {
  const lines = style.crlf ? text.replace(/\n/g, '\r\n') : text;
  return style.bom ? `\uFEFF${lines}` : lines;
}

/**
 * Whether two texts of a file are the same but for their style: their line endings (CRLF, LF) and a
 * byte-order mark. A baseline re-saved so (a Windows editor, a repository renormalized) reads as the
 * same baseline, so a pull request or a checkout that does only that edits no baseline (docs/fixtures.md,
 * "Line endings and byte-order marks").
 */
export function sameButStyle(a: string, b: string): boolean {
  const plain = (text: string): string => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  return a === b || plain(a) === plain(b);
}

/**
 * The style a new baseline is written in (docs/fixtures.md, "Line endings and byte-order marks"):
 * the style of the folder's first baseline by name (byte order, as git lists a folder), so that a
 * folder whose baselines are all CRLF or all marked stays so; LF without a mark when the folder holds
 * none, or its first one's style is not known. `names`: the names of the folder's regular files (not
 * links, not folders); only `.json` ones count. `styleOf`: the style of one of them, null when
 * unknown. Both accept flows choose so: the CLI from the working tree (write.ts), the Action from
 * the folder as stored at the reviewed head (src/action/accept.ts).
 */
export async function styleOfNewBaseline(names: readonly string[], styleOf: (name: string) => Promise<FileStyle | null>): Promise<FileStyle> {
  const first = names.filter((n) => n.endsWith('.json')).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))[0];
  return first === undefined ? LF_NO_BOM : ((await styleOf(first)) ?? LF_NO_BOM);
}

/** The id git gives a file of this text (a blob's SHA-1), as GitHub's trees and contents list it. */
export function gitBlobSha(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
