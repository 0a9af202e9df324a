import { MALFORMED_PAYLOAD } from "../reasons/reasonCodes.js";
import { describeIssues } from "./describeIssues.js";
import { type PermitPayload, PermitPayloadSchema } from "./permitPayload.js";
import { type SelfTransferPayload, SelfTransferPayloadSchema } from "./selfTransferPayload.js";

/** The three fields that together make a permit payload; any one of them commits the payload to that path. */
const PERMIT_TRIPLE = ["permit", "payer", "burnAuthSig"] as const;

/** The outcome of applying the payload discrimination rule: one of the two paths, or malformed. */
export type ClassifiedPayload =
  | { kind: "permit"; payload: PermitPayload }
  | { kind: "self-transfer"; payload: SelfTransferPayload }
  | { kind: "malformed"; reason: typeof MALFORMED_PAYLOAD; detail: string };

/**
 * Applies the frozen discrimination rule: if any of `permit`, `payer`, `burnAuthSig` is present all three
 * must be and the payload is a permit payload; otherwise `burnTxHash` selects self-transfer; anything else is
 * malformed. A partial triple is malformed and never falls through to self-transfer, so a stripped permit
 * cannot be replayed as someone else's burn. Also applies to the legacy direct `/settle` bodies.
 *
 * @example
 * const result = classifyPayload(paymentPayload.payload);
 * if (result.kind === "malformed") return { isValid: false, invalidReason: result.reason };
 */
export function classifyPayload(payload: unknown): ClassifiedPayload {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return malformed("payload is not an object");
  }
  // A key holding `undefined` is absent; `null` is present, so it cannot be used to dodge the rule.
  const has = (key: string): boolean => Object.hasOwn(payload, key) && Reflect.get(payload, key) !== undefined;

  const present = PERMIT_TRIPLE.filter(has);
  if (present.length > 0) {
    if (present.length < PERMIT_TRIPLE.length) {
      const missing = PERMIT_TRIPLE.filter((key) => !has(key));
      return malformed(`partial permit payload: has ${present.join(", ")} but lacks ${missing.join(", ")}`);
    }
    const parsed = PermitPayloadSchema.safeParse(payload);
    return parsed.success ? { kind: "permit", payload: parsed.data } : malformed(describeIssues(parsed.error));
  }

  if (has("burnTxHash")) {
    const parsed = SelfTransferPayloadSchema.safeParse(payload);
    return parsed.success ? { kind: "self-transfer", payload: parsed.data } : malformed(describeIssues(parsed.error));
  }

  return malformed("payload has neither the permit fields nor burnTxHash");
}

function malformed(detail: string): ClassifiedPayload {
  return { kind: "malformed", reason: MALFORMED_PAYLOAD, detail };
}
