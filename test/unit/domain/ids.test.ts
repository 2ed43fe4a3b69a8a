import { describe, expect, it } from "vitest"
import { eventId, featureId } from "../../../shared/domain/ids.js"

describe("ids", () => {
  it("are the same ones every earlier version derived (stored rows and subscribers keep them)", () => {
    expect(eventId("sim-wzdx-ia", "5a1f-é-1")).toBe("ev_3yALxqV9X_wXqL94llq2jS")
    expect(featureId("sim-wzdx-ia", "5a1f-é-1")).toBe("ft_3yALxqV9X_wXqL94llq2jS")
  })
})
