import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-S7C5P4O3.js";import"./chunk-NM7T5M63.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
