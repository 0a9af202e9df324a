import { Box, Text } from "ink";

import type { PaymentMode, PaymentRequirements } from "@svc/scheme";

import { formatAmount, type TokenInfo } from "../../payment/tokenInfo.js";
import { formatCountdown } from "./formatCountdown.js";

/** Props of `OfferPanel`. */
export type OfferPanelProps = {
  url: string;
  offer: PaymentRequirements;
  token: TokenInfo | undefined;
  mode: PaymentMode;
  now: number;
};

/** The offer: amount in token and base units, fee, token, network, expiry countdown and payment mode. */
export function OfferPanel({ url, offer, token, mode, now }: OfferPanelProps) {
  const countdown = formatCountdown(offer.extra.expiresAt * 1000, now);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Offer for {url}</Text>
      <Text>amount   {formatAmount(offer.amount, token)}</Text>
      {offer.extra.fee === undefined ? null : (
        <Text>fee      {formatAmount(offer.extra.fee.amount, token)} ({offer.extra.fee.bps} bps, included)</Text>
      )}
      <Text>token    {token === undefined ? "" : `${token.symbol} `}{offer.asset}</Text>
      <Text>network  {offer.network}</Text>
      <Text>pay to   {offer.payTo} (one-time burn address)</Text>
      <Text color={countdown === "expired" ? "red" : undefined}>expires  {countdown === "expired" ? "EXPIRED (press r for a fresh offer)" : `in ${countdown}`}</Text>
      <Text>mode     {mode === "permit" ? "permit (sign only, the facilitator pays gas)" : "self-transfer (this wallet burns and pays gas)"}</Text>
    </Box>
  );
}
