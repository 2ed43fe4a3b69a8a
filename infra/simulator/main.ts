import { DEMO_LOOP_S, startSimulator } from "./Simulator.js"

const port = Number(process.env.SIMULATOR_PORT ?? 3999)
const sim = await startSimulator(port, "0.0.0.0", { loopS: DEMO_LOOP_S })
console.log(`upstream simulator listening on ${sim.url} (its script restarts every ${DEMO_LOOP_S} s)`)
const stop = () => sim.close().then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
