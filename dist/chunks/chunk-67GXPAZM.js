import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
function unicodePattern(source,flags){let built;return()=>built??=new RegExp(source,flags)}export{unicodePattern};
