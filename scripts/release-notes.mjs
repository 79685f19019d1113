// The release notes of one version: its section of CHANGELOG.md, without the heading. The release
// workflow (.github/workflows/release.yml) publishes them as the GitHub release's notes and fails
// when the section is missing or empty (docs/contributing.md, "Releasing").
//
//   node scripts/release-notes.mjs 1.2.3 [CHANGELOG.md]     (a leading v is accepted: v1.2.3)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The body under `## [1.2.3] - date` (or `## 1.2.3`, `## v1.2.3`) up to the next `## ` heading, trimmed; null when absent or empty. */
export function releaseNotes(changelog, version) {
  const v = version.replace(/^v/, '').replace(/[.+]/g, '\\$&');
  const heading = new RegExp(`^## \\[?v?${v}\\]?(?:\\s|$)`);
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((l) => heading.test(l));
  if (start === -1) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith('## '));
  // Link definitions (`[1.2.3]: https://...`, kept at the end of the file) are not notes.
  const body = (end === -1 ? rest : rest.slice(0, end))
    .filter((l) => !/^\[[^\]]+\]: \S+$/.test(l))
    .join('\n')
    .trim();
  return body === '' ? null : body;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [version, file = 'CHANGELOG.md'] = process.argv.slice(2);
  if (!version) {
    process.stderr.write('usage: node scripts/release-notes.mjs VERSION [CHANGELOG.md]\n');
    process.exit(2);
  }
  const notes = releaseNotes(readFileSync(file, 'utf8'), version);
  if (notes === null) {
    process.stderr.write(`${file}: no notes for ${version}: add a "## [${version.replace(/^v/, '')}] - YYYY-MM-DD" section with the changes, then tag again\n`);
    process.exit(1);
  }
  process.stdout.write(`${notes}\n`);
}
