import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-ULKGTLY7.js";import"./chunk-AV5SZX2K.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
