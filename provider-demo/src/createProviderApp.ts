import { type DecimalString, facilitatorAuthHeaders, type Network, registerSvcZerc20Server } from "@svc/scheme";
import { paymentMiddleware } from "@x402/express";
import { type FacilitatorClient, HTTPFacilitatorClient, type RoutesConfig, x402ResourceServer } from "@x402/core/server";
import express, { type ErrorRequestHandler, type Express } from "express";

import { logRequests } from "./logRequests.js";
import { demoWeatherSource, type WeatherSource } from "./weatherSource.js";

/** `GET /forecast` costs this many times the `/weather` price. */
const FORECAST_PRICE_FACTOR = 3n;

/** What the demo app is built from. */
export type ProviderAppOptions = {
  /** The facilitator's base URL: offers come from its `POST /challenge`. */
  facilitatorUrl: string;
  /** The CAIP-2 network to sell on. */
  network: Network;
  /** List price of `GET /weather` in base units. */
  price: DecimalString;
  /** Verify, settle and supported go through this client; default `HTTPFacilitatorClient` at `facilitatorUrl`. */
  facilitatorClient?: FacilitatorClient | undefined;
  /** The plugin's offer cache size (default 5000). */
  maxCachedOffers?: number | undefined;
  /** The data behind the priced routes; default the demo's fixed data. */
  weather?: WeatherSource | undefined;
  /** Receives one JSON line per request; default: nothing is logged. */
  log?: ((line: string) => void) | undefined;
  /** This provider's key at the facilitator, sent on every facilitator call (`[providers.<name>]` there). */
  providerKey?: string | undefined;
};

// Set by this app from the socket (Express's `request.ip`) before the payment middleware runs, overwriting
// anything a client sent under that name; the plugin reads it back to forward the payer's address.
const PAYER_IP_HEADER = "x-svc-demo-payer-ip";

/**
 * Builds the demo provider: the official `@x402/express` payment middleware with the svc-zerc20 plugin in
 * front of two priced JSON routes (`GET /weather` at `price`, `GET /forecast` at three times it) and a free
 * `GET /healthz`. It holds no keys and never touches the chain; every payment question goes to the
 * facilitator. The middleware asks the facilitator's `GET /supported` as soon as it is built.
 *
 * @example
 * const app = createProviderApp({ facilitatorUrl: "http://127.0.0.1:4032", network: "eip155:31337", price: "1000" });
 * app.listen(4021);
 */
export function createProviderApp(options: ProviderAppOptions): Express {
  const facilitatorClient =
    options.facilitatorClient ??
    new HTTPFacilitatorClient({
      url: options.facilitatorUrl,
      ...(options.providerKey === undefined ? {} : { createAuthHeaders: facilitatorAuthHeaders(options.providerKey) }),
    });
  const resourceServer = new x402ResourceServer(facilitatorClient);
  const zerc20 = registerSvcZerc20Server(resourceServer, {
    network: options.network,
    facilitatorUrl: options.facilitatorUrl,
    maxCachedOffers: options.maxCachedOffers,
    providerKey: options.providerKey,
    payerAddress: (context) => context.adapter.getHeader(PAYER_IP_HEADER),
  });
  const weather = options.weather ?? demoWeatherSource;

  const routes: RoutesConfig = {
    "GET /weather": {
      accepts: zerc20.accepts({ price: options.price, description: "Current weather", mimeType: "application/json" }),
      description: "Current weather",
      mimeType: "application/json",
    },
    "GET /forecast": {
      accepts: zerc20.accepts({
        price: (BigInt(options.price) * FORECAST_PRICE_FACTOR).toString(),
        description: "Three-day forecast",
        mimeType: "application/json",
      }),
      description: "Three-day forecast",
      mimeType: "application/json",
    },
  };

  const app = express();
  app.disable("x-powered-by");
  if (options.log) app.use(logRequests(options.log));
  app.get("/healthz", (_request, response) => {
    response.json({ status: "ok" });
  });
  app.use((request, _response, next) => {
    request.headers[PAYER_IP_HEADER] = request.ip ?? request.socket.remoteAddress ?? "";
    next();
  });
  app.use(paymentMiddleware(routes, resourceServer));
  app.get("/weather", async (_request, response) => {
    response.json(await weather.current());
  });
  app.get("/forecast", async (_request, response) => {
    response.json(await weather.forecast());
  });
  app.use(answerHandlerError);
  return app;
}

/**
 * A failing handler answers a bare 500: Express's default handler would print the stack to the client. The
 * payment middleware sees the 500 and does not settle.
 */
const answerHandlerError: ErrorRequestHandler = (error, _request, response, next) => {
  if (response.headersSent) {
    next(error);
    return;
  }
  response.status(500).json({ error: "Internal Server Error" });
};
