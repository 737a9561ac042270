'use strict'

module.exports = require('neostandard')({
  ts: true,
  // test/types/contract-*.ts and examples/contract-first/src/contract.ts are written by `fastify-soap types`
  // (test/contract-types.test.ts and test/examples.test.ts keep them so)
  ignores: ['dist/**', 'coverage/**', 'benchmarks/results/**', 'test/types/contract-*.ts',
    'examples/*/dist/**', 'examples/*/node_modules/**', 'examples/contract-first/src/contract.ts']
})
