'use strict'

module.exports = [
  ...require('neostandard')({
    ts: true,
    // test/types/contract-*.ts and examples/contract-first/src/contract.ts are written by `fastify-soap types`
    // (test/contract-types.test.ts and test/examples.test.ts keep them so)
    ignores: ['dist/**', 'coverage/**', 'benchmarks/results/**', 'test/types/contract-*.ts',
      'examples/*/dist/**', 'examples/*/node_modules/**', 'examples/contract-first/src/contract.ts']
  }),
  {
    // Lines a person can read (docs/architecture.md): a line that cannot be wrapped (a served schema's
    // text, a URI, a regular expression literal) says so in a disable comment with its reason.
    files: ['lib/**/*.ts'],
    rules: { '@stylistic/max-len': ['error', { code: 120 }] }
  }
]
