import { type DecimalString, DecimalStringSchema, type Network, NetworkSchema } from "@svc/scheme";

import { InvalidProviderConfigError } from "./errors.js";

/** The demo provider's settings, parsed from the environment. */
export type ProviderConfig = {
  /** `FACILITATOR_URL`: where verify, settle, supported and challenge go. */
  facilitatorUrl: string;
  /** `HOST`: the listen address. */
  host: string;
  /** `PORT`: the listen port; 0 picks a free one. */
  port: number;
  /** `PRICE`: list price of `GET /weather` in base units. */
  price: DecimalString;
  /** `NETWORK`: the CAIP-2 network to sell on. */
  network: Network;
  /** `FACILITATOR_PROVIDER_KEY`: this provider's key at the facilitator (`[providers.<name>]`); unset sends none. */
  providerKey?: string | undefined;
};

/** Defaults: the local stack's facilitator and chain, and 0.001 of an 18-decimal token for `/weather`. */
export const PROVIDER_DEFAULTS = {
  FACILITATOR_URL: "http://127.0.0.1:4032",
  HOST: "127.0.0.1",
  PORT: "4021",
  PRICE: "1000000000000000",
  NETWORK: "eip155:31337",
} as const;

/**
 * Reads and validates the provider's environment, throwing `InvalidProviderConfigError` naming the first bad
 * variable. An empty variable counts as unset.
 *
 * @example
 * const config = loadProviderConfig(process.env);
 */
export function loadProviderConfig(env: Record<string, string | undefined>): ProviderConfig {
  const read = (name: keyof typeof PROVIDER_DEFAULTS): string => {
    const value = env[name];
    return value === undefined || value === "" ? PROVIDER_DEFAULTS[name] : value;
  };

  const facilitatorUrl = read("FACILITATOR_URL");
  if (!isHttpUrl(facilitatorUrl)) {
    throw new InvalidProviderConfigError({ variable: "FACILITATOR_URL", expected: "an http:// or https:// URL" });
  }

  const host = read("HOST");
  if (!/^[^\s/]+$/.test(host)) {
    throw new InvalidProviderConfigError({ variable: "HOST", expected: "a host name or IP address" });
  }

  const portText = read("PORT");
  const port = Number(portText);
  if (!/^[0-9]{1,5}$/.test(portText) || port > 65_535) {
    throw new InvalidProviderConfigError({ variable: "PORT", expected: "an integer from 0 to 65535 (0 picks a free port)" });
  }

  const price = DecimalStringSchema.safeParse(read("PRICE"));
  if (!price.success || price.data === "0") {
    throw new InvalidProviderConfigError({
      variable: "PRICE",
      expected: "a positive amount in base units as a plain decimal integer, e.g. 1000000000000000",
    });
  }

  const network = NetworkSchema.safeParse(read("NETWORK"));
  if (!network.success) {
    throw new InvalidProviderConfigError({ variable: "NETWORK", expected: "a CAIP-2 network eip155:<chainId>" });
  }

  const providerKey = env.FACILITATOR_PROVIDER_KEY;
  if (providerKey !== undefined && providerKey !== "" && !/^[\x21-\x7e]{16,512}$/.test(providerKey)) {
    throw new InvalidProviderConfigError({ variable: "FACILITATOR_PROVIDER_KEY", expected: "16 to 512 visible ASCII characters without spaces" });
  }

  return {
    facilitatorUrl: facilitatorUrl.replace(/\/+$/, ""),
    host,
    port,
    price: price.data,
    network: network.data,
    ...(providerKey === undefined || providerKey === "" ? {} : { providerKey }),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
