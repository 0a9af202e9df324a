import { z } from "zod";

import { NetworkSchema } from "./network.js";
import { SCHEME, X402_VERSION } from "./scheme.js";

/** One advertised payment kind: svc-zerc20 over x402 v2 on one network. */
export const SupportedKindSchema = z.looseObject({
  x402Version: z.literal(X402_VERSION),
  scheme: z.literal(SCHEME),
  network: NetworkSchema,
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** One advertised payment kind. */
export type SupportedKind = z.infer<typeof SupportedKindSchema>;

/**
 * The `GET /supported` body. The official middleware reads it once at start-up and exits the process when
 * no kind matches its routes; under a non-local profile `kinds` is empty.
 */
export const SupportedResponseSchema = z.looseObject({
  kinds: z.array(SupportedKindSchema),
  extensions: z.array(z.string()),
  signers: z.record(z.string(), z.array(z.string())),
});

/** The `GET /supported` body. */
export type SupportedResponse = z.infer<typeof SupportedResponseSchema>;
