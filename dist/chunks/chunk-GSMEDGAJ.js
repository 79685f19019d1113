import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{plural}from"./chunk-U2YBARZ6.js";function alsoMoved(next,shift,way="left"){return next.length===0?"":`
  and move ${next.length===1?`line ${String(next[0])}`:`lines ${String(next[0])} to ${String(next[next.length-1])}`} ${way} by ${plural(shift,"space","spaces")} too`}export{alsoMoved};
