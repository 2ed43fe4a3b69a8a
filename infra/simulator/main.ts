import { startSimulator } from "./Simulator.js"

const port = Number(process.env.SIMULATOR_PORT ?? 3999)
const sim = await startSimulator(port, "0.0.0.0")
console.log(`upstream simulator listening on ${sim.url}`)
const stop = () => sim.close().then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
