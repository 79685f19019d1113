import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-TFHI6ZN6.js";import"./chunk-TYKRFOBC.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
