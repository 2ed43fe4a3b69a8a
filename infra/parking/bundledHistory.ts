/** The bundled month of TPIMS readings (infra/data/PROVENANCE.md): the forecaster's seed and its evaluation data. */
export const BUNDLED_PARKING_HISTORY = new URL("../data/tpims_dynamic_2026-07.csv.gz", import.meta.url).pathname
