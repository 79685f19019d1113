// The page's one stylesheet and one script, allowed by hash in its Content-Security-Policy.
//
// The script reads the data block with JSON.parse(textContent) and builds every piece of agent
// text with createElement / textContent: nothing from the data is ever parsed as HTML. It does
// two things: the filters (verdict, drift, label search) hide rows and empty sections; a row's
// detail is drawn the first time it is opened.

import { WELCOME_TURN } from '../model.js';
import { CHART_COLOURS, darkChartRules, PAGE_COLOURS, rootColourVars } from './palette.js';

/** A side-by-side cell with nothing in it: stripes of the page's background and its panels' grey. */
function stripes(scheme: 'light' | 'dark'): string {
  const [bg, soft] = [PAGE_COLOURS.bg[scheme], PAGE_COLOURS.soft[scheme]];
  return `repeating-linear-gradient(135deg,${bg},${bg} 4px,${soft} 4px,${soft} 8px)`;
}

export const STYLE = `
:root{${rootColourVars('light')}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:${PAGE_COLOURS.bg.light}}
.wrap{max-width:1180px;margin:0 auto;padding:24px 24px 64px}
h1{font-size:20px;margin:0 0 4px;font-weight:600}
h2{font-size:16px;margin:0;font-weight:600}
h3{font-size:13px;margin:0 0 8px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.meta{color:var(--muted);margin:0 0 12px}
.headline{font-size:17px;font-weight:600;margin:0 0 16px;padding:10px 14px;border-radius:8px;border:1px solid var(--line);background:var(--soft)}
.headline.bad{color:var(--fail);border-color:${PAGE_COLOURS['fail-edge'].light};background:${PAGE_COLOURS['fail-panel'].light}}
.headline.good{color:var(--pass);border-color:${PAGE_COLOURS['pass-edge'].light};background:${PAGE_COLOURS['pass-panel'].light}}
.headline.grey{color:var(--muted)}
.headline.warn{color:var(--warn);border-color:${PAGE_COLOURS['warn-edge'].light};background:${PAGE_COLOURS['warn-panel'].light}}
.gate{margin:-8px 0 16px;overflow-wrap:anywhere}
.section.first>h2{font-size:17px}
.cause{color:var(--muted);margin:-8px 0 16px;overflow-wrap:anywhere}
h3.cause{margin:10px 0 2px;text-transform:none;letter-spacing:0;font-size:13px}
.notice{border:1px solid ${PAGE_COLOURS['warn-edge'].light};background:${PAGE_COLOURS['warn-panel'].light};border-radius:6px;padding:8px 12px;margin:0 0 16px}
.suite-edits p{margin:4px 0}.suite-edits ul{margin:4px 0;padding-left:20px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px;margin:0 0 16px}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 14px}
.card .n{font-size:24px;font-weight:600;display:block;line-height:1.3}
.card .k{color:var(--muted);font-size:12px}
.card.pass .n{color:var(--pass)}.card.fail .n{color:var(--fail)}.card.agree .n{color:var(--accent)}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:12px;margin:0 0 20px}
.panel{border:1px solid var(--line);border-radius:8px;padding:12px 14px;min-width:0}
.panel table{width:100%;border-collapse:collapse;font-size:13px}
.panel td,.panel th{padding:3px 6px 3px 0;text-align:left;vertical-align:middle}
.panel th{color:var(--muted);font-weight:500}
.panel td.aside{color:var(--muted);font-size:12px}
.panel td:first-child{overflow-wrap:break-word}
.panel td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.panel th.num{text-align:right}
.panel details{margin:4px 0}
.panel summary{cursor:pointer;color:var(--accent)}
.bar{vertical-align:middle}.bar .bg{fill:var(--soft)}.bar .fg{fill:var(--pass)}
.names{margin:2px 0 8px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:4px}
.names li{background:var(--soft);border:1px solid var(--line);border-radius:12px;padding:0 8px;font-size:12px}
.names.gap li{border-color:${PAGE_COLOURS['fail-edge'].light};background:var(--del-bg)}
svg.trend{width:100%;height:auto;max-height:200px}
svg.trend .grid{stroke:${CHART_COLOURS.grid.light};stroke-width:1}
svg.trend .axis{fill:var(--muted);font-size:11px}
svg.trend .trend-line{stroke:var(--accent);stroke-width:2}
svg.trend .trend-point{fill:var(--accent)}
.panel.wide{grid-column:1/-1;overflow-x:auto}
/* A chart drawn 720 wide keeps its 11-12 px text at 10 px or more: on a phone it scrolls in its panel, not the page. */
svg.forest,svg.latency{min-width:600px}
svg.latency{width:100%;height:auto}
svg.latency .track{fill:var(--soft)}
svg.latency .before{fill:${CHART_COLOURS.baseline.light}}
svg.latency .now{fill:var(--accent)}
svg.latency .now.fast{fill:var(--pass)}
svg.latency .now.slow{fill:var(--fail)}
svg.latency .mark{stroke:var(--muted);stroke-width:1;stroke-dasharray:3 3}
svg.latency .axis{fill:var(--muted);font-size:11px}
svg.latency .label,svg.latency .value{fill:var(--fg);font-size:12px}
svg.latency .value{font-variant-numeric:tabular-nums}
svg.latency .value.slow{fill:var(--fail);font-weight:600}
.lat-legend .key{display:inline-block;width:12px;height:8px;border-radius:2px;vertical-align:middle;margin-left:6px}
.lat-legend .key.before{background:${CHART_COLOURS.baseline.light}}.lat-legend .key.now{background:var(--accent)}.lat-legend .key.slow{background:var(--fail)}.lat-legend .key.fast{background:var(--pass)}
.filters{position:sticky;top:0;z-index:2;background:${PAGE_COLOURS.bg.light};border-bottom:1px solid var(--line);padding:10px 0;margin:0 0 12px;display:flex;flex-wrap:wrap;gap:8px 18px;align-items:center}
.filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px;align-items:center}
.filters legend{float:left;margin-right:6px;color:var(--muted);font-size:12px}
.chip{display:inline-flex;align-items:center}
.chip input{position:absolute;opacity:0;width:1px;height:1px}
.chip span{border:1px solid var(--line);border-radius:14px;padding:2px 10px;font-size:12px;cursor:pointer;background:${PAGE_COLOURS.bg.light};user-select:none}
.chip input:checked+span{background:var(--fg);border-color:var(--fg);color:${PAGE_COLOURS.bg.light}}
.chip input:focus-visible+span{outline:2px solid var(--accent);outline-offset:1px}
.chip span b{font-weight:500;opacity:.7;margin-left:1px}
.filters input[type=search]{border:1px solid var(--line);border-radius:6px;padding:4px 8px;font:inherit;min-width:200px}
.shown{color:var(--muted);font-size:12px;margin-left:auto}
.section{margin:0 0 18px}
.section>h2{padding:6px 0;border-bottom:1px solid var(--line);margin-bottom:4px}
.section>h2 .n{color:var(--muted);font-weight:400;margin-left:2px}
.item{border-bottom:1px solid ${CHART_COLOURS.grid.light}}
.item>summary{display:grid;grid-template-columns:124px minmax(160px,1.2fr) minmax(140px,1fr) minmax(120px,.8fr);gap:4px 12px;padding:6px 4px;cursor:pointer;list-style:none;align-items:baseline}
.item>summary::-webkit-details-marker{display:none}
.item>summary:hover{background:var(--soft)}
.item[open]>summary{background:var(--soft)}
.item .label{font-weight:600;overflow-wrap:anywhere}
.item .drift{color:var(--muted);font-size:12px}
.item .file{color:var(--muted);font-size:12px;overflow-wrap:anywhere}
.item .why{grid-column:2/-1;color:var(--muted);font-size:12px;overflow-wrap:anywhere}
.item>.src{margin:6px 0 0 19px;font-size:12px;overflow-wrap:anywhere}
.pill{display:inline-block;white-space:nowrap;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid}
.pill.pass{color:var(--pass);border-color:${PAGE_COLOURS['pass-edge'].light};background:${PAGE_COLOURS['pass-panel'].light}}
.pill.fail{color:var(--fail);border-color:${PAGE_COLOURS['fail-edge'].light};background:${PAGE_COLOURS['fail-panel'].light}}
.pill.not_evaluated,.pill.errored{color:var(--muted);border-color:var(--line);background:var(--soft)}
.item>summary .pill{white-space:normal}
.body{padding:8px 4px 16px 12px;border-left:3px solid var(--line);margin:0 0 8px 4px}
.body dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}
.body dt{color:var(--muted)}
.body dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}
pre,.text{white-space:pre-wrap;overflow-wrap:anywhere;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}
.reply{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:4px 0 10px}
.reply.user{background:${PAGE_COLOURS.bg.light};border-color:${PAGE_COLOURS['user-edge'].light};border-left:3px solid var(--accent)}
table.sbs{width:100%;border-collapse:collapse;table-layout:fixed;margin:4px 0 10px;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.sbs th{font:600 12px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;text-align:left;padding:4px 8px;background:var(--soft);border:1px solid var(--line)}
table.sbs td{vertical-align:top;padding:2px 8px;border-left:1px solid var(--line);border-right:1px solid var(--line);white-space:pre-wrap;overflow-wrap:anywhere}
table.sbs tr:last-child td{border-bottom:1px solid var(--line)}
table.sbs td.del{background:var(--del-bg)}table.sbs td.ins{background:var(--ins-bg)}
table.sbs td.same{color:var(--muted)}
table.sbs caption{caption-side:bottom;text-align:left;padding:2px 0;color:var(--muted);font:12px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
table.sbs td.none{background:${stripes('light')}}
/* A changed word: tinted and underlined, not only tinted (1.3:1 against its cell); never struck through, it is read. */
del{background:var(--del-mark);text-decoration:underline 1px;text-underline-offset:3px;border-radius:2px}
ins{background:var(--ins-mark);text-decoration:underline 1px;text-underline-offset:3px;border-radius:2px}
button.more{font:12px/1.4 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;border:0;background:none;color:var(--accent);cursor:pointer;padding:0}
.turn{margin:0 0 10px}
.turn .who{font-size:12px;color:var(--muted);margin:0 0 2px}
.turn .who b{color:var(--fg)}
.route{font:11.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:${PAGE_COLOURS['route-bg'].light};border-radius:4px;padding:0 5px;margin-left:2px;color:${PAGE_COLOURS.route.light}}
.calls{margin:2px 0 6px 12px;padding:0;list-style:none;font-size:12px}
.calls code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.warn{color:var(--fail)}
.calls .src{color:var(--muted)}
details.spans{margin:2px 0 8px;font-size:12px}
details.spans>summary{cursor:pointer;color:var(--muted)}
p.spans{margin:2px 0 8px;font-size:12px;color:var(--muted)}
.wf-legend{margin:4px 0;color:var(--muted)}
.wf-legend .key{display:inline-block;width:10px;height:10px;border-radius:2px;vertical-align:middle;margin:0 4px 0 10px}
.wf-legend .key:first-child{margin-left:0}
.key.model,.wf-bar.model{background:${CHART_COLOURS.accent.light}}
.key.tool,.wf-bar.tool{background:${PAGE_COLOURS.tool.light}}
.key.other,.wf-bar.other{background:${PAGE_COLOURS.other.light}}
.wf{max-width:820px}
.wf-row{display:grid;grid-template-columns:260px 1fr 64px;gap:8px;align-items:center;height:18px}
.wf-name{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font:11.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.wf-row.error .wf-name{color:var(--fail);font-weight:600}
.wf-track{position:relative;height:12px;background:var(--soft);border-radius:2px}
.wf-bar{position:absolute;top:1px;bottom:1px;min-width:2px;border-radius:2px}
.wf-bar.error{outline:2px solid var(--fail);outline-offset:0}
.wf-dur{color:var(--muted);text-align:right;font-variant-numeric:tabular-nums}
.wf-scale{display:flex;justify-content:space-between;color:var(--muted);font-size:11px}
table.checks{border-collapse:collapse;width:100%;margin:0 0 12px;font-size:13px}
table.checks td,table.checks th{border-bottom:1px solid ${CHART_COLOURS.grid.light};padding:4px 8px 4px 0;text-align:left;vertical-align:top;overflow-wrap:anywhere}
table.checks th{color:var(--muted);font-weight:500}
table.attempts td:nth-child(3){min-width:9em}table.attempts .note{color:var(--muted)}
table.checks th,table.checks td:nth-child(-n+2){overflow-wrap:break-word}
.empty{color:var(--muted);padding:24px 0;text-align:center}
.hidden-heading{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
/* A reader whose system is dark gets the page dark (GitHub's dark colours); the charts' presentation
   attributes (forest.ts) are recoloured by their value, from palette.ts's table. */
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;${rootColourVars('dark')}}
body,.filters,.chip span,.reply.user{background:${PAGE_COLOURS.bg.dark}}
.headline.bad,.pill.fail{border-color:${PAGE_COLOURS['fail-edge'].dark};background:${PAGE_COLOURS['fail-panel'].dark}}
.headline.good,.pill.pass{border-color:${PAGE_COLOURS['pass-edge'].dark};background:${PAGE_COLOURS['pass-panel'].dark}}
.notice,.headline.warn{border-color:${PAGE_COLOURS['warn-edge'].dark};background:${PAGE_COLOURS['warn-panel'].dark}}
.names.gap li{border-color:${PAGE_COLOURS['fail-edge'].dark}}
.item,table.checks td,table.checks th{border-color:${CHART_COLOURS.grid.dark}}
svg.trend .grid{stroke:${CHART_COLOURS.grid.dark}}
.chip input:checked+span{color:${PAGE_COLOURS.bg.dark}}
.reply.user{border-color:${PAGE_COLOURS['user-edge'].dark}}
table.sbs td.none{background:${stripes('dark')}}
.route{background:${PAGE_COLOURS['route-bg'].dark};color:${PAGE_COLOURS.route.dark}}
.key.model,.wf-bar.model{background:${CHART_COLOURS.accent.dark}}
${darkChartRules()}
}
@media (max-width:720px){.item>summary{grid-template-columns:90px 1fr}.item .drift,.item .file{grid-column:2}.item .why{grid-column:1/-1}.wf-row{grid-template-columns:minmax(0,38%) 1fr 56px}}
`;

