// The one door to YAML. Suite files are read by two parsers, each for what it does best: js-yaml
// for the values (about six times faster, which matters for thousands of fixtures) and the `yaml`
// package for positions and the words of syntax errors (see docs/architecture.md, "Reading YAML").
// Neither parser's types pass this door: a checker gets plain values and a SourceFile that answers
// "where is this key, this value, this item?".

export { colonsLeftOutOf, colonsLeftOutOfIssues, readYaml, type LoadedYaml } from './read.js';
export { documentSource, lazyParses, pathText, type PathSegment, type Position, type SourceEntry, type SourceFile } from './source.js';
export { loadYamlPackage, withYamlPackage, yamlPackage, YamlNotLoaded } from './package.js';
