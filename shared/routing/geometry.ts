import { distance } from "geokdbush"

/** Great-circle metres between two points (geokdbush's haversine, R = 6371 km). */
export const haversineM = (lat1: number, lng1: number, lat2: number, lng2: number) => distance(lng1, lat1, lng2, lat2) * 1000
