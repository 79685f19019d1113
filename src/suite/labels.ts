// Labels name fixtures and their baseline files, so they must be safe file names.

import path from 'node:path';

export const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

export const LABEL_RULE = '1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit';

export function isValidLabel(s: string): boolean {
  return LABEL_RE.test(s);
}

/** A valid label close to `s`, to suggest in a fix (`../../etc/passwd` -> `etc-passwd`). */
export function suggestLabel(s: string): string {
  const slug = s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 80);
  return slug === '' ? 'my-fixture' : slug;
}

/**
 * The baseline file of `label` (`<baselinesDir>/<label>.json`, relative if `baselinesDir` is).
 * Throws on an invalid label or a path outside `baselinesDir`. */
export function baselinePath(baselinesDir: string, label: string): string {
  if (!isValidLabel(label)) {
    throw new Error(`invalid label ${JSON.stringify(label)}: a label is ${LABEL_RULE}`);
  }
  const root = path.resolve(baselinesDir);
  // Joined by hand: the bundler rewrites path.resolve(<dynamic>, <literal>) into an asset path.
  const fileName = `${label}.json`;
  const file = path.normalize(root + path.sep + fileName);
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || rel.includes(path.sep)) {
    throw new Error(`baseline path for label ${JSON.stringify(label)} escapes ${baselinesDir}`);
  }
  return path.join(baselinesDir, fileName);
}
