import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-HZVLLRTU.js";import"./chunk-4QSQJG5L.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
