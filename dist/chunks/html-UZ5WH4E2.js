import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{DEFAULT_CONTEXT,agreementBasis}from"./chunk-RABBQNQE.js";import{CHECK_NAMES,SOURCE_WORDS,checkDetail,checkSubject,decisiveTurn,faultLine,lineChecks,lineWords,liveWords,matchMark,meaningOffAfter,messageChanged,notSent,replyWords,scriptEndedWords,simulationFacts,sourceMark,spanCountsText,stoppedOn,timeSplitText,turnMeaningWords,unsentWhy,withMeaningHead}from"./chunk-GL4XUKJ3.js";import{compactCount,judgeFallbackText,spendText,suiteEditsParts,usageChangeWords}from"./chunk-GX7JADNJ.js";import{CHARACTER_NAME_LEGEND,DRIFT_WORDS,MAX_DIFF_CHARS,MAX_UNIT_EDITS,MIXED_SELECTION,SCRIPT_MARK,SECTION_WORDS,TIER_WORDS,WELCOME_TURN,agreementReport,attemptStandings,blobUrl,buildModel,causeLine,changesOf,chartAttr,chartText,clip,clipDetail,decisiveAttempt,editedSinceBaseline,escapeHtml,estimateParts,flakyText,forestRows,formatAgreement,gateFailsText,headlineParts,headlineText,incompleteText,isPersona,itemLatencyMs,itemsCount,judgeAcrossAttempts,judgeAssertionOf,lookalikeWords,meaningModelShown,memberWords,namesCharacters,normalizeBlock,oneLine,otherAttemptsWords,panelCount,probesCount,removedWords,replyDiff,reuseWords,routeText,sameRoute,shortSha,stripControl,tooFewText,topCauseText,viewOf}from"./chunk-S33P3WPR.js";import"./chunk-WQ6TOH5A.js";import{usageSummary}from"./chunk-3Q2EM4YM.js";import{firstLineOf,jsonText}from"./chunk-FPOOYDER.js";import{capitalized,docsLinks,durationText,hasRightToLeft,headOf,isolateRightToLeft,isolatedJson,thousands,turnWords}from"./chunk-NGRSNLRK.js";import"./chunk-6BPKDHAS.js";var CHART_COLOURS={fg:{light:"#1f2328",dark:"#e6edf3"},muted:{light:"#59636e",dark:"#9198a1"},grid:{light:"#eaeef2",dark:"#262c36"},fail:{light:"#cf222e",dark:"#f85149"},warn:{light:"#9a6700",dark:"#d29922"},pass:{light:"#1a7f37",dark:"#3fb950"},accent:{light:"#0969da",dark:"#4493f8"},baseline:{light:"#818b98",dark:"#818b98"},tooFew:{light:"#6e7781",dark:"#6e7781"}};function darkChartRules(){return Object.values(CHART_COLOURS).filter(c=>c.light!==c.dark).map(c=>`svg [fill="${c.light}"]{fill:${c.dark}}svg [stroke="${c.light}"]{stroke:${c.dark}}`).join(`
`)}var PAGE_COLOURS={bg:{light:"#fff",dark:"#0d1117"},line:{light:"#d1d9e0",dark:"#3d444d"},soft:{light:"#f6f8fa",dark:"#151b23"},"del-bg":{light:"#ffebe9",dark:"#3c1e23"},"del-mark":{light:"#ffc1bd",dark:"#8e1519"},"ins-bg":{light:"#e6ffec",dark:"#13291c"},"ins-mark":{light:"#a6f0b8",dark:"#1f6f3b"},"fail-edge":{light:"#ffb1aa",dark:"#8e1519"},"fail-panel":{light:"#fff5f4",dark:"#25171c"},"pass-edge":{light:"#8dd6a0",dark:"#1f6f3b"},"pass-panel":{light:"#eefbf1",dark:"#12261a"},"warn-edge":{light:"#d4a72c",dark:"#9e6a03"},"warn-panel":{light:"#fff8c5",dark:"#272115"},"user-edge":{light:"#b6e3ff",dark:"#1f4f7a"},route:{light:"#0550ae",dark:"#a5d6ff"},"route-bg":{light:"#ddf4ff",dark:"#0c2d6b"},tool:{light:"#8250df",dark:"#8250df"},other:{light:"#afb8c1",dark:"#afb8c1"}},ROOT_COLOURS=[["fg",CHART_COLOURS.fg],["muted",CHART_COLOURS.muted],["line",PAGE_COLOURS.line],["soft",PAGE_COLOURS.soft],["pass",CHART_COLOURS.pass],["fail",CHART_COLOURS.fail],["warn",CHART_COLOURS.warn],["del-bg",PAGE_COLOURS["del-bg"]],["del-mark",PAGE_COLOURS["del-mark"]],["ins-bg",PAGE_COLOURS["ins-bg"]],["ins-mark",PAGE_COLOURS["ins-mark"]],["accent",CHART_COLOURS.accent]];function rootColourVars(scheme){return ROOT_COLOURS.map(([name,c])=>`--${name}:${c[scheme]}`).join(";")}function stripes(scheme){let[bg,soft]=[PAGE_COLOURS.bg[scheme],PAGE_COLOURS.soft[scheme]];return`repeating-linear-gradient(135deg,${bg},${bg} 4px,${soft} 4px,${soft} 8px)`}var STYLE=`
:root{${rootColourVars("light")}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:${PAGE_COLOURS.bg.light}}
.wrap{max-width:1180px;margin:0 auto;padding:24px 24px 64px}
h1{font-size:20px;margin:0 0 4px;font-weight:600}
h2{font-size:16px;margin:0;font-weight:600}
h3{font-size:13px;margin:0 0 8px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.meta{color:var(--muted);margin:0 0 12px}
.headline{font-size:17px;font-weight:600;margin:0 0 16px;padding:10px 14px;border-radius:8px;border:1px solid var(--line);background:var(--soft)}
.headline.bad{color:var(--fail);border-color:${PAGE_COLOURS["fail-edge"].light};background:${PAGE_COLOURS["fail-panel"].light}}
.headline.good{color:var(--pass);border-color:${PAGE_COLOURS["pass-edge"].light};background:${PAGE_COLOURS["pass-panel"].light}}
.headline.grey{color:var(--muted)}
.headline.warn{color:var(--warn);border-color:${PAGE_COLOURS["warn-edge"].light};background:${PAGE_COLOURS["warn-panel"].light}}
.gate{margin:-8px 0 16px;overflow-wrap:anywhere}
.section.first>h2{font-size:17px}
.cause{color:var(--muted);margin:-8px 0 16px;overflow-wrap:anywhere}
h3.cause{margin:10px 0 2px;text-transform:none;letter-spacing:0;font-size:13px}
.notice{border:1px solid ${PAGE_COLOURS["warn-edge"].light};background:${PAGE_COLOURS["warn-panel"].light};border-radius:6px;padding:8px 12px;margin:0 0 16px}
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
.names.gap li{border-color:${PAGE_COLOURS["fail-edge"].light};background:var(--del-bg)}
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
.pill.pass{color:var(--pass);border-color:${PAGE_COLOURS["pass-edge"].light};background:${PAGE_COLOURS["pass-panel"].light}}
.pill.fail{color:var(--fail);border-color:${PAGE_COLOURS["fail-edge"].light};background:${PAGE_COLOURS["fail-panel"].light}}
.pill.not_evaluated,.pill.errored{color:var(--muted);border-color:var(--line);background:var(--soft)}
.item>summary .pill{white-space:normal}
.body{padding:8px 4px 16px 12px;border-left:3px solid var(--line);margin:0 0 8px 4px}
.body dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}
.body dt{color:var(--muted)}
.body dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}
pre,.text{white-space:pre-wrap;overflow-wrap:anywhere;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}
.reply{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:4px 0 10px}
.reply.user{background:${PAGE_COLOURS.bg.light};border-color:${PAGE_COLOURS["user-edge"].light};border-left:3px solid var(--accent)}
table.sbs{width:100%;border-collapse:collapse;table-layout:fixed;margin:4px 0 10px;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.sbs th{font:600 12px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;text-align:left;padding:4px 8px;background:var(--soft);border:1px solid var(--line)}
table.sbs td{vertical-align:top;padding:2px 8px;border-left:1px solid var(--line);border-right:1px solid var(--line);white-space:pre-wrap;overflow-wrap:anywhere}
table.sbs tr:last-child td{border-bottom:1px solid var(--line)}
table.sbs td.del{background:var(--del-bg)}table.sbs td.ins{background:var(--ins-bg)}
table.sbs td.same{color:var(--muted)}
table.sbs caption{caption-side:bottom;text-align:left;padding:2px 0;color:var(--muted);font:12px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
table.sbs td.none{background:${stripes("light")}}
/* A changed word: tinted and underlined, not only tinted (1.3:1 against its cell); never struck through, it is read. */
del{background:var(--del-mark);text-decoration:underline 1px;text-underline-offset:3px;border-radius:2px}
ins{background:var(--ins-mark);text-decoration:underline 1px;text-underline-offset:3px;border-radius:2px}
button.more{font:12px/1.4 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;border:0;background:none;color:var(--accent);cursor:pointer;padding:0}
.turn{margin:0 0 10px}
.turn .who{font-size:12px;color:var(--muted);margin:0 0 2px}
.turn .who b{color:var(--fg)}
.route{font:11.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:${PAGE_COLOURS["route-bg"].light};border-radius:4px;padding:0 5px;margin-left:2px;color:${PAGE_COLOURS.route.light}}
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
:root{color-scheme:dark;${rootColourVars("dark")}}
body,.filters,.chip span,.reply.user{background:${PAGE_COLOURS.bg.dark}}
.headline.bad,.pill.fail{border-color:${PAGE_COLOURS["fail-edge"].dark};background:${PAGE_COLOURS["fail-panel"].dark}}
.headline.good,.pill.pass{border-color:${PAGE_COLOURS["pass-edge"].dark};background:${PAGE_COLOURS["pass-panel"].dark}}
.notice,.headline.warn{border-color:${PAGE_COLOURS["warn-edge"].dark};background:${PAGE_COLOURS["warn-panel"].dark}}
.names.gap li{border-color:${PAGE_COLOURS["fail-edge"].dark}}
.item,table.checks td,table.checks th{border-color:${CHART_COLOURS.grid.dark}}
svg.trend .grid{stroke:${CHART_COLOURS.grid.dark}}
.chip input:checked+span{color:${PAGE_COLOURS.bg.dark}}
.reply.user{border-color:${PAGE_COLOURS["user-edge"].dark}}
table.sbs td.none{background:${stripes("dark")}}
.route{background:${PAGE_COLOURS["route-bg"].dark};color:${PAGE_COLOURS.route.dark}}
.key.model,.wf-bar.model{background:${CHART_COLOURS.accent.dark}}
${darkChartRules()}
}
@media (max-width:720px){.item>summary{grid-template-columns:90px 1fr}.item .drift,.item .file{grid-column:2}.item .why{grid-column:1/-1}.wf-row{grid-template-columns:minmax(0,38%) 1fr 56px}}
`,SCRIPT=`(function () {
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
  // What \u27E8U+\u2026\u27E9 means, under the table, when a row shows one (as the comment says it above its diff).
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
    p.unsent.forEach(function (m, i) { add(ul, el('li', 'text', (p.unsentFirst ? (p.unsentFirst + i) + ' \xB7 User: ' : '') + m)); });
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
`,SCRIPT_SHA256="hpWGo1qPdc0Fp00nzUyuNHqEW1aJ3wWPX50w6TidrUw=",STYLE_SHA256="DcJHiYLYSf2JIiJugHmnqU2PMFZhEzEiP+8r2TXdUI4=",CSP=["default-src 'none'",`script-src 'sha256-${SCRIPT_SHA256}'`,`style-src 'sha256-${STYLE_SHA256}'`,"img-src 'none'","base-uri 'none'","form-action 'none'"].join("; ");function labelOf(p){return p.commit&&/^[0-9a-f]{7,64}$/i.test(p.commit)?p.commit.slice(0,7):`run ${p.runId}`}var W=310,H=190,X_LABELS=3,LABEL_MAX=11;function axisLabelOf(p){let whole=labelOf(p);if(whole.length<=LABEL_MAX)return whole;let head=whole.startsWith("run ")?"run \u2026":"\u2026";return head+whole.slice(whole.length-(LABEL_MAX-head.length))}var PAD={left:40,right:32,top:12,bottom:30};function pct(p){let r=Math.round(p*10)/10;return`${Number.isInteger(r)?r.toFixed(0):r.toFixed(1)}%`}function trendSvg(points){if(points.length===0)return null;let plotW=W-PAD.left-PAD.right,plotH=H-PAD.top-PAD.bottom,x=i=>PAD.left+(points.length===1?plotW/2:i*plotW/(points.length-1)),y=p=>PAD.top+plotH-Math.max(0,Math.min(100,p))/100*plotH,parts=[];for(let tick of[0,25,50,75,100]){let ty=y(tick).toFixed(1);parts.push(`<line x1="${PAD.left}" x2="${W-PAD.right}" y1="${ty}" y2="${ty}" class="grid"/>`),parts.push(`<text x="${PAD.left-6}" y="${ty}" class="axis" text-anchor="end" dominant-baseline="middle">${tick}%</text>`)}let run=[],lines=[];points.forEach((p,i)=>{let percent=p.agreement.percent;percent===null?(run.length>1&&lines.push(run.join(" ")),run=[]):run.push(`${x(i).toFixed(1)},${y(percent).toFixed(1)}`)}),run.length>1&&lines.push(run.join(" "));for(let l of lines)parts.push(`<polyline points="${l}" class="trend-line" fill="none"/>`);let every=Math.ceil(points.length/X_LABELS);points.forEach((p,i)=>{let cx=x(i).toFixed(1),{percent}=p.agreement,value=percent===null?"n/a":pct(percent),basis=agreementBasis({notEvaluated:0,errored:0,...p.agreement}),title=`<title>${chartText(labelOf(p))} \xB7 ${chartText(p.startedAt)} \xB7 agreement ${value} (${chartText(basis)})</title>`;percent!==null?parts.push(`<circle cx="${cx}" cy="${y(percent).toFixed(1)}" r="4" class="trend-point">${title}</circle>`):parts.push(`<text x="${cx}" y="${(PAD.top+plotH-4).toFixed(1)}" class="axis" text-anchor="middle">n/a${title}</text>`),(points.length-1-i)%every===0&&parts.push(`<text x="${cx}" y="${H-12}" class="axis" text-anchor="middle">${chartText(axisLabelOf(p))}</text>`)});let last=points[points.length-1].agreement.percent,label=`Agreement over the last ${points.length} recorded ${points.length===1?"run":"runs"}; latest ${last===null?"n/a":pct(last)}`;return`<svg class="trend" viewBox="0 0 ${W} ${H}" role="img" aria-label="${chartAttr(label)}">${parts.join("")}</svg>`}var LATENCY_ROWS=25,W2=720,ROW=26,LABEL_W=200,VALUE_W=170,TOP=34,BOTTOM=22;function latencyRows(items){let rows=[];for(let f of items){let now=f.slower!=null?f.slower.latencyMs:itemLatencyMs(f);if(typeof now!="number")continue;let slower=f.slower!=null,before=f.slower!=null?f.slower.baselineMs:typeof f.baseline?.latencyMs=="number"?f.baseline.latencyMs:null;rows.push({label:f.label,script:isPersona(f),nowMs:now,beforeMs:before,slower,faster:!slower&&f.faster!=null})}let delta=r=>r.beforeMs===null?-1/0:r.nowMs-r.beforeMs;return rows.sort((a,b)=>a.beforeMs===null!=(b.beforeMs===null)?a.beforeMs===null?1:-1:a.beforeMs===null?b.nowMs-a.nowMs:delta(b)-delta(a)||b.nowMs-a.nowMs)}function clipLabel(label,n=30){return label.length<=n?label:`${headOf(label,n-1)}\u2026`}function restText(rest){let unmeasured=rest.filter(r=>r.beforeMs===null).length,slowed=rest.length-unmeasured,more=n=>`and ${thousands(n)} more ${n===1?"item":"items"}`;return unmeasured===0?`${more(slowed)}, less slowed down`:slowed===0?`${more(unmeasured)} with no baseline latency`:`${more(slowed)}, less slowed down, and ${thousands(unmeasured)} with no baseline latency`}function latencyPanel(items,latency){let all=latencyRows(items);if(all.length===0)return"";let rows=all.slice(0,LATENCY_ROWS),max=Math.max(1,...rows.map(r=>Math.max(r.nowMs,r.beforeMs??0)),latency?.p95Ms??0),plotW=W2-LABEL_W-VALUE_W,x=ms=>LABEL_W+Math.max(0,ms)/max*plotW,H2=TOP+rows.length*ROW+BOTTOM,parts=[];if(latency!=null)for(let[name,ms]of[["p50",latency.p50Ms],["p95",latency.p95Ms]]){let mx=x(ms).toFixed(1);parts.push(`<line x1="${mx}" x2="${mx}" y1="${TOP-6}" y2="${H2-BOTTOM}" class="mark"/>`),parts.push(`<text x="${mx}" y="${name==="p50"?TOP-20:TOP-9}" class="axis" text-anchor="middle">${name} ${chartText(durationText(ms))}</text>`)}rows.forEach((r,i)=>{let y=TOP+i*ROW,kind=r.slower?"now slow":r.faster?"now fast":"now",change=r.beforeMs===null?"no baseline latency":`${durationText(r.beforeMs)} \u2192 ${durationText(r.nowMs)}`,word=r.slower?"slower":r.faster?"faster":null,title=`<title>${chartText(r.label)}: ${chartText(change)}${word===null?"":` (${word})`}</title>`;parts.push(`<g class="row${r.slower?" slower":""}" data-label="${chartAttr(r.label)}">${title}`),parts.push(`<text x="${LABEL_W-8}" y="${y+13}" class="label" text-anchor="end">${r.script?`${SCRIPT_MARK} `:""}${chartText(clipLabel(r.label))}</text>`),parts.push(`<rect x="${LABEL_W}" y="${y+3}" width="${plotW}" height="16" class="track"/>`),r.beforeMs!==null&&parts.push(`<rect x="${LABEL_W}" y="${y+3}" width="${(x(r.beforeMs)-LABEL_W).toFixed(1)}" height="6" class="before"/>`),parts.push(`<rect x="${LABEL_W}" y="${y+10}" width="${Math.max(1,x(r.nowMs)-LABEL_W).toFixed(1)}" height="9" class="${kind}"/>`),parts.push(`<text x="${W2-VALUE_W+8}" y="${y+14}" class="value${r.slower?" slow":""}">${chartText(change)}${word===null?"":`, ${word}`}</text>`),parts.push("</g>")}),parts.push(`<text x="${LABEL_W}" y="${H2-6}" class="axis">0</text><text x="${LABEL_W+plotW}" y="${H2-6}" class="axis" text-anchor="end">${chartText(durationText(max))}</text>`);let slower=all.filter(r=>r.slower).length,label=`Latency per item, baseline against now: ${thousands(all.length)} items measured${slower>0?`, ${thousands(slower)} slower`:""}`,svg=`<svg class="latency" viewBox="0 0 ${W2} ${H2}" role="img" aria-label="${chartAttr(label)}">${parts.join("")}</svg>`,legend=`<p class="meta lat-legend"><span class="key before"></span> baseline <span class="key now"></span> now <span class="key fast"></span> faster <span class="key slow"></span> slower (than its baseline by more than the latency rule) \xB7 a fixture's message turn, a script's whole conversation${latency!=null?" \xB7 p50 / p95: the run's message turns":""}</p>`,more=all.length>rows.length?`<p class="meta">${chartText(restText(all.slice(rows.length)))}</p>`:"";return`<div class="panel wide"><h3>Latency</h3>${legend}${svg}${more}</div>`}var FOREST_ROWS=40,W3=720,ROW2=24,LABEL_W2=200,VALUE_W2=190,TOP2=40,BOTTOM2=24,TIER_COLOUR={regressed:CHART_COLOURS.fail.light,likely_regressed:CHART_COLOURS.warn.light,improved:CHART_COLOURS.pass.light,steady:CHART_COLOURS.accent.light,too_few:CHART_COLOURS.tooFew.light},BASELINE=CHART_COLOURS.baseline.light,MUTED=CHART_COLOURS.muted.light,GRID=CHART_COLOURS.grid.light,FG=CHART_COLOURS.fg.light;function clipLabel2(label,n=28){return label.length<=n?label:`${headOf(label,n-1)}\u2026`}function interval(x,y,ci,rate,colour,shape){let parts=[`<line x1="${x(ci[0]).toFixed(1)}" x2="${x(ci[1]).toFixed(1)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/>`];for(let end of ci)parts.push(`<line x1="${x(end).toFixed(1)}" x2="${x(end).toFixed(1)}" y1="${y-3}" y2="${y+3}" stroke="${colour}" stroke-width="1.5"/>`);if(rate!==null){let cx=x(rate).toFixed(1);parts.push(shape==="circle"?`<circle cx="${cx}" cy="${y}" r="4.5" fill="${colour}"/>`:`<rect x="${(x(rate)-4).toFixed(1)}" y="${y-4}" width="8" height="8" fill="${colour}"/>`)}return parts.join("")}function forestPanel(all){if(all.length===0)return"";let rows=all.slice(0,FOREST_ROWS),plotW=W3-LABEL_W2-VALUE_W2,x=r=>LABEL_W2+Math.min(1,Math.max(0,r))*plotW,H2=TOP2+rows.length*ROW2+BOTTOM2,parts=[];parts.push(`<circle cx="${LABEL_W2+6}" cy="12" r="4.5" fill="${BASELINE}"/><text x="${LABEL_W2+15}" y="16" font-size="11" fill="${MUTED}">baseline</text>`),parts.push(`<rect x="${LABEL_W2+76}" y="8" width="8" height="8" fill="${TIER_COLOUR.steady}"/><text x="${LABEL_W2+89}" y="16" font-size="11" fill="${MUTED}">now (colour: tier) \xB7 lines: 95% intervals</text>`);for(let tick of[0,.25,.5,.75,1]){let tx=x(tick).toFixed(1);parts.push(`<line x1="${tx}" x2="${tx}" y1="${TOP2-8}" y2="${H2-BOTTOM2}" stroke="${GRID}" stroke-width="1"/>`),parts.push(`<text x="${tx}" y="${H2-8}" font-size="11" fill="${MUTED}" text-anchor="middle">${Math.round(tick*100)}%</text>`)}rows.forEach((r,i)=>{let y=TOP2+i*ROW2,colour=TIER_COLOUR[r.tier],title=`<title>${chartText(r.label)}: ${chartText(r.words)}</title>`;parts.push(`<g class="forest-row" data-label="${chartAttr(r.label)}" data-tier="${r.tier}">${title}`),parts.push(`<text x="${LABEL_W2-8}" y="${y+4}" font-size="12" fill="${FG}" text-anchor="end">${r.script?`${SCRIPT_MARK} `:""}${chartText(clipLabel2(r.label))}</text>`),parts.push(interval(x,y-4,r.baselineCi,r.baselineRate,BASELINE,"circle")),parts.push(interval(x,y+4,r.ci,r.rate,colour,"square"));let bold=r.tier==="regressed"?' font-weight="600"':"";parts.push(`<text x="${W3-VALUE_W2+10}" y="${y+4}" font-size="12" fill="${r.tier==="steady"||r.tier==="too_few"?FG:colour}"${bold}>${chartText(r.counts)} ${chartText(TIER_WORDS[r.tier])}</text>`),parts.push("</g>")});let counts=new Map;for(let r of all)counts.set(r.tier,(counts.get(r.tier)??0)+1);let tally=[...counts.entries()].map(([t,n])=>`${thousands(n)} ${TIER_WORDS[t]}`).join(", "),label=`Pass rate per repeated item, baseline against now with 95% intervals: ${thousands(all.length)} items (${tally})`,svg=`<svg class="forest" width="100%" viewBox="0 0 ${W3} ${H2}" role="img" aria-label="${chartAttr(label)}">${parts.join("")}</svg>`,note=`<p class="meta">Baseline (grey) against now, coloured by tier: regressed first. A line is the 95% interval of a pass rate; the tier comes from Fisher's exact test on the counts, not from whether the lines overlap. ${chartText(tally)}.</p>`,more=all.length>rows.length?`<p class="meta">and ${thousands(all.length-rows.length)} more ${all.length-rows.length===1?"item":"items"}, in the same order</p>`:"";return`<div class="panel wide"><h3>Pass rates</h3>${note}${svg}${more}</div>`}var MAX_TEXT_CHARS=1e5;function attemptsData(item,attempts,describe,reply){if(attempts===void 0||attempts.length===0)return{};let judge=judgeAcrossAttempts(item),first=attempts.findIndex(a=>!a.errored),shown=first===-1?0:first,others=first===-1?null:otherAttemptsWords(item,`attempt ${first+1}`),standings=attemptStandings(item);return{attempts:attempts.map((a,i)=>{let standing=standings.get(i+1);return{n:i+1,outcome:a.errored||a.verdict===null?"errored":a.verdict,shown:i===shown,detail:clip(normalizeBlock(describe(a)),2e3),...a.errored?begunData(a.toolCalls??a.errorToolCalls):reply(a,attempts[shown]),...standing===void 0?{}:{standing:`Against attempt ${shown+1}: ${clip(normalizeBlock(standing),2e3)}`}}}),...judge===null?{}:{attemptsJudge:`${capitalized(clip(normalizeBlock(judge),2e3))}.`},...others===null?{}:{attemptsOthers:`${capitalized(others)}.`}}}function begunData(calls){return calls!=null&&calls.length>0?{toolCalls:toolCallData(calls)??[]}:{}}var MAX_PAGE_TEXT_CHARS=2e7,FULL_PAGE_TEXT_CHARS=500,pageLeft=Number.POSITIVE_INFINITY;function text(s){let n=normalizeBlock(s),full=pageLeft<=0,max=full?FULL_PAGE_TEXT_CHARS:MAX_TEXT_CHARS;if(n.length<=max)return pageLeft-=n.length,n;pageLeft-=max;let why=full?`; this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text, and the whole text is in results.json`:"";return`${clip(n,max)}
[clipped: the first ${thousands(max)} of ${thousands(n.length)} characters${why}]`}function segs(segments){let out=[];for(let s of segments){let last=out[out.length-1],mark=s.marked?1:0;last&&last[1]===mark?last[0]+=s.text:out.push([s.text,mark])}return out}function notDiffedReason(baseline,reply){return pageLeft<=0?`this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text`:normalizeBlock(baseline).length>MAX_DIFF_CHARS||normalizeBlock(reply).length>MAX_DIFF_CHARS?`a reply is longer than ${thousands(MAX_DIFF_CHARS)} characters`:`more than ${thousands(MAX_UNIT_EDITS)} sentences or lines removed or added`}function notDiffedWhy(baseline,reply){return pageLeft<=0?`not diffed: this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text, and the whole replies are in results.json`:normalizeBlock(baseline).length>MAX_DIFF_CHARS||normalizeBlock(reply).length>MAX_DIFF_CHARS?`a reply is longer than ${thousands(MAX_DIFF_CHARS)} characters: shown whole, not diffed`:`too different to diff (more than ${thousands(MAX_UNIT_EDITS)} sentences or lines removed or added): shown whole`}function sideBySide(baseline,reply){let a=normalizeBlock(baseline),b=normalizeBlock(reply);if(a.length>MAX_DIFF_CHARS||b.length>MAX_DIFF_CHARS||pageLeft<=0)return null;let d=replyDiff(a,b);if("tooDifferent"in d)return null;pageLeft-=a.length+b.length;let rows=[],dels=[],ins=[],flush=()=>{for(let i=0;i<Math.max(dels.length,ins.length);i++)rows.push({a:dels[i]??null,b:ins[i]??null});dels=[],ins=[]};for(let line of d.lines)line.kind==="skip"?(flush(),rows.push({same:line.units})):line.kind==="delete"?dels.push(segs(line.segments)):ins.push(segs(line.segments));flush();let named=rows.some(r=>"same"in r?r.same.some(namesCharacters):[...r.a??[],...r.b??[]].some(([t])=>namesCharacters(t)));return{whitespaceOnly:d.whitespaceOnly,rows,...named?{legend:CHARACTER_NAME_LEGEND}:{}}}function json(value){return clip(jsonText(value??null),2e3)}function assertionText(f){let a=f.assertion;return a===null?"none (a probe: the reply is recorded, not judged)":a.kind==="all"?`all of: ${a.assertions.map(checkText).join("; ")}`:checkText(a)}function checkText(a){return a.kind==="contains"?`contains ${JSON.stringify(a.value)}`:a.kind==="regex"?`regex /${a.pattern}/${a.flags}`:a.kind==="maxLatency"?`latency at most ${thousands(a.ms)} ms`:a.kind==="toolCalled"||a.kind==="toolNotCalled"?`${a.kind==="toolCalled"?"tool called":"tool not called"}: ${a.tool}${a.input===void 0?"":` ${json(a.input)}`}${a.match==="exact"?" (exact)":""}`:`judge: ${a.criterion} (threshold ${a.threshold.toFixed(2)})`}function messageEditedData(f){let edited=editedSinceBaseline(f.baseline,f);if(edited===null)return{};let then=edited.messageWas,personaWas="personaWas"in edited?{personaWas:edited.personaWas??null}:{};return{messageEdited:{baseline:then===null?null:text(then),diff:then===null?null:sideBySide(then,f.message),...personaWas}}}function lookalikesOf(reply){let words=reply===null?[]:lookalikeWords(reply);return words.length>0?{lookalikes:words}:{}}function fixtureData(f){let b=f.baseline,replyDiffers=!f.errored&&b!==null&&f.reply!==null&&b.reply!==f.reply,diff=replyDiffers?sideBySide(b.reply,f.reply):null,diffNote=replyDiffers&&diff===null?notDiffedWhy(b.reply,f.reply):null,hasJudge=f.score!==null||f.rationale!==null||judgeAssertionOf(f.assertion)!==null;return{kind:"fixture",label:f.label,message:text(f.message),persona:f.persona,assertion:assertionText(f),detail:text(f.detail??""),judge:hasJudge?{score:f.score,threshold:f.threshold,rationale:f.rationale===null?null:text(f.rationale),...f.members!=null&&f.threshold!==null?{members:memberLines(f.members,f.threshold)}:{}}:null,error:f.errored?text(f.error):null,reply:f.reply===null||diff!==null?null:text(f.reply),...lookalikesOf(f.reply===null||diff!==null?null:f.reply),route:routeText(f.route),baseline:b===null?null:{reply:f.errored||diff!==null||b.reply===f.reply?null:text(b.reply),route:routeText(b.route),verdict:b.verdict,acceptedAt:b.acceptedAt,commit:b.commit},routeChanged:changesOf(f).some(c=>c.dimension==="route"),...messageEditedData(f),diff,diffNote,...attemptsData(f,f.attempts,a=>a.error??a.detail,(a,shown)=>a===shown?{note:"the reply above"}:a.reply===shown.reply?{note:`the same reply as attempt ${(f.attempts?.indexOf(shown)??0)+1}'s`}:a.reply===null?{}:{reply:text(a.reply)}),...f.toolCalls!=null&&f.toolCalls.length>0?{toolCalls:toolCallData(f.toolCalls)??[]}:{},...traceData(f)}}function callsText(calls,live){return calls.map(c=>`${turnWords(c.turn)} ${json(c.input)}${c.mocked||live?"":" (not mocked)"}${sourceMark(c)}`).join("; ")}function expectedText(c){switch(c.kind){case"conversations":return c.expected.join(", ");case"terminal":return c.expected;case"toolCalled":case"toolNotCalled":return c.expected.input===void 0?`${c.expected.tool}, any input`:`${c.expected.tool} ${json(c.expected.input)} (${c.expected.match})`;case"reply":return replyWords(c.expected);case"maxTurnLatency":return`at most ${thousands(c.expected)} ms a turn`;case"criterion":return c.expected}}function observedText(c,live){switch(c.kind){case"conversations":return c.observed.length>0?`visited ${c.observed.join(" \u2192 ")}`:"visited none";case"terminal":return c.observed??"no outcome";case"toolCalled":case"toolNotCalled":return c.turn!==null?`called on ${turnWords(c.turn)}${matchMark(c)}`:c.observed.length===0?"not called":`other inputs only: ${callsText(c.observed,live)}`;case"reply":case"maxTurnLatency":return checkDetail(c);case"criterion":return typeof c.score=="number"&&Number.isFinite(c.score)?`score ${c.score.toFixed(2)} (threshold ${c.threshold.toFixed(2)})${c.reused?`, ${reuseWords(c.reused)}`:""}${c.rationale?`: ${c.rationale}`:""}`:"no score"}}function checkData(c,live){let subject=checkSubject(c);return{status:c.status,name:CHECK_NAMES[c.kind]+(subject&&c.kind!=="criterion"?` ${subject}`:""),expected:clip(expectedText(c),2e3),observed:clip(observedText(c,live),2e3),detail:clip(normalizeBlock(checkDetail(c)),4e3),...c.kind==="criterion"&&c.members!==void 0?{members:memberLines(c.members,c.threshold)}:{}}}function memberLines(members,threshold){return[panelCount(members,threshold),...members.map(m=>clip(text(`${m.label}: ${memberWords(m,threshold)}`),600))]}function toolCallData(calls){return calls===null?null:calls.map(c=>({tool:c.tool,input:json(c.input),output:json(c.output),mocked:c.mocked,...c.source==="trace"?{trace:!0}:{}}))}var MAX_BARS=50;function traceData(t){let d={};return t.spans!=null&&(d.spans=spanCountsText(t.spans)),t.time!=null&&(d.split=timeSplitText(t.time)),t.waterfall!=null&&t.waterfall.length>0&&(d.bars=t.waterfall.slice(0,MAX_BARS).map(w=>{let start=Math.max(0,w.startMs),took=Math.max(0,w.durationMs),dur=Math.max(0,w.startMs+took-start);return{name:clip(text(w.kind==="tool"&&w.tool!==null&&!w.name.includes(w.tool)?`${w.name} (${w.tool})`:w.name),200),kind:w.kind,start,dur,...dur!==took?{took}:{},depth:Math.max(0,Math.min(8,Math.floor(w.depth))),error:w.status==="error"}}),t.latencyMs!=null&&(d.latencyMs=t.latencyMs)),Object.keys(d).length===0?{}:{trace:d}}function baselineTurnData(b,t){if(b===void 0)return{message:null,route:null,diff:null,missing:!0};if(b.reply===t.reply&&b.message===t.message&&sameRoute(b.route,t.route))return null;let diff=b.reply===t.reply?null:sideBySide(b.reply,t.reply),meaning=b.reply===t.reply?null:turnMeaningWords(t);return{message:b.message!==t.message?b.message:null,...b.message!==t.message&&b.message!==null?{messageChanged:messageChanged(t)}:{},route:sameRoute(b.route,t.route)?null:routeText(b.route),diff,missing:!1,...b.reply!==t.reply&&diff===null?{diffNote:`not diffed (${notDiffedReason(b.reply,t.reply)}); the baseline's reply is in results.json`}:{},...meaning===null?{}:{meaning}}}function personaData(p){let base=!p.errored&&p.baseline!==null?p.baseline.transcript:null;return{kind:"persona",label:p.label,persona:p.persona,checks:p.checks.map(c=>checkData(c,p.toolMode==="live")),turns:p.turns.map((t,i)=>({index:t.index,message:t.message===null?null:text(t.message),reply:text(t.reply),route:routeText(t.route),toolCalls:toolCallData(t.toolCalls),outcome:t.outcome,errors:t.errors.map(e=>`${e.kind}${e.tool?` (${e.tool})`:""}: ${e.message}`),baseline:base===null?null:baselineTurnData(base[i],t),...t.source===void 0?{}:{source:SOURCE_WORDS[t.source]},...traceData(t)})),droppedTurns:base===null?0:Math.max(0,base.length-p.turns.length),live:p.toolMode==="live",unsent:notSent(p).map(text),...unsentWords(p),stopped:(s=>s===null?null:{index:s.index,message:text(s.message)})(stoppedOn(p)),...p.errorToolCalls!==void 0&&p.errorToolCalls.length>0?{stoppedCalls:toolCallData(p.errorToolCalls)??[]}:{},visited:p.visited,outcome:p.outcome,ended:(e=>e===null?null:text(e))(scriptEndedWords(p)),error:p.errored?text(p.error):null,...attemptsData(p,p.attempts,a=>a.error??(a.checks.filter(c=>c.status!=="pass").map(c=>`${CHECK_NAMES[c.kind]}: ${checkDetail(c)}`).join("; ")||"every check passed"),a=>unlikeShown(p,a)),...decisiveData(p),...p.simulation?{simulation:{goal:text(p.simulation.goal),facts:simulationFacts(p,p.simulation).map(text),fault:faultLine(p.simulation)}}:{}}}function shownNumber(p){return p.attempts===void 0?0:p.attempts.findIndex(a=>!a.errored)+1}function unlikeShown(p,a){let shown=shownNumber(p);if(p.attempts?.[shown-1]===a)return{note:"the transcript below"};let theirsAt=new Map(p.turns.map(t=>[t.index,t])),mineAt=new Map(a.turns.map(t=>[t.index,t]));for(let index of[...new Set([...theirsAt.keys(),...mineAt.keys()])].sort((x,y)=>x-y)){let mine=mineAt.get(index),theirs=theirsAt.get(index);if(!(mine!==void 0&&theirs!==void 0&&mine.reply===theirs.reply))return mine===void 0?{note:`no ${turnWords(index)}`}:{note:turnWords(index),reply:text(mine.reply)}}return{note:`the same replies as attempt ${shown}'s`}}function unsentWords(p){let unsent=notSent(p);if(unsent.length===0)return{};let last=p.turns[p.turns.length-1],next=last?last.index+1:1;return{unsentHead:`Not sent (${thousands(unsent.length)}), because ${unsentWhy(p)}`,unsentFirst:next+(unsent.length<p.unsent.length?1:0)}}function decisiveData(p){let shown=shownNumber(p);if(p.attempts===void 0||p.repeat===void 0||shown===0)return{};let d=p.errored?null:decisiveAttempt(p);if(d===null)return{shownAttempt:shown};let t=decisiveTurn(p),both=t!==null&&t.shown!==null&&t.turn!==null?{a:t.shown.reply,b:t.turn.reply}:null,diff=both===null?null:sideBySide(both.a,both.b),note=both!==null&&diff===null&&both.a!==both.b?notDiffedReason(both.a,both.b):null,turn=t===null?null:{name:turnWords(t.index),diff,...note===null?{}:{note},shown:t.shown===null?null:text(t.shown.reply),reply:t.turn===null?null:text(t.turn.reply)};return{shownAttempt:shown,decisive:{n:d.number,verdict:d.verdict,checks:d.attempt.checks.map(c=>checkData(c,p.toolMode==="live")),turn}}}function itemsData(items,max=MAX_PAGE_TEXT_CHARS){pageLeft=max;try{return items.map(itemData)}finally{pageLeft=Number.POSITIVE_INFINITY}}function itemData(item){return isPersona(item)?personaData(item):fixtureData(item)}function scriptJson(value){let asWritten=new WeakSet,calls=new WeakSet;return JSON.stringify(value,function(key,v){if(v!==null){if(typeof v=="string"){let s=stripControl(v);return!hasRightToLeft(s)||writtenText(key)||asWritten.has(this)?s:calls.has(this)?key==="tool"?`\u2068${s}\u2069`:isolatedJson(s):isolatedLines(s)}return typeof v=="object"&&(key==="diff"||key==="unsent"||asWritten.has(this))&&asWritten.add(v),typeof v=="object"&&(key==="toolCalls"||calls.has(this)&&Array.isArray(this))&&calls.add(v),v}}).replace(/[<>&\u2028\u2029]/g,c=>`\\u${c.charCodeAt(0).toString(16).padStart(4,"0")}`)}function writtenText(key){return key==="reply"||key==="message"||key==="baseline"}function isolatedLines(text2){return text2.split(`
`).map(isolateRightToLeft).join(`
`)}var LIMITS={label:200,detail:300,cause:1e3,file:200,group:40,suite:100};function attr(text2){return escapeHtml(stripControl(oneLine(text2)))}function h(text2){return isolateRightToLeft(attr(text2))}function hLinked(text2){return isolateRightToLeft(docsLinks(stripControl(oneLine(text2)),escapeHtml,(url,label)=>`<a href="${escapeHtml(url)}" rel="noreferrer noopener">${escapeHtml(label)}</a>`))}function verdictKey(f){return f.errored?"errored":f.verdict??"not_evaluated"}function driftKey(f){return f.errored?"errored":f.drift.verdict}function changed(v){return v.section==="changed"}function fileRef(f,ctx){let where=h(clip(f.line>0?`${f.file}:${f.line}`:f.file,LIMITS.file)),text2=`<span class="file">${where}</span>`,url=ctx===void 0?null:blobUrl(ctx,f.file,f.line);return url?{text:text2,link:`<a class="file" href="${escapeHtml(url)}" rel="noreferrer noopener">${where}</a>`}:{text:text2,link:null}}function whyText(why){return docsLinks(stripControl(oneLine(why)),escapeHtml,(_url,label)=>escapeHtml(label))}function whyLine(f){if(isPersona(f)){if(f.errored)return f.error;let fault=faultLine(f.simulation);if(fault!==null)return fault;let live=f.simulation?liveWords(f,f.simulation):null,shown=lineChecks(f);return`${lineWords(shown)}${live===null?"":` \xB7 ${live}`}`}return f.errored?f.error:f.detail}function row(v,index,ctx,open){let f=v.item,verdict=verdictKey(f),why=firstLineOf(normalizeBlock(whyLine(f)??"").trim()),file=fileRef(f,ctx),said=why?whyText(clipDetail(why,LIMITS.detail)):"";return`<details class="item" ${`data-i="${index}" data-verdict="${verdict}" data-drift="${driftKey(f)}" data-changed="${changed(v)?1:0}"${v.section==="reworded"?' data-reworded="1"':""} data-label="${attr(v.label.toLowerCase())}"`}${open?" open":""}><summary><span><span class="pill ${verdict}">${h(v.verdict)}</span></span><span class="label">${v.kind==="script"?`<span role="img" aria-label="persona script">${SCRIPT_MARK}</span> `:""}${h(clip(v.label,LIMITS.label))}</span><span class="drift">${h(v.drift.join(" \xB7 "))}</span>`+file.text+(said?`<span class="why">${said}</span>`:"")+`</summary>${file.link===null?"":`<p class="src">${file.link}</p>`}<div class="body"></div></details>`}function card(kind,n,k){return`<div class="card ${kind}"><span class="n">${h(n)}</span><span class="k">${h(k)}</span></div>`}function cards(model,a,run){let t=model.tallies,{range:usd,cap,upTo}=estimateParts(run.estimate),agreeNote=`agreement: ${agreementBasis(a)}`,probes=model.probes>0?` (${probesCount(model.probes)})`:"";return'<section class="cards" aria-label="Tallies">'+card("agree",formatAgreement(a),agreeNote)+card("pass",thousands(t.passed),`passed${probes}`)+(t.failed>0?card("fail",thousands(t.failed),"failed"):"")+(t.notEvaluated>0?card("",thousands(t.notEvaluated),"not evaluated (not in agreement)"):"")+(t.errored>0?card("",thousands(t.errored),"errored (not in agreement)"):"")+card("",thousands(model.total),itemsCount(model))+card("",`\u2248 ${usd}`,`estimated cost (cap ${cap}${upTo})${run.estimate.aboveCap&&run.estimate.confirmed?", ran above the cap: confirmed":""}${spentNote(run)}`)+tokensCard(run)+"</section>"}function runRateBlock(model){let r=model.runRate,t=model.tooFew===null?"":`<p class="run-rate">\u{1F50D} ${capitalized(tooFewText(model.tooFew,flag=>`<code>${h(flag)}</code>`))}</p>
`;return r===null?t:`<p class="run-rate">\u{1F4C8} <b>${h(capitalized(r.head))}</b>: ${h([r.detail,r.mcnemar].filter(x=>x!==null).join(" \xB7 "))}</p>
${t}`}function spentNote(run){let spent=spendText(run.spend);return spent===null?"":` \xB7 ${spent}`}function tokensCard(run){let u=usageSummary(run.fixtures,Array.isArray(run.personas)?run.personas:[]);if(u===null)return"";let words=usageChangeWords(u),change=`${words.change===null?"":`, ${words.change}`}${words.leftOut===null?"":`; ${words.leftOut}`}`;return card("",compactCount(u.total.inputTokens+u.total.outputTokens),`agent tokens reported (${compactCount(u.total.inputTokens)} in, ${compactCount(u.total.outputTokens)} out${change})`)}function bar(percent){return`<svg class="bar" width="60" height="8" aria-hidden="true"><rect class="bg" width="60" height="8" rx="2"/><rect class="fg" width="${percent===null?0:Math.round(percent*.6)}" height="8" rx="2"/></svg>`}function groupTable(title,head,groups,open){if(groups.length===0)return"";let shown=groups.slice(0,LIMITS.group),more=groups.length-shown.length,rows=shown.map(g=>{let aside=[g.notEvaluated?`${thousands(g.notEvaluated)} not evaluated`:"",g.errored?`${thousands(g.errored)} errored`:""].filter(Boolean).join(", ");return`<tr><td>${h(clip(g.key,80)).replace(/\//g,"/<wbr>")}</td><td class="num">${h(formatAgreement(g))}</td><td aria-hidden="true">${bar(g.percent)}</td><td class="num">${thousands(g.passed)} / ${thousands(g.passed+g.failed)}</td><td class="aside">${h(aside)}</td></tr>`}).join(""),tail=more>0?`<p class="meta">and ${thousands(more)} more</p>`:"";return`<details${open?" open":""}><summary>${h(title)} (${groups.length})</summary><table><thead><tr><th scope="col">${h(head)}</th><th scope="col" class="num">agreement</th><th class="bar" aria-hidden="true"></th><th scope="col" class="num">passed / decided</th><th scope="col">left out</th></tr></thead><tbody>${rows}</tbody></table>${tail}</details>`}function agreementPanel(a){if(a.byConversation.length===0&&a.byFile.length===0&&a.byPersona.length===0)return"";let o=a.overall,lead=`<p><b>${h(formatAgreement(o))}</b> agreement: ${h(agreementBasis(o))}.</p>`,groups=groupTable("By conversation","conversation",a.byConversation,!0)+groupTable("By file","file",a.byFile,!1)+groupTable("By persona tag","persona tag",a.byPersona,!1);return`<div class="panel"><h3>Agreement</h3>${lead}${groups}</div>`}function names(list,cls){let shown=list.slice(0,60),more=list.length>shown.length?`<li>and ${thousands(list.length-shown.length)} more</li>`:"";return`<ul class="names ${cls}">${shown.map(n=>`<li>${h(clip(n,80))}</li>`).join("")}${more}</ul>`}function coveragePanel(c){if(c===null)return"";let visitedListed=c.listed.length-c.gaps.length,lead=`<p><b>${thousands(visitedListed)} of ${thousands(c.listed.length)}</b> listed conversations visited.</p>`,gaps=c.gaps.length>0?`<p>Gaps: never visited by any item, any turn (${c.gaps.length})</p>${names(c.gaps,"gap")}`:"<p>No gaps: every listed conversation was visited.</p>",unknown=c.unknown.length>0?`<p>Visited but not listed (${c.unknown.length})</p>${names(c.unknown,"")}`:"";return`<div class="panel"><h3>Coverage</h3>${lead}${gaps}${unknown}</div>`}function trendPanel(points){let svg=trendSvg(points??[]);return svg===null?"":`<div class="panel"><h3>Agreement trend (default branch)</h3>${svg}</div>`}function chips(name,options){return options.map((o,i)=>`<label class="chip"><input type="radio" name="${name}" value="${o.value}"${i===0?" checked":""}><span>${h(o.text)} <b>${thousands(o.n)}</b></span></label>`).join("")}function filters(views){let items=views.map(v2=>v2.item),count=p=>items.filter(p).length,verdicts=[["pass","pass"],["fail","fail"],["not_evaluated","not evaluated"],["errored","errored"]],drifts=[...["newly_failing","still_failing","newly_passing","still_passing","no_baseline","not_evaluated"].map(k=>[k,DRIFT_WORDS[k]]),["errored","not compared"]],v=[{value:"all",text:"all",n:items.length},...verdicts.map(([value,text2])=>({value,text:text2,n:count(f=>verdictKey(f)===value)})).filter(o=>o.n>0)],d=[{value:"all",text:"all",n:items.length},{value:"changed",text:"changed",n:views.filter(changed).length},{value:"reworded",text:"reworded",n:views.filter(x=>x.section==="reworded").length},...drifts.map(([value,text2])=>({value,text:text2,n:count(f=>driftKey(f)===value)}))].filter((o,i)=>i===0||o.n>0);return`<nav class="filters" aria-label="Filters"><fieldset><legend>Verdict</legend>${chips("verdict",v)}</fieldset><fieldset><legend>Drift</legend>${chips("drift",d)}</fieldset><input type="search" id="ar-search" placeholder="Filter by label" aria-label="Filter by label"><span class="shown" id="ar-shown" role="status">${thousands(items.length)} of ${thousands(items.length)} shown</span></nav>`}function metaLine(run){return`<p class="meta">${[shortSha(run.commit)?`commit ${shortSha(run.commit)}`:null,`started ${run.startedAt}`,durationText(run.durationMs),run.agent.host?`agent ${run.agent.host}`:null,run.judge.name?`judge ${run.judge.name}`:null,meaningModelShown(run)!==null?`meaning judge ${meaningModelShown(run)}`:null,`${run.tool.name} ${run.tool.version}`].filter(p=>p!==null).map(h).join(" \xB7 ")}</p>`}function judgeModeLine(run){return run.judge.structured!==!1?"":`
<p class="meta judge-mode">${h(judgeFallbackText(run.judge.structuredFallback,reason=>`"${clip(oneLine(reason),300)}"`))}</p>`}function notices(run,total){let out=[];run.shard!=null&&out.push(`Shard ${run.shard.index}/${run.shard.total} of the suite: this run replayed only its part; the merge of all shards reports the whole suite.`),run.incomplete!=null&&out.push(`${incompleteText(run.incomplete)}: this report merges only the shards it was given; the items of a missing shard are not counted and not removed.`),run.interrupted&&out.push(`The run was interrupted: it lists only the ${thousands(total)} items that finished, and the gate was not applied.`);let s=run.selection;if(s){let why=[s.rerunOf?`a rerun of what did not pass in ${s.rerunOf}`:"",s.only?`--only ${s.only.join(",")}`:""].filter(Boolean).join(", ");out.push(`Part of the suite: ${why||`shards ${MIXED_SELECTION}`}; ${thousands(s.labels.length)} ${s.labels.length===1?"item":"items"} replayed.`)}let removed=run.removed??[];if(removed.length>0){let named=removedWords(removed,b=>`${b.label} (${b.file})`);out.push(`Removed (${thousands(removed.length)}): ${named}: accepted baselines whose fixture or persona script is not in the suite now; nothing was replayed for them.`)}return out.map(n=>`<p class="notice">${hLinked(n)}</p>`).join("")+suiteEditsNotice(run)}function suiteEditsNotice(run){if(run.suiteEdits===void 0)return"";let p=suiteEditsParts(run.suiteEdits,(text2,max)=>`<code>${h(clip(text2,max))}</code>`,run.configName),groups=p.groups.map(g=>`<p>${g.head}:</p><ul>${g.lines.map(l=>`<li>${l}</li>`).join("")}</ul>${g.note===void 0?"":`<p>${g.note}</p>`}`).join(""),unknown=p.unknown===null?"":`<p>Not everything could be compared: ${h(clip(p.unknown,LIMITS.detail))}</p>`;return`<div class="notice suite-edits"><p><b>${p.title}.</b> ${p.intro}</p>${groups}${unknown}</div>`}function flakyNotice(model){let text2=flakyText(model);return text2===null?"":`<p class="notice">${hLinked(text2)}</p>`}var HTML_SECTION_ORDER=["newly_failing","not_evaluated","errored","still_failing","changed","reworded","new","unchanged"],FIRST_SECTIONS=new Set(["newly_failing","not_evaluated","errored"]),OPEN_ROWS=20;function headlineState(model,gate){if(model.sections.newly_failing.length>0||model.tiers.regressed>0)return"bad";let parts=headlineParts(model,gate);return model.total===0||parts.unverified?"grey":parts.icon==="\u{1F7E0}"?"warn":"good"}function headlineBlock(model,gate){let cause=topCauseText(model),fails=gateFailsText(model,gate,text2=>`<code>${h(clip(text2,LIMITS.label))}</code>`,text2=>`<b>${text2}</b>`);return`<p class="headline ${headlineState(model,gate)}">${h(headlineText(model))}</p>`+(fails===null?"":`<p class="gate">${fails}</p>`)+(cause===null?"":`<p class="cause"><b>Cause</b>: ${hLinked(clip(cause,LIMITS.cause))}</p>`)}function rowsByCause(model,list,rowOf){let current;return list.map((f,i)=>{let group=model.causeOf.get(f),head="";if(group!==void 0&&group!==current){let labels=list.filter(x=>model.causeOf.get(x)===group).map(x=>x.label);head=`<h3 class="cause">${hLinked(clip(causeLine({...group,labels},list.length),LIMITS.cause))}</h3>
`}return current=group,head+rowOf(f,i)}).join(`
`)}function renderHtml(run,extras={}){let model=buildModel(run),ordered=HTML_SECTION_ORDER.flatMap(k=>model.sections[k]),agreement=extras.agreement??agreementReport({fixtures:run.fixtures,personas:Array.isArray(run.personas)?run.personas:[]}),coverage=extras.coverage!==void 0?extras.coverage:run.coverage??null,ctx=extras.context??{repositoryUrl:DEFAULT_CONTEXT.repositoryUrl??null,headSha:run.commit},index=0,section=k=>{let w=SECTION_WORDS[k],first=FIRST_SECTIONS.has(k),list=model.sections[k],rowOf=(f,i)=>row(withMeaningHead(viewOf(model,f),void 0,meaningOffAfter(f,run)),index++,ctx,first&&i<OPEN_ROWS),rows=k==="errored"||k==="not_evaluated"?rowsByCause(model,list,rowOf):list.map(rowOf).join(`
`),closed=first&&list.length>OPEN_ROWS?`<p class="meta">The first ${OPEN_ROWS} are open; click a row to open the other ${thousands(list.length-OPEN_ROWS)}.</p>`:"";return`<section class="section${first?" first":""}" data-section="${k}"><h2>${h(w.title+w.suffix)} <span class="n">${thousands(list.length)}</span></h2>
${closed}${rows}
</section>`},present=HTML_SECTION_ORDER.filter(k=>model.sections[k].length>0),firstSections=present.filter(k=>FIRST_SECTIONS.has(k)).map(section).join(`
`),otherSections=present.filter(k=>!FIRST_SECTIONS.has(k)).map(section).join(`
`),panels=forestPanel(forestRows(ordered))+agreementPanel(agreement)+coveragePanel(coverage)+trendPanel(extras.trend)+latencyPanel(ordered,run.latency),data=scriptJson({items:itemsData(ordered)}),suite=extras.context?.suite?clip(extras.context.suite,LIMITS.suite):null,title=`agent-replay \xB7 ${suite===null?"":`${suite} \xB7 `}${headlineText(model)}`;return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(clip(title,200))}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="wrap">
<header>
<h1>agent-replay report</h1>
${suite===null?"":`<p class="meta suite">Suite <code>${h(suite)}</code></p>
`}${metaLine(run)}${judgeModeLine(run)}
${headlineBlock(model,extras.context?.gate??null)}
${notices(run,model.total)}${flakyNotice(model)}
</header>
<main>
${firstSections}
<h2 class="hidden-heading">The numbers</h2>
${cards(model,agreement.overall,run)}
${runRateBlock(model)}${panels?`<section class="panels">${panels}</section>`:""}
${filters(ordered.map(f=>viewOf(model,f)))}
${otherSections}
<p class="empty" id="ar-none"${ordered.length===0?"":" hidden"}>${ordered.length===0?"No items ran.":"No item matches these filters."}</p>
</main>
</div>
<script type="application/json" id="ar-data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`}export{HTML_SECTION_ORDER,OPEN_ROWS,renderHtml};
