'use strict'

module.exports = require('neostandard')({
  ts: true,
  // test/types/contract-*.ts are written by `fastify-soap types` (test/contract-types.test.ts keeps them so)
  ignores: ['dist/**', 'coverage/**', 'benchmarks/results/**', 'test/types/contract-*.ts']
})
