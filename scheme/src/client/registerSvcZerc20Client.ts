import type { x402Client } from "@x402/core/client";

import type { Address } from "../wire/address.js";
import type { DecimalString } from "../wire/decimalString.js";
import type { Network } from "../wire/network.js";
import { SvcZerc20SchemeClient, type SvcZerc20SchemeClientOptions } from "./svcZerc20SchemeClient.js";

/** One token the x402 client may pay with, and the most it may pay per payment in base units. */
export type SvcZerc20AllowedAsset = {
  network: Network;
  /** The zERC20 token contract. */
  asset: Address;
  /** Per-payment cap in base units. */
  maxAmountPerPayment: DecimalString;
};

/** Inputs to `registerSvcZerc20Client`. */
export type RegisterSvcZerc20ClientParameters = SvcZerc20SchemeClientOptions & {
  /**
   * The tokens to allow, each with its cap. Core's spend controls reject any asset they do not know, so a
   * zERC20 token must be listed; the list replaces the x402 client's spend controls.
   */
  allowedAssets: readonly SvcZerc20AllowedAsset[];
};

/**
 * Registers the svc-zerc20 payer plugin on an `x402Client` for every network of `allowedAssets`, and sets
 * the client's spend controls to exactly those assets and caps: explicit, never switched off. Returns the
 * plugin so the caller can inspect it.
 *
 * @example
 * registerSvcZerc20Client(new x402Client(), {
 *   mode: "permit", publicClient, walletClient,
 *   allowedAssets: [{ network: "eip155:31337", asset: token, maxAmountPerPayment: "1000000" }],
 * });
 */
export function registerSvcZerc20Client(client: x402Client, parameters: RegisterSvcZerc20ClientParameters): SvcZerc20SchemeClient {
  const { allowedAssets, ...options } = parameters;
  const plugin = new SvcZerc20SchemeClient(options);
  for (const network of new Set(allowedAssets.map((entry) => entry.network))) client.register(network, plugin);
  client.setSpendControls({ allowedAssets: allowedAssets.map((entry) => ({ ...entry })) });
  return plugin;
}