export const SCRIPT = `(function () {
'use strict';
var data = JSON.parse(document.getElementById('ar-data').textContent);
var items = data.items;
var rows = Array.prototype.slice.call(document.querySelectorAll('details.item'));
var sections = Array.prototype.slice.call(document.querySelectorAll('section.section'));
var causes = Array.prototype.slice.call(document.querySelectorAll('section.section h3.cause'));
var state = { verdict: 'all', drift: 'all', q: '' };

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text != null) e.textContent = String(text);
  return e;
}
function add(parent, child) { parent.appendChild(child); return child; }
// A table's column headings, each named and scoped to its column: a column headed by nothing is read with no name.
function heads(table, names) {
  var tr = add(add(table, el('thead')), el('tr'));
  names.forEach(function (x) { add(tr, el('th', null, x)).scope = 'col'; });
  return tr;
}
// One of our own lines (a why, a check's detail), each address of an agent-replay page in it a link
// labelled docs/<page>.md#<section>, as the markup draws them (escape.ts); the rest text nodes.
var DOCS = /https:\\/\\/github\\.com\\/agent-replay\\/agent-replay\\/blob\\/v\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.]+)?\\/(docs\\/(?:[a-z-]+\\/)?[a-z-]+\\.md(?:#[a-z0-9_-]+)?)(?![\\w#\\u2026-])/g;
function linked(tag, cls, text) {
  var e = el(tag, cls);
  if (text === undefined || text == null) return e;
  var s = String(text), at = 0, m;
  DOCS.lastIndex = 0;
  while ((m = DOCS.exec(s)) !== null) {
    e.appendChild(document.createTextNode(s.slice(at, m.index)));
    var a = add(e, el('a', null, m[1]));
    a.href = m[0];
    a.rel = 'noreferrer noopener';
    at = m.index + m[0].length;
  }
  e.appendChild(document.createTextNode(s.slice(at)));
  return e;
}
// A count as the markup writes it (words.ts thousands): 2,001, not 2001.
function grouped(n) { return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }

function driftMatches(row) {
  var d = state.drift;
  if (d === 'all') return true;
  if (d === 'changed') return row.getAttribute('data-changed') === '1';
  if (d === 'reworded') return row.getAttribute('data-reworded') === '1';
  return row.getAttribute('data-drift') === d;
}
function apply() {
  var shown = 0;
  for (var i = 0; i < rows.length; i++) {
    var r = rows[i];
    var ok = (state.verdict === 'all' || r.getAttribute('data-verdict') === state.verdict) && driftMatches(r) &&
      (state.q === '' || r.getAttribute('data-label').indexOf(state.q) !== -1);
    r.hidden = !ok;
    if (ok) shown++;
  }
  // A cause heading goes with its group: hidden when the filters leave none of its rows.
  for (var c = 0; c < causes.length; c++) {
    var any = false;
    for (var x = causes[c].nextElementSibling; x && !x.classList.contains('cause'); x = x.nextElementSibling) {
      if (x.classList.contains('item') && !x.hidden) { any = true; break; }
    }
    causes[c].hidden = !any;
  }
  for (var s = 0; s < sections.length; s++) {
    var visible = sections[s].querySelectorAll('details.item:not([hidden])').length;
    sections[s].hidden = visible === 0;
    sections[s].querySelector('h2 .n').textContent = grouped(visible);
  }
  document.getElementById('ar-shown').textContent = grouped(shown) + ' of ' + grouped(rows.length) + ' shown';
  document.getElementById('ar-none').hidden = shown !== 0;
}
document.querySelectorAll('input[name=verdict]').forEach(function (input) {
  input.addEventListener('change', function () { state.verdict = input.value; apply(); });
});
document.querySelectorAll('input[name=drift]').forEach(function (input) {
  input.addEventListener('change', function () { state.drift = input.value; apply(); });
});
var search = document.getElementById('ar-search');
search.addEventListener('input', function () { state.q = search.value.trim().toLowerCase(); apply(); });
// The filters stay at the top as the page scrolls: a row the keyboard moves to is scrolled into view
// below them, not under them (their height, which wraps on a phone, kept as the page's scroll padding).
var filters = document.querySelector('nav.filters');
function clearOfFilters() { document.documentElement.style.scrollPaddingTop = (filters.offsetHeight + 4) + 'px'; }
if (window.ResizeObserver) new ResizeObserver(clearOfFilters).observe(filters); else clearOfFilters();

function segsInto(cell, segs, tag) {
  if (segs.length === 0) { add(cell, el(tag, null, '\\u00b6')); return; }
  for (var i = 0; i < segs.length; i++) {
    if (segs[i][1]) add(cell, el(tag, null, segs[i][0]));
    else add(cell, document.createTextNode(segs[i][0]));
  }
}
function sameText(units) {
  var out = '';
  for (var i = 0; i < units.length; i++) {
    var u = units[i];
    if (u === '') out += '\\n\\n';
    else out += (out === '' || out.slice(-1) === '\\n' ? '' : ' ') + u;
  }
  return out;
}
function sideBySide(diff, left, right) {
  var t = el('table', 'sbs');
  heads(t, [left, right]);
  var body = add(t, el('tbody'));
  var unit = diff.whitespaceOnly ? ['unchanged line', 'unchanged lines'] : ['unchanged sentence', 'unchanged sentences'];
  diff.rows.forEach(function (row) {
    var tr = add(body, el('tr'));
    if (row.same) {
      var n = row.same.filter(function (u) { return u !== ''; }).length;
      var text = sameText(row.same);
      if (n <= 2) {
        add(tr, el('td', 'same', text));
        add(tr, el('td', 'same', text));
        return;
      }
      var cell = add(tr, el('td', 'same'));
      cell.colSpan = 2;
      var button = add(cell, el('button', 'more', '\\u22ef ' + n + ' ' + unit[1] + ' (show)'));
      button.type = 'button';
      button.addEventListener('click', function () {
        tr.removeChild(cell);
        var shown = add(tr, el('td', 'same', text));
        add(tr, el('td', 'same', text));
        // The focus stays on what the reader asked to see, not back at the page's top.
        shown.tabIndex = -1;
        shown.focus();
      });
      return;
    }
    var a = add(tr, el('td', row.a ? 'del' : 'none'));
    if (row.a) segsInto(a, row.a, 'del');
    var b = add(tr, el('td', row.b ? 'ins' : 'none'));
    if (row.b) segsInto(b, row.b, 'ins');
  });
  // What ⟨U+…⟩ means, under the table, when a row shows one (as the comment says it above its diff).
  if (diff.legend) {
    var caption = t.createCaption();
    caption.textContent = diff.legend;
  }
  return t;
}
function dl(parent, pairs) {
  var list = add(parent, el('dl'));
  pairs.forEach(function (p) {
    if (p[1] == null || p[1] === undefined || p[1] === '') return;
    add(list, el('dt', null, p[0]));
    add(list, (p[3] ? linked : el)('dd', p[2] || null, p[1]));
  });
  return list;
}
function block(parent, title, text) {
  add(parent, el('h3', null, title));
  add(add(parent, el('div', 'reply')), el('div', 'text', text === '' ? '(empty)' : text));
}
function fixtureBody(body, f) {
  fixtureMain(body, f);
  // A fixture has no mocks (docs/traces.md, "Fixtures"): its calls are real, and not flagged as unmocked.
  if (f.toolCalls) { add(body, el('h3', null, 'Tool calls')); callList(body, f.toolCalls, true); }
  spansBlock(body, f.trace);
  attemptsTable(body, f.attempts, 'reply', f.attemptsJudge, f.attemptsOthers);
}
function fixtureMain(body, f) {
  var judge = f.judge ? [
    f.judge.score == null ? 'no score' : 'score ' + f.judge.score.toFixed(2),
    f.judge.threshold == null ? '' : ' (threshold ' + f.judge.threshold.toFixed(2) + ')',
    f.judge.rationale ? ': ' + f.judge.rationale : ''
  ].join('') : null;
  dl(body, [
    ['Message', f.message === '' ? '(empty)' : f.message],
    ['Persona', f.persona],
    ['Assertion', f.assertion],
    ['Why', f.error == null ? f.detail : null, null, true],
    ['Judge', judge],
    ['Error', f.error, 'warn', true],
    ['Route', f.routeChanged && f.baseline ? f.baseline.route + ' \\u2192 ' + f.route : null]
  ]);
  if (f.messageEdited) messageEdited(body, f);
  if (f.judge && f.judge.members) panelList(body, f.judge.members);
  if (f.diff) {
    add(body, el('h3', null, 'Baseline \\u2192 new reply'));
    var when = f.baseline ? ' \\u00b7 ' + f.baseline.verdict + ', accepted ' + f.baseline.acceptedAt.slice(0, 10) + (f.baseline.commit ? ' in ' + f.baseline.commit.slice(0, 7) : '') : '';
    add(body, sideBySide(f.diff, 'Baseline \\u00b7 ' + f.baseline.route + when, 'New \\u00b7 ' + f.route));
    return;
  }
  if (f.reply == null) return;
  if (f.diffNote) add(body, el('p', 'drift', 'Replies differ: ' + f.diffNote));
  if (f.baseline && f.baseline.reply != null) block(body, 'Baseline reply \\u00b7 ' + f.baseline.route, f.baseline.reply);
  // An errored item's reply is shown as it came, never compared with the baseline's.
  var same = f.error != null ? ' (not compared: the item errored)' : f.baseline && f.baseline.reply == null && !f.diffNote ? ', same as the baseline' : '';
  block(body, 'Reply' + same + ' \\u00b7 ' + f.route, f.reply);
  if (f.lookalikes) add(body, el('p', 'drift', 'Look-alike letters from another script, by their code: ' + f.lookalikes.join(', ')));
}
// A fixture edited since its baseline: the message the baseline answered beside the one now.
function messageEdited(body, f) {
  var e = f.messageEdited;
  if (e.diff) {
    add(body, el('h3', null, 'Message, edited since the baseline'));
    add(body, sideBySide(e.diff, 'The message the baseline answered', 'The message now'));
  } else if (e.baseline != null) block(body, 'The message the baseline answered (edited since)', e.baseline);
  if ('personaWas' in e) add(body, el('p', 'drift', 'Persona edited since the baseline: ' + (e.personaWas == null ? 'none' : e.personaWas) + ' \\u2192 ' + (f.persona == null ? 'none' : f.persona)));
}
var STATUS = { pass: 'pass', fail: 'fail', not_evaluated: 'not evaluated', errored: 'errored' };
function attemptsTable(body, attempts, what, judge, others) {
  if (!attempts) return;
  add(body, el('h3', null, 'Attempts'));
  // Sentences as the data gives them: their capitals are the product's (words.ts), not the page's.
  if (others) add(body, el('p', 'drift', others));
  if (judge) add(body, el('p', 'drift', judge));
  var t = add(body, el('table', 'checks attempts'));
  // "attempt", not "#": a screen reader read the heading as "number sign".
  heads(t, ['attempt', 'outcome', 'why', what]);
  var tb = add(t, el('tbody'));
  attempts.forEach(function (a) {
    var tr = add(tb, el('tr'));
    add(tr, el('td', null, String(a.n) + (a.shown ? ' (shown)' : '')));
    add(add(tr, el('td')), el('span', 'pill ' + a.outcome, STATUS[a.outcome]));
    add(tr, linked('td', null, a.detail));
    var cell = add(tr, el('td'));
    if (a.standing) add(cell, el('p', 'drift', a.standing));
    if (a.note) add(cell, el('span', 'note', a.note + (a.reply != null ? ': ' : '')));
    if (a.reply != null) add(cell, el('div', 'text', a.reply));
    // An errored attempt whose stream was cut short: the calls it had begun (docs/presets.md, "Streamed replies").
    if (a.toolCalls) {
      add(cell, el('span', 'note', 'tool calls begun before the answer was cut short:'));
      callList(cell, a.toolCalls, true);
    }
  });
}
function panelList(parent, lines) {
  var box = add(parent, el('div', 'panel-members'));
  add(box, el('p', 'drift', 'Panel: ' + lines[0]));
  var list = add(box, el('ul'));
  lines.slice(1).forEach(function (line) { add(list, el('li', null, line)); });
}
function checksTable(body, checks) {
  if (checks.length === 0) { add(body, el('p', 'drift', 'No checks ran.')); return; }
  var t = add(body, el('table', 'checks'));
  heads(t, ['result', 'check', 'expected', 'observed', 'why']);
  var tb = add(t, el('tbody'));
  checks.forEach(function (c) {
    var tr = add(tb, el('tr'));
    add(add(tr, el('td')), el('span', 'pill ' + c.status, STATUS[c.status]));
    add(tr, el('td', null, c.name));
    add(tr, el('td', null, c.expected));
    add(tr, el('td', null, c.observed));
    var why = add(tr, linked('td', null, c.detail));
    if (c.members) panelList(why, c.members);
  });
}
function turnBlock(body, t, live) {
  var box = add(body, el('div', 'turn'));
  if (t.message != null) {
    var who = add(box, el('p', 'who'));
    add(who, el('b', null, 'Turn ' + t.index + ' \\u00b7 User' + (t.source ? ' (' + t.source + ')' : '')));
    add(add(box, el('div', 'reply user')), el('div', 'text', t.message === '' ? '(empty)' : t.message));
  }
  var agent = add(box, el('p', 'who'));
  add(agent, el('b', null, t.message == null ? '${WELCOME_TURN} \\u00b7 Agent' : 'Agent'));
  // A space, not only the badge's margin: a screen reader read "Agentmain / welcome".
  add(agent, document.createTextNode(' '));
  add(agent, el('span', 'route', t.route));
  if (t.outcome != null) add(agent, el('span', null, ' \\u00b7 outcome ' + t.outcome));
  if (t.baseline && t.baseline.meaning) add(box, el('p', 'drift', "Against the baseline's reply: " + t.baseline.meaning));
  if (t.baseline && t.baseline.diff) {
    var note = t.baseline.route ? ' \\u00b7 route was ' + t.baseline.route : '';
    add(box, sideBySide(t.baseline.diff, 'Baseline' + note, 'This run \\u00b7 ' + t.route));
  } else {
    add(add(box, el('div', 'reply')), el('div', 'text', t.reply === '' ? '(empty)' : t.reply));
    if (t.baseline && t.baseline.diffNote) add(box, el('p', 'drift', "The reply differs from the baseline's: " + t.baseline.diffNote));
    if (t.baseline && t.baseline.route) add(box, el('p', 'drift', 'Route changed: the baseline was ' + t.baseline.route));
  }
  if (t.baseline && t.baseline.missing) add(box, el('p', 'drift', 'The baseline has no turn here.'));
  if (t.baseline && t.baseline.message != null) add(box, el('p', 'drift', (t.baseline.messageChanged || "The script's message changed") + '; the baseline sent: ' + t.baseline.message));
  callList(box, t.toolCalls, live);
  t.errors.forEach(function (e) { add(box, el('p', 'warn', 'Agent error: ' + e)); });
  spansBlock(box, t.trace);
}
function callList(parent, list, live) {
  if (!list || list.length === 0) return;
  var calls = add(parent, el('ul', 'calls'));
  list.forEach(function (c) {
    var li = add(calls, el('li'));
    add(li, document.createTextNode('\\u2699 '));
    add(li, el('code', null, c.tool + ' ' + c.input));
    add(li, document.createTextNode(' \\u2192 '));
    add(li, el('code', null, c.output));
    if (!c.mocked && !live) add(li, el('span', 'warn', ' (not mocked: the real tool was called)'));
    if (c.trace) add(li, el('span', 'src', ' (from trace)'));
  });
}
function ms(v) { var t = Math.round(v / 100); return Math.round(v) < 1000 ? Math.round(v) + ' ms' : Math.floor(t / 10) + '.' + (t % 10) + ' s'; }
function pct(v) { return (Math.round(v * 10000) / 100) + '%'; }
function spansBlock(parent, tr) {
  if (!tr) return;
  var words = ['Spans: ' + (tr.spans || 'not counted')];
  if (tr.split) words.push(tr.split);
  if (!tr.bars || tr.bars.length === 0) { add(parent, el('p', 'spans', words.join(' \\u00b7 '))); return; }
  var box = add(parent, el('details', 'spans'));
  add(box, el('summary', null, words.join(' \\u00b7 ')));
  var legend = add(box, el('p', 'wf-legend'));
  var parts = tr.split ? tr.split.split(' \\u00b7 ') : ['model', 'tool', 'other'];
  ['model', 'tool', 'other'].forEach(function (k, i) {
    add(legend, el('span', 'key ' + k));
    add(legend, document.createTextNode(parts[i] || k));
  });
  if (tr.bars.some(function (b) { return b.error; })) add(legend, el('span', 'warn', ' \\u00b7 \\u2716 failed span'));
  var end = tr.latencyMs || 0;
  tr.bars.forEach(function (b) { end = Math.max(end, b.start + b.dur); });
  if (end <= 0) end = 1;
  var wf = add(box, el('div', 'wf'));
  wf.setAttribute('role', 'list');
  tr.bars.forEach(function (b) {
    var row = add(wf, el('div', 'wf-row' + (b.error ? ' error' : '')));
    row.setAttribute('role', 'listitem');
    var name = add(row, el('span', 'wf-name', (b.error ? '\\u2716 ' : '') + b.name));
    name.title = b.name + ' (' + b.kind + (b.error ? ', failed' : '') + ')';
    name.style.paddingLeft = (b.depth * 10) + 'px';
    var track = add(row, el('span', 'wf-track'));
    var bar = add(track, el('span', 'wf-bar ' + b.kind + (b.error ? ' error' : '')));
    var left = Math.min(1, b.start / end);
    bar.style.left = pct(left);
    bar.style.width = pct(Math.min(1 - left, b.dur / end));
    var took = b.took != null ? b.took : b.dur;
    bar.title = b.name + (b.took != null ? ': starts before the request was sent, takes ' : ': starts at ' + ms(b.start) + ', takes ') + ms(took);
    add(row, el('span', 'wf-dur', ms(took)));
  });
  var axis = add(wf, el('div', 'wf-row wf-axis'));
  add(axis, el('span'));
  var scale = add(axis, el('span', 'wf-scale'));
  add(scale, el('span', null, '0'));
  add(scale, el('span', null, ms(end)));
  add(axis, el('span'));
}
function decisiveBlock(body, p) {
  var d = p.decisive;
  var was = 'attempt ' + p.shownAttempt;
  add(body, el('h3', null, 'Attempt ' + d.n + "'s checks (" + STATUS[d.verdict] + ')'));
  checksTable(body, d.checks);
  var t = d.turn;
  if (!t) return;
  var head = 'Attempt ' + d.n + ', ' + t.name;
  if (t.diff) {
    add(body, el('h3', null, head + ', against ' + was + "'s"));
    add(body, sideBySide(t.diff, 'Attempt ' + p.shownAttempt, 'Attempt ' + d.n));
  } else if (t.reply != null) {
    block(body, head + (t.shown == null ? ': ' + was + ' has no such turn' : ', against ' + was + "'s (not diffed: " + (t.note || 'too long') + ')'), t.reply);
  } else add(body, el('p', 'drift', head + ': attempt ' + d.n + ' has no such turn; ' + was + "'s is in the transcript."));
}
function personaBody(body, p) {
  dl(body, [
    ['Persona', p.persona],
    ['Visited', p.visited.length ? p.visited.join(' \\u2192 ') : 'none'],
    ['Outcome', p.outcome],
    ['Ended', p.ended],
    ['Error', p.error, 'warn', true],
    ['Simulated user', p.simulation ? 'goal: ' + p.simulation.goal + ' \\u00b7 ' + p.simulation.facts.join(' \\u00b7 ') : null],
    ['Not evaluated', p.simulation && p.simulation.fault ? p.simulation.fault + ' (not a failure: the agent was not measured)' : null]
  ]);
  // A repeated script (docs/fixtures.md, "Reports"): whose checks these are, then the first attempt
  // with the script's verdict when it is another: its checks, and its turn that replied otherwise.
  add(body, el('h3', null, p.shownAttempt ? "Checks (attempt " + p.shownAttempt + "'s, the attempt shown)" : 'Checks'));
  checksTable(body, p.checks);
  if (p.decisive) decisiveBlock(body, p);
  attemptsTable(body, p.attempts, 'first reply unlike the attempt shown', p.attemptsJudge, p.attemptsOthers);
  add(body, el('h3', null, 'Transcript'));
  p.turns.forEach(function (t) { turnBlock(body, t, p.live); });
  if (p.droppedTurns > 0) add(body, el('p', 'drift', 'The baseline had ' + p.droppedTurns + ' more turn' + (p.droppedTurns === 1 ? '' : 's') + '.'));
  if (p.stopped || p.stoppedCalls) {
    var stop = add(body, el('div', 'turn'));
    if (p.stopped) {
      add(add(stop, el('p', 'who')), el('b', null, 'Turn ' + p.stopped.index + ' \\u00b7 User'));
      add(add(stop, el('div', 'reply user')), el('div', 'text', p.stopped.message === '' ? '(empty)' : p.stopped.message));
    }
    // The calls its stream had begun when it was cut short (docs/presets.md, "Streamed replies").
    if (p.stoppedCalls) {
      add(stop, el('p', 'drift', 'Tool calls begun before the answer was cut short:'));
      callList(stop, p.stoppedCalls, p.live);
    }
    add(stop, el('p', 'drift', p.stopped ? 'The run stopped on this turn: no answer was recorded.' : 'The run stopped: no answer was recorded.'));
  }
  if (p.unsent.length > 0) {
    add(body, el('h3', null, p.unsentHead || 'Not sent'));
    var ul = add(body, el('ul', 'calls'));
    p.unsent.forEach(function (m, i) { add(ul, el('li', 'text', (p.unsentFirst ? (p.unsentFirst + i) + ' \u00b7 User: ' : '') + m)); });
  }
}
function fill(row) {
  var item = items[Number(row.getAttribute('data-i'))];
  var body = row.querySelector('.body');
  if (!item || !body || body.childNodes.length > 0) return;
  if (item.kind === 'persona') personaBody(body, item);
  else fixtureBody(body, item);
}
document.addEventListener('toggle', function (ev) {
  var row = ev.target;
  if (row && row.classList && row.classList.contains('item') && row.open) fill(row);
}, true);
rows.forEach(function (row) { if (row.open) fill(row); });
apply();
})();
`;

/**
 * SHA-256 (base64) of SCRIPT and STYLE, for the CSP. They are constants, so their hashes are too:
 * kept here rather than computed at every start. When you edit SCRIPT or STYLE, the test
 * "is self-contained" in test/report/html.test.ts fails and prints the new values.
 */
const SCRIPT_SHA256 = 'hpWGo1qPdc0Fp00nzUyuNHqEW1aJ3wWPX50w6TidrUw=';
const STYLE_SHA256 = 'DcJHiYLYSf2JIiJugHmnqU2PMFZhEzEiP+8r2TXdUI4=';

/** The Content-Security-Policy: nothing may load; only this stylesheet and this script run. */
export const CSP = [
  "default-src 'none'",
  `script-src 'sha256-${SCRIPT_SHA256}'`,
  `style-src 'sha256-${STYLE_SHA256}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
