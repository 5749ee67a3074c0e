// The house rules as lint rules (README "Layout"): parameter counts, empty catch blocks, literal
// enum codes where src-shared/enums.ts names them, file length, and TypeScript's recommended set.
// Formatting is Prettier's (`npm run format`); import boundaries are test/main/layers.test.ts's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Record fields whose values are the numeric enums of src-shared/enums.ts. */
const ENUM_FIELDS = [
  'side',
  'type',
  'status',
  'role',
  'time_in_force',
  'timeInForce',
  'tif',
  'position_side',
  'positionSide',
  'position_action',
  'positionAction',
  'margin_mode',
  'marginMode',
  'close_type',
  'closeType',
  'taker_side',
  'takerSide',
  'order_type',
  'orderType',
];
const FIELD = `/^(${ENUM_FIELDS.join('|')})$/`;
const enumLiteral = (side) =>
  `BinaryExpression[operator=/^[!=]==?$/][${side}.type='MemberExpression'][${side}.property.name=${FIELD}]`;

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        localStorage: 'readonly',
        requestAnimationFrame: 'readonly',
        cancelAnimationFrame: 'readonly',
        WebSocket: 'readonly',
        crypto: 'readonly',
      },
    },
    rules: {
      // Past five parameters a call site cannot be read without the signature: an options object.
      'max-params': ['error', 5],
      '@typescript-eslint/max-params': 'off',
      // An empty catch turns any error into silence: handle it, rethrow it, or say why in a comment.
      'no-empty': ['error', { allowEmptyCatch: false }],
      'max-len': [
        'error',
        { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreTemplateLiterals: true, ignoreStrings: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    rules: {
      // `o.side === 1` says nothing a reader can check; `o.side === Side.BUY` does.
      'no-restricted-syntax': [
        'error',
        {
          selector: `${enumLiteral('left')}[right.type='Literal'][right.raw=/^[0-9]+$/]`,
          message: 'Compare an enum field with its name from src-shared/enums.ts (Side.BUY), not a literal code.',
        },
        {
          selector: `${enumLiteral('right')}[left.type='Literal'][left.raw=/^[0-9]+$/]`,
          message: 'Compare an enum field with its name from src-shared/enums.ts (Side.BUY), not a literal code.',
        },
        {
          selector: `SwitchStatement[discriminant.type='MemberExpression'][discriminant.property.name=${FIELD}] > SwitchCase > Literal.test[raw=/^[0-9]+$/]`,
          message: 'Switch on an enum field with case labels from src-shared/enums.ts, not literal codes.',
        },
      ],
    },
  },
  {
    // Test tables pass a case's columns positionally (one row a line reads better than objects).
    files: ['test/**/*.ts', 'e2e/**/*.ts'],
    rules: { 'max-params': ['error', 8] },
  },
  {
    // No source file over 500 lines outside the engine (whose hot path is kept in one file per job).
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    ignores: ['src-main/engine/**'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
);
