import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-YE57BEVO.js";import"./chunk-TTW5DTM5.js";import"./chunk-77P7Y7FH.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
