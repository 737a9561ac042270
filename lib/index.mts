/**
 * The ES module entry (package.json "exports", "import"): the same package,
 * its default export the plugin itself, as `import soap from 'fastify-soap'`
 * expects, and every named export beside it. Node runs the CommonJS build
 * under it, so both entries share one plugin, one set of classes and codes.
 */
import { fastifySoap } from './index.js'

export * from './index.js'
export default fastifySoap
