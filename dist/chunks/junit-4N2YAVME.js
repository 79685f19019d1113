import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-QFDOXXMH.js";import"./chunk-NEZ4WYWP.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
