import { type Network, SCHEME, X402_VERSION } from "@svc/scheme";
import type { FacilitatorClient } from "@x402/core/server";

import { FacilitatorUnavailableError, SchemeNotSupportedError } from "./errors.js";

/** What to check. */
export type CheckFacilitatorSupportParameters = {
  facilitatorClient: FacilitatorClient;
  /** For messages only. */
  facilitatorUrl: string;
  network: Network;
};

/**
 * Confirms, before the provider listens, that the facilitator answers `GET /supported` and advertises
 * svc-zerc20 on the network. The official middleware makes the same call, but on failure it either exits the
 * process with a stack trace or keeps answering 500, so the provider checks first and stops with a named
 * error: `FacilitatorUnavailableError` or `SchemeNotSupportedError`.
 */
export async function checkFacilitatorSupport(parameters: CheckFacilitatorSupportParameters): Promise<void> {
  const { facilitatorClient, facilitatorUrl, network } = parameters;
  let supported;
  try {
    supported = await facilitatorClient.getSupported();
  } catch (cause) {
    throw new FacilitatorUnavailableError({ facilitatorUrl, cause });
  }
  const matches = supported.kinds.some((kind) => kind.x402Version === X402_VERSION && kind.scheme === SCHEME && kind.network === network);
  if (!matches) {
    const advertised = supported.kinds.map((kind) => `${kind.scheme} on ${kind.network} (x402 v${kind.x402Version})`);
    throw new SchemeNotSupportedError({ facilitatorUrl, network, advertised });
  }
}
