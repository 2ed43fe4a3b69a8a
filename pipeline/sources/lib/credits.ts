import type { SourceCredit } from "../Adapter.js"

/** Credits that several adapters of one publisher require. */
export const DRIVEBC_CREDIT: SourceCredit = {
  name: "DriveBC",
  text: "Contains information licensed under the Open Government Licence – British Columbia",
  url: "https://www.drivebc.ca",
  license: "OGL-BC"
}
