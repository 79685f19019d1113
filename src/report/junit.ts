// JUnit XML for CI systems: one testsuite, one testcase per fixture (classname = file,
// name = label). fail -> <failure>, not evaluated -> <skipped>, errored -> <error>.
// Every text is XML-escaped and characters XML 1.0 cannot carry are removed.

import type { FixtureRecord, RunRecord } from '../types.js';
import { clip } from './escape.js';
import { buildModel, routeText, statusWords } from './model.js';

// Not allowed in XML 1.0 (incl. lone surrogates), plus C1 controls and DEL which are discouraged.
const XML_INVALID = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(/[&<>"']/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

function body(f: FixtureRecord): string {
  const lines = [statusWords(f).join(' · '), f.errored ? f.error : f.detail];
  if (f.rationale) lines.push(`judge: ${f.rationale}`);
  if (!f.errored) {
    lines.push(`route: ${routeText(f.route)}`);
    if (f.reply !== null) lines.push('', 'reply:', f.reply);
    if (f.baseline && f.drift?.reply === 'different') lines.push('', 'baseline reply:', f.baseline.reply);
  }
  return xmlText(lines.join('\n'));
}

function testcase(f: FixtureRecord): string {
  const open = `    <testcase classname="${xmlAttr(f.file)}" name="${xmlAttr(f.label)}" time="${seconds(f.durationMs)}"`;
  const message = (text: string): string => xmlAttr(clip(text, 1000));
  if (f.errored) {
    const detail = f.error;
    return `${open}>\n      <error message="${message(detail)}" type="${xmlAttr(f.errorKind ?? 'errored')}">${body(f)}</error>\n    </testcase>`;
  }
  if (f.verdict === 'fail') {
    return `${open}>\n      <failure message="${message(f.detail)}" type="${xmlAttr(f.drift?.verdict ?? 'fail')}">${body(f)}</failure>\n    </testcase>`;
  }
  if (f.verdict !== 'pass') {
    return `${open}>\n      <skipped message="${message(`not evaluated (not a failure): ${f.detail}`)}"/>\n    </testcase>`;
  }
  return `${open}/>`;
}

export function renderJUnit(run: RunRecord): string {
  const t = buildModel(run).tallies;
  const counts = `tests="${run.fixtures.length}" failures="${t.failed}" errors="${t.errored}" skipped="${t.notEvaluated}" time="${seconds(run.durationMs)}"`;
  const name = xmlAttr(run.tool.name);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${counts}>`,
    `  <testsuite name="${name}" ${counts} timestamp="${xmlAttr(run.startedAt)}">`,
    ...run.fixtures.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
