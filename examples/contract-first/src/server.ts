/** `npm start`: the VIES checkVat service on 127.0.0.1:3000 (HOST and PORT override it). */
import { buildApp, WSDL } from './app.js'

const app = await buildApp({ logger: { level: 'info' } })
const host = process.env.HOST ?? '127.0.0.1'
await app.listen({ host, port: Number(process.env.PORT ?? 3000) })

const address = app.server.address()
const port = address !== null && typeof address === 'object' ? address.port : 3000
const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
console.log(`checkVatService (${WSDL}): POST SOAP 1.1 (text/xml) or 1.2 (application/soap+xml) to ${base}/vies`)
console.log(`WSDL: ${base}/vies?wsdl`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}
