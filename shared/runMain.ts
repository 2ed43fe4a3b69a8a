import { Cause, Effect, Exit, Fiber, Layer, Logger, LogLevel } from "effect"

/**
 * Runs a program until SIGINT/SIGTERM, then interrupts it so scoped resources close
 * (connections, HTTP servers, consumer fibers). The only place a process enters Effect.
 */
export const runMain = <E>(program: Effect.Effect<never, E> | Layer.Layer<never, E>, level = process.env.LOG_LEVEL ?? "info") => {
  const effect = Layer.isLayer(program) ? Layer.launch(program as Layer.Layer<never, E>) : (program as Effect.Effect<never, E>)
  const logLevel = LogLevel.fromLiteral((level.charAt(0).toUpperCase() + level.slice(1)) as LogLevel.Literal)
  const fiber = Effect.runFork(effect.pipe(Logger.withMinimumLogLevel(logLevel), Effect.provide(Logger.logFmt)))
  const stop = () => Effect.runFork(Fiber.interrupt(fiber))
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
      console.error(Cause.pretty(exit.cause))
      process.exit(1)
    }
    process.exit(0)
  })
}
