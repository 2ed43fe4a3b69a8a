/** The columns of a feature as the API answers it (SPEC §2.2), for queries that read whole rows. */
export const FEATURE_COLUMNS = `id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
  road_name, direction, is_active, start_time, end_time, estimated_start_time, estimated_end_time, properties,
  last_updated, has_details`
