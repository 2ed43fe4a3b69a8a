import { Metric } from "effect"

/** Snapshots the analytics stage wrote (events with a station near enough to describe them). */
export const weatherSnapshots = Metric.counter("analytics_weather_snapshots_total", {
  description: "EventWeatherSnapshots recorded at event creation"
})
