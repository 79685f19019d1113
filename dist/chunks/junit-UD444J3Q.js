import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-YZY63W5Y.js";import"./chunk-NR2UFIBF.js";import"./chunk-GIATDDJX.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
