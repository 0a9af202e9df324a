/**
 * The zERC20 protocol versions this product speaks. `zerc20-v2` is what every published deployment runs;
 * `zerc20-v1` is the older release, kept for deployments made from it. Every stored challenge, stock entry and
 * payment names the version it was made under, because a burn address of one version cannot be withdrawn
 * under the other.
 */
import { z } from "zod";

/** `zerc20-v1` or `zerc20-v2`, as written in `[network] protocol` and in stored records. */
export const ProtocolVersionSchema = z.enum(["zerc20-v1", "zerc20-v2"]);

/** A protocol version name. */
export type ProtocolVersion = z.infer<typeof ProtocolVersionSchema>;

/** The version a configuration means when it names none: the deployed one. */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = "zerc20-v2";
