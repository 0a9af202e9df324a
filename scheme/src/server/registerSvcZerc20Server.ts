import type { x402ResourceServer } from "@x402/core/server";

import { type SvcZerc20ServerOptions, SvcZerc20ServerScheme } from "./svcZerc20ServerScheme.js";

/**
 * Registers the svc-zerc20 plugin on a core resource server for `options.network` and returns it, so routes
 * can be priced with `accepts(...)`. Works with any official middleware built on `x402ResourceServer`.
 *
 * @example
 * const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitatorUrl }));
 * const zerc20 = registerSvcZerc20Server(resourceServer, { network: "eip155:31337", facilitatorUrl });
 * app.use(paymentMiddleware({ "GET /weather": { accepts: zerc20.accepts({ price: "1000" }) } }, resourceServer));
 */
export function registerSvcZerc20Server(resourceServer: x402ResourceServer, options: SvcZerc20ServerOptions): SvcZerc20ServerScheme {
  const scheme = new SvcZerc20ServerScheme(options);
  resourceServer.register(options.network, scheme);
  return scheme;
}
