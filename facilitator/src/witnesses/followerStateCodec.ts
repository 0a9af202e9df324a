/**
 * The follower's state as text for the storage adapters (witnessState port), and back. Every bigint is a
 * decimal string; the text is parsed with a schema, so a state written by another version or damaged is refused
 * as a whole ({@link decodeFollowerState} answers `undefined`) and the follower starts from the deployment block.
 */
import { AddressSchema, TRANSFER_TREE_HEIGHT } from "@svc/scheme";
import { z } from "zod";
import type { TreeFollowerState } from "./createTreeFollower.js";

const Decimal = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .transform((value) => BigInt(value));

const FollowerStateSchema = z.object({
  version: z.literal(1),
  tree: z.object({
    size: Decimal,
    frontier: z.array(Decimal).length(TRANSFER_TREE_HEIGHT),
    tracked: z.array(z.object({ leafIndex: Decimal, leaf: Decimal, siblings: z.array(Decimal).length(TRANSFER_TREE_HEIGHT) })),
  }),
  hashChain: Decimal,
  nextBlock: Decimal,
  lastChecked: z.object({ index: Decimal, root: Decimal }).optional(),
  // Absent from states saved before paths were released by burn address.
  trackedRecipients: z.array(z.object({ leafIndex: Decimal, to: AddressSchema })).optional(),
});

/** The text stored for `state`. */
export function encodeFollowerState(state: TreeFollowerState): string {
  return JSON.stringify({ version: 1, ...state }, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/** The state stored as `text`, or `undefined` when the text is not a state this version wrote. */
export function decodeFollowerState(text: string): TreeFollowerState | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = FollowerStateSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { version: _version, ...state } = parsed.data;
  return state;
}
