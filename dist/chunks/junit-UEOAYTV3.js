import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-UKOUGSNA.js";import"./chunk-3HSU62FY.js";import"./chunk-GIATDDJX.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
