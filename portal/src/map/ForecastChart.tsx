import type { ParkingForecast } from "../../../api/schemas/parking.js"
import { formatClock } from "../route/localTime.js"

type Forecast = typeof ParkingForecast.Type

const W = 320
const H = 150
const PAD = { left: 30, right: 8, top: 10, bottom: 24 }

/** "21:40" on the site's own clock. */
const clock = (iso: string, zone: string) =>
  new Date(iso).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone })

/**
 * A truck-parking site's next hours as a chart: the p10–p90 band shaded, the median as a line,
 * the capacity as the top. Drawn as SVG from the answer's numbers (nothing from upstream as markup).
 */
export const ForecastChart = ({ forecast, zone }: { forecast: Forecast; zone: string }) => {
  const points = forecast.points
  if (points.length === 0) return null
  const top = Math.max(forecast.capacity ?? 0, ...points.map((p) => p.p90), 1)
  const t0 = Date.parse(points[0].at)
  const t1 = Date.parse(points[points.length - 1].at)
  const x = (iso: string) => PAD.left + ((Date.parse(iso) - t0) / Math.max(1, t1 - t0)) * (W - PAD.left - PAD.right)
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom)
  const band =
    points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.at).toFixed(1)},${y(p.p90).toFixed(1)}`).join(" ") +
    " " +
    [...points]
      .reverse()
      .map((p) => `L${x(p.at).toFixed(1)},${y(p.p10).toFixed(1)}`)
      .join(" ") +
    " Z"
  const median = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.at).toFixed(1)},${y(p.p50).toFixed(1)}`).join(" ")
  // a tick every three hours of the answer
  const ticks = points.filter((_, i) => i % 12 === 0)
  const last = points[points.length - 1]
  const hours = Math.max(1, Math.round((t1 - t0) / 3_600_000 + 0.25))
  const summary =
    `Free spaces forecast for the next ${hours} hours: ` +
    `${Math.round(points[0].p50)} now, ${Math.round(last.p50)} (${Math.round(last.p10)}–${Math.round(last.p90)}) at ` +
    formatClock(last.at, zone)
  return (
    <figure class="forecast-chart" data-testid="parking-forecast">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} class="axis" />
        {forecast.capacity !== null && (
          <>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(forecast.capacity)}
              y2={y(forecast.capacity)}
              class="capacity"
            />
            <text x={PAD.left - 4} y={y(forecast.capacity) + 4} text-anchor="end" class="tick">
              {forecast.capacity}
            </text>
          </>
        )}
        <text x={PAD.left - 4} y={y(0) + 4} text-anchor="end" class="tick">
          0
        </text>
        <path d={band} class="band" />
        <path d={median} class="median" />
        {ticks.map((p) => (
          <text key={p.at} x={x(p.at)} y={H - 6} text-anchor="middle" class="tick">
            {clock(p.at, zone)}
          </text>
        ))}
      </svg>
      <figcaption class="hint">
        {summary}. Shaded: eight in ten times the count falls there
        {forecast.capacity !== null ? `; line at the top: the ${forecast.capacity} spaces` : ""}.
      </figcaption>
    </figure>
  )
}
