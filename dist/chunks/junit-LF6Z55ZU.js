import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-G5DT7NNM.js";import"./chunk-X2PMLLA3.js";import"./chunk-77P7Y7FH.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
