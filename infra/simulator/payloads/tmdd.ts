/**
 * A TMDD v3 Full Event Update message from a simulated Iowa traffic management centre: our own
 * records, in the real XML shape (positions in microdegrees, local times with their offset).
 * Its I-80 road work is the WZDx feed's I-80 work zone (payloads/wzdx.ts) reported a second
 * time, so the demo shows one event across two sources.
 */
const micro = (deg: number) => String(Math.round(deg * 1e6))

const place = (tag: string, lat: number, lng: number, cross: string) => `
          <${tag}>
            <geo-location><latitude>${micro(lat)}</latitude><longitude>${micro(lng)}</longitude></geo-location>
            <cross-street-name><cross-street-name-item>${cross}</cross-street-name-item></cross-street-name>
          </${tag}>`

interface SimFeu {
  readonly id: string
  readonly category: string
  readonly phrase: string
  readonly severity: string
  readonly road: string
  readonly dir: string
  readonly from: readonly [number, number, string]
  readonly to?: readonly [number, number, string]
  readonly start: string
  readonly end: string
  readonly text: string
}

const feu = (e: SimFeu) => `
    <FEU>
      <message-header><organization-sending><organization-id>SIM-IA-TMC</organization-id></organization-sending><message-type-version>3</message-type-version></message-header>
      <event-reference>
        <event-id>${e.id}</event-id><event-update>1</event-update>
        <update-time><date>20261101</date><time>080000</time><offset>-0600</offset></update-time>
      </event-reference>
      <event-indicators><event-indicator><status>confirmed</status></event-indicator><event-indicator><severity>${e.severity}</severity></event-indicator></event-indicators>
      <event-headline><headline><${e.category}>${e.phrase}</${e.category}></headline></event-headline>
      <event-element-details>
        <event-element-detail>
          <event-descriptions><event-description><additional-text><description>${e.text}</description></additional-text></event-description></event-descriptions>
          <event-locations><event-location><location-on-link>
            <link-name>${e.road}</link-name>${place("primary-location", e.from[0], e.from[1], e.from[2])}${e.to ? place("secondary-location", e.to[0], e.to[1], e.to[2]) : ""}
            <link-direction>${e.dir}</link-direction>
          </location-on-link></event-location></event-locations>
          <event-times>
            <start-time><date>${e.start}</date><time>000000</time><offset>-0600</offset></start-time>
            <expected-end-time><date>${e.end}</date><time>170000</time><offset>-0600</offset></expected-end-time>
          </event-times>
        </event-element-detail>
      </event-element-details>
    </FEU>`

export const tmddFeed = () => `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
  <soapenv:Body>
    <mes:fEUMsg xmlns:mes="http://www.tmdd.org/3/messages">${[
      feu({
        id: "IA-TMC-4107",
        category: "roadwork",
        phrase: "road construction",
        severity: "moderate",
        road: "I-80",
        dir: "n",
        from: [41.6551, -93.5195, "Exit 137"],
        to: [41.6559, -93.5108, "Exit 138"],
        start: "20261102",
        end: "20261130",
        text: "Right lane closed for bridge joint repair."
      }),
      feu({
        id: "IA-TMC-4110",
        category: "accidents-and-incidents",
        phrase: "accident",
        severity: "major",
        road: "I-235",
        dir: "w",
        from: [41.5912, -93.641, "MLK Jr Pkwy"],
        start: "20261101",
        end: "20261101",
        text: "Two vehicles, left lane blocked."
      })
    ].join("")}
    </mes:fEUMsg>
  </soapenv:Body>
</soapenv:Envelope>
`
