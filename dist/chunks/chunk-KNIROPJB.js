import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{plural,shownJson}from"./chunk-MVXKZE7T.js";function alsoMoved(next,shift,way="left"){return next.length===0?"":`
  and move ${next.length===1?`line ${String(next[0])}`:`lines ${String(next[0])} to ${String(next[next.length-1])}`} ${way} by ${plural(shift,"space","spaces")} too`}function blockTextWords(b){let key=shownJson(b.key),deep=b.keyIndent+2;return{message:`line ${String(b.n)}, the text of the ${b.indicator} block of ${key} on line ${String(b.header)}, is indented by ${b.at===0?"no spaces":plural(b.at,"space","spaces")}, no deeper than ${key}, so YAML reads the block as empty and line ${String(b.n)} as ${b.readAs}`,fix:`indent the block's text deeper than ${key}: by ${plural(deep,"space","spaces")}, so that line ${String(b.n)} reads
    ${" ".repeat(deep)}${b.here.trimStart()}
  and each line of the text after it too`}}export{alsoMoved,blockTextWords};
