import type { SourceAdapter } from "./Adapter.js"
import { cars } from "./cars.js"
import { cdot_opentms } from "./cdot_opentms.js"
import { cdot_planned_events } from "./cdot_planned_events.js"
import { drivebc_border } from "./drivebc_border.js"
import { drivebc_dms } from "./drivebc_dms.js"
import { drivebc_rest_areas } from "./drivebc_rest_areas.js"
import { drivebc_rwis } from "./drivebc_rwis.js"
import { drivebc_webcams } from "./drivebc_webcams.js"
import { icone } from "./icone.js"
import { eia_weekly } from "./eia_weekly.js"
import { ibi511 } from "./ibi511.js"
import { indiana_rest_areas } from "./indiana_rest_areas.js"
import { tmdd } from "./tmdd.js"
import { tpims } from "./tpims.js"
import { navjoy } from "./navjoy.js"
import { ocpi } from "./ocpi.js"
import { open511 } from "./open511.js"
import { open511_cameras } from "./open511_cameras.js"
import { statcan_monthly } from "./statcan_monthly.js"
import { wzdx } from "./wzdx.js"
import { wzdx_devices } from "./wzdx_devices.js"
import { wzdx_restrictions } from "./wzdx_restrictions.js"

/** Every adapter the pipeline knows, by id. Adding a format = one file + one line here. */
export const adapters: ReadonlyMap<string, SourceAdapter> = new Map<string, SourceAdapter>(
  [
    wzdx,
    open511,
    ibi511,
    drivebc_webcams,
    tpims,
    ocpi,
    wzdx_restrictions,
    wzdx_devices,
    drivebc_rest_areas,
    indiana_rest_areas,
    drivebc_dms,
    drivebc_rwis,
    cdot_planned_events,
    open511_cameras,
    eia_weekly,
    statcan_monthly,
    drivebc_border,
    tmdd,
    cars,
    icone,
    navjoy,
    cdot_opentms
  ].map((a) => [a.id, a] as const)
)
