import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']", message: 'Only the CLI entry may exit the process.' },
      ],
    },
  },
  {
    files: ['src/evaluate/**', 'src/report/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fs', 'path', 'undici', '@actions/*', '../github/*', '../agent/*', '../judge/*'] },
      ],
    },
  },
  { files: ['src/cli.ts', 'bench/**', 'scripts/**'], rules: { 'no-restricted-syntax': 'off' } },
);
