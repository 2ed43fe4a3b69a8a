import { CA_PROVINCES, US_STATES } from "../../shared/domain/Jurisdictions.js"

/** Reference jurisdictions (SPEC §2.6). Codes are stable: sources and API keys refer to them. */
export interface JurisdictionSeed {
  readonly code: string
  readonly name: string
  readonly official_name: string | null
  readonly country: "US" | "CA"
  readonly scope: "state" | "federal" | "regional"
  readonly group_id: string | null
}

/** States whose DOT also publishes a Connected Work Zone (CWZ 1.0) feed. */
const CWZ_STATES = ["CO"]

const extra: ReadonlyArray<JurisdictionSeed> = [
  {
    code: "FHWA",
    name: "Federal Highway Administration",
    official_name: "U.S. Department of Transportation, Federal Highway Administration",
    country: "US",
    scope: "federal",
    group_id: null
  },
  {
    code: "NPS",
    name: "National Park Service roads",
    official_name: "U.S. National Park Service",
    country: "US",
    scope: "federal",
    group_id: null
  },
  {
    code: "EIA",
    name: "U.S. Energy Information Administration",
    official_name: "U.S. Department of Energy, Energy Information Administration",
    country: "US",
    scope: "federal",
    group_id: null
  },
  {
    code: "STATCAN",
    name: "Statistics Canada",
    official_name: "Statistics Canada",
    country: "CA",
    scope: "federal",
    group_id: null
  },
  {
    code: "PARKS_CA",
    name: "Parks Canada roads",
    official_name: "Parks Canada Agency",
    country: "CA",
    scope: "federal",
    group_id: null
  },
  {
    code: "NYC",
    name: "New York City",
    official_name: "New York City Department of Transportation",
    country: "US",
    scope: "regional",
    group_id: "us-ny"
  },
  {
    code: "TPIMS_MAASTO",
    name: "MAASTO truck parking",
    official_name: "Mid America Association of State Transportation Officials TPIMS",
    country: "US",
    scope: "regional",
    group_id: null
  },
  {
    code: "ON_TORONTO",
    name: "Toronto",
    official_name: "City of Toronto Transportation Services",
    country: "CA",
    scope: "regional",
    group_id: "ca-on"
  }
]

export const groupId = (country: "US" | "CA", code: string) => `${country.toLowerCase()}-${code.toLowerCase()}`

export const jurisdictionSeeds = (): ReadonlyArray<JurisdictionSeed & { member_order: number }> => {
  const rows: Array<JurisdictionSeed & { member_order: number }> = []
  for (const [code, name] of US_STATES) {
    const g = groupId("US", code)
    rows.push({
      code,
      name,
      official_name: `State of ${name}`,
      country: "US",
      scope: "state",
      group_id: g,
      member_order: 0
    })
    rows.push({
      code: `WZDX_${code}`,
      name: `${name} work zones (WZDx)`,
      official_name: null,
      country: "US",
      scope: "state",
      group_id: g,
      member_order: 10
    })
    if (CWZ_STATES.includes(code)) {
      rows.push({
        code: `WZDX_CWZ_${code}`,
        name: `${name} connected work zones (CWZ)`,
        official_name: null,
        country: "US",
        scope: "state",
        group_id: g,
        member_order: 20
      })
    }
  }
  for (const [code, name] of CA_PROVINCES) {
    rows.push({
      code,
      name,
      official_name: `Province or territory of ${name}`,
      country: "CA",
      scope: "state",
      group_id: groupId("CA", code),
      member_order: 0
    })
  }
  for (const e of extra) rows.push({ ...e, member_order: 50 })
  return rows
}

export const groupSeeds = () => [
  ...US_STATES.map(([code, name], i) => ({
    id: groupId("US", code),
    name,
    description: `All sources for ${name}`,
    primary_jurisdiction_code: code,
    sort_order: i
  })),
  ...CA_PROVINCES.map(([code, name], i) => ({
    id: groupId("CA", code),
    name,
    description: `All sources for ${name}`,
    primary_jurisdiction_code: code,
    sort_order: 100 + i
  }))
]
