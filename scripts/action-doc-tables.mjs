// Rewrites the input and output tables of docs/action.md from action.yml (test/action/inputs.test.ts
// checks they are equal).
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const action = parse(readFileSync('action.yml', 'utf8'));
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const inputs = [
  '| input | default | description |',
  '| --- | --- | --- |',
  ...Object.entries(action.inputs).map(([k, v]) => `| \`${k}\` | ${v.default !== undefined ? `\`${cell(v.default)}\`` : ''} | ${cell(v.description)} |`),
].join('\n');
const outputs = [
  '| output | description |',
  '| --- | --- |',
  ...Object.entries(action.outputs).map(([k, v]) => `| \`${k}\` | ${cell(v.description)} |`),
].join('\n');
const PAGE = 'docs/action.md';
let page = readFileSync(PAGE, 'utf8');
for (const [name, table] of [['inputs', inputs], ['outputs', outputs]]) {
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(\\n<!-- ${name}:end -->)`);
  if (!re.test(page)) throw new Error(`${PAGE} has no <!-- ${name}:start --> ... <!-- ${name}:end --> block`);
  page = page.replace(re, `$1${table}$2`);
}
writeFileSync(PAGE, page);
