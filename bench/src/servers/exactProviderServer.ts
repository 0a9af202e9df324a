/**
 * The provider side of the official x402 `exact` scheme, built the way the demo provider is built so the two
 * compare like for like: Express, the official `@x402/express` `paymentMiddleware`, an `x402ResourceServer`
 * with `@x402/evm`'s exact server scheme and an `HTTPFacilitatorClient`, one priced `GET /weather` paid in
 * the EIP-3009 fixture token, and one JSON log line per request.
 *
 * Environment: `FACILITATOR_URL`, `PAY_TO`, `ASSET`, `ASSET_NAME`, `ASSET_VERSION`, `PRICE` (base units),
 * `CHAIN_ID`, `PORT` (0 = free port). Prints `{"event":"listening","url":...}` when ready.
 */
import type { AddressInfo } from "node:net";
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import type { Network } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddleware } from "@x402/express";
import express from "express";
import { announceListening, integerEnv, requireEnv } from "./serverEnv.js";

const facilitatorUrl = requireEnv("FACILITATOR_URL");
const payTo = requireEnv("PAY_TO");
const asset = requireEnv("ASSET");
const assetName = requireEnv("ASSET_NAME");
const assetVersion = requireEnv("ASSET_VERSION");
const price = requireEnv("PRICE");
const network: Network = `eip155:${integerEnv("CHAIN_ID", 31337)}`;

const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitatorUrl }));
registerExactEvmScheme(resourceServer, { networks: [network] });

const app = express();
app.disable("x-powered-by");
app.use((request, response, next) => {
  response.on("finish", () => {
    process.stdout.write(
      `${JSON.stringify({ event: "request", ts: new Date().toISOString(), method: request.method, path: request.path, status: response.statusCode })}\n`,
    );
  });
  next();
});
app.use(
  paymentMiddleware(
    {
      "GET /weather": {
        accepts: {
          scheme: "exact",
          network,
          payTo,
          price: { amount: price, asset, extra: { name: assetName, version: assetVersion } },
          maxTimeoutSeconds: 300,
        },
        description: "Current weather",
        mimeType: "application/json",
      },
    },
    resourceServer,
  ),
);
app.get("/weather", (_request, response) => {
  response.json({ city: "Zurich", temperatureC: 18, conditions: "sunny", windKph: 9 });
});

const server = app.listen(integerEnv("PORT", 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  announceListening(`http://127.0.0.1:${port}`);
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
