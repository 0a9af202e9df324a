import { describe, expect, it } from "vitest";

import * as facilitator from "./index.js";

describe("public surface", () => {
  // Adding, renaming or removing an export must be a deliberate change to this list.
  it("exports exactly these runtime names", () => {
    expect(Object.keys(facilitator).sort()).toEqual([
      "InProcessSettlementFailedError",
      "InProcessSettlementStoppedError",
      "SVC_ZERC20_CAIP_FAMILY",
      "createSvcZerc20SchemeFacilitator",
      "registerSvcZerc20Facilitator",
      "startDaemon",
    ]);
  });
});
