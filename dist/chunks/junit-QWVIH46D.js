import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-TKFWJ3GI.js";import"./chunk-TAAYUXFU.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
