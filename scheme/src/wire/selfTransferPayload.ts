import { z } from "zod";

import { Bytes32Schema } from "./bytes32.js";

/** The self-transfer payload: the payer already broadcast `transfer(payTo, amount)` and waited for success. */
export const SelfTransferPayloadSchema = z.looseObject({
  challengeNonce: Bytes32Schema,
  /** Hash of the payer's successful burn transfer. */
  burnTxHash: Bytes32Schema,
});

/** The self-transfer payload. */
export type SelfTransferPayload = z.infer<typeof SelfTransferPayloadSchema>;
