import { useEffect, useRef, useState } from "react";

import { type AmountFormat, amountFormat, BASE_UNITS_FORMAT } from "../../payment/amountFormat.js";
import type { TokenInfo } from "../../payment/tokenInfo.js";
import type { TuiDependencies } from "../tuiDependencies.js";

/** Token-unit formats for every token on screen, and each token's symbol and decimals (for limits written in token units). */
export type TokenFormats = { formatFor: (asset: string) => AmountFormat; tokenFor: (asset: string) => TokenInfo | undefined };

/**
 * Token-unit formats for every token on screen: each token's symbol and decimals are read once and kept;
 * until (or unless) they arrive, its amounts read in base units.
 */
export function useTokenFormats(dependencies: TuiDependencies, assets: readonly string[]): TokenFormats {
  const [tokens, setTokens] = useState<ReadonlyMap<string, TokenInfo | undefined>>(new Map());
  const asked = useRef(new Set<string>());
  const key = [...new Set(assets.map((asset) => asset.toLowerCase()))].sort().join(",");
  useEffect(() => {
    let live = true;
    for (const asset of key === "" ? [] : key.split(",")) {
      if (asked.current.has(asset)) continue;
      asked.current.add(asset);
      dependencies.tokenInfo(asset as `0x${string}`).then(
        (token) => {
          if (live) setTokens((previous) => new Map(previous).set(asset, token));
        },
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [dependencies, key]);
  const tokenFor = (asset: string) => tokens.get(asset.toLowerCase());
  return {
    tokenFor,
    formatFor: (asset) => {
      const token = tokenFor(asset);
      return token === undefined ? BASE_UNITS_FORMAT : amountFormat(token);
    },
  };
}
