import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
function unicodePattern(source,flags){let built;return()=>built??=new RegExp(source,flags)}export{unicodePattern};
