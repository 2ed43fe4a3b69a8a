import { Context, FiberRefs, FiberRef, HashMap, Logger, Option, Tracer } from "effect"

/**
 * One logfmt line per log event, as before, plus `trace_id` and `span_id` while a traced span is
 * open: the poll that saw a change, the stage batches that carried it and the webhook attempt
 * that delivered it log the same trace id, so `grep trace_id=…` follows a change across
 * processes (with tracing off there is no span and no extra field).
 */
const tracedLogfmt = Logger.make<unknown, string>((options) => {
  const span = Context.getOption(FiberRefs.getOrDefault(options.context, FiberRef.currentContext), Tracer.ParentSpan)
  if (Option.isNone(span) || span.value._tag !== "Span") return Logger.logfmtLogger.log(options)
  const annotations = HashMap.set(
    HashMap.set(options.annotations, "trace_id", span.value.traceId as unknown),
    "span_id",
    span.value.spanId as unknown
  )
  return Logger.logfmtLogger.log({ ...options, annotations })
})

/** The processes' logger (runMain): logfmt lines on stdout with trace ids when traced. */
export const LogLinesLive = Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(tracedLogfmt))
