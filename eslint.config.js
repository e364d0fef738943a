import path from 'node:path'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * Project rules that need the importing file's location (STYLE.md 1): a client feature does not
 * import another feature's internals; shared code lives in src/shared, src/client/lib or components,
 * and features are composed in routes/ and app/.
 */
const boundaries = {
  rules: {
    'no-cross-feature-imports': {
      meta: { type: 'problem', messages: { cross: 'Client feature "{{from}}" must not import feature "{{to}}": compose features in routes/ or app/, or move shared code to src/client/lib, components or src/shared.' } },
      create(context) {
        const own = /src\/client\/features\/([^/]+)\//.exec(context.filename.split(path.sep).join('/'))?.[1]
        if (!own) return {}
        const check = (node) => {
          const spec = node.source?.value
          if (typeof spec !== 'string') return
          let target
          if (spec.startsWith('#client/features/')) target = spec.split('/')[2]
          else if (spec.startsWith('.')) {
            const resolved = path.resolve(path.dirname(context.filename), spec).split(path.sep).join('/')
            target = /src\/client\/features\/([^/]+)/.exec(resolved)?.[1]
          }
          if (target && target !== own) context.report({ node, messageId: 'cross', data: { from: own, to: target } })
        }
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
      },
    },
  },
}

const PROVIDER_BRANCH_MESSAGE =
  'Only src/server/integrations/mail may branch on a mail provider\'s name (DESIGN "integrations/mail"): add an intent to the MailProvider interface instead.'

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'drizzle', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Only config.ts reads the environment (STYLE.md 11).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts', 'src/cli/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' }],
    },
  },
  {
    // The server and client never import each other; shared imports neither (STYLE.md 3).
    files: ['src/client/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['\\#server/*', '**/server/**', '\\#fakes/*'] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['\\#client/*', '**/client/**'] }] },
  },
  {
    // The classifier is a pure library (DESIGN): no server, client or fakes.
    files: ['src/classifier/**/*.ts'],
    // Its tests may drive the local fakes (the LLM stand-in).
    ignores: ['src/classifier/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['\\#client/*', '**/client/**', '\\#server/*', '**/server/**', '\\#fakes/*', '**/fakes/**'] }] },
  },
  {
    files: ['src/client/features/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-feature-imports': 'error' },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/integrations/mail/**', 'src/server/**/*.test.ts', 'src/server/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(gmail|outlook)$/]', message: PROVIDER_BRANCH_MESSAGE },
        { selector: 'SwitchCase > Literal.test[value=/^(gmail|outlook)$/]', message: PROVIDER_BRANCH_MESSAGE },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['\\#server/*', '\\#client/*', 'node:*', 'drizzle-orm', 'drizzle-orm/*'] }],
    },
  },
  {
    files: ['src/client/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
)
