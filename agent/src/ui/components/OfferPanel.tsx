import { Box, Text } from "ink";

import { type Offer, type PaymentMode, toNetwork } from "@svc/scheme";

import { offerUsableUntil } from "../../policy/offerUsableUntil.js";
import { formatAmount, type TokenInfo } from "../../payment/tokenInfo.js";
import { useColor } from "../hooks/use-colors.js";
import { formatCountdown } from "./formatCountdown.js";

/** Props of `OfferPanel`. */
export type OfferPanelProps = {
  url: string;
  offer: Offer;
  token: TokenInfo | undefined;
  mode: PaymentMode;
  now: number;
  /** How the payment of this offer ended, once it has: the offer then shows that, no more countdown. */
  finished?: string | undefined;
};

/**
 * The offer: amount in token and base units, fee, token, network, expiry countdown and payment mode. The
 * countdown is to the offer's last usable moment in this mode (self-transfer keeps 30 s for its burn), the
 * same moment an approval prompt closes at.
 */
export function OfferPanel({ url, offer, token, mode, now, finished }: OfferPanelProps) {
  const color = useColor();
  const payableFor = formatCountdown(offerUsableUntil(mode, offer.expiresAt), now);
  const expiresIn = formatCountdown(offer.expiresAt * 1000, now);
  const expiry =
    expiresIn === "expired"
      ? "EXPIRED (press r for a fresh offer)"
      : payableFor === "expired"
        ? `in ${expiresIn}, too late to pay in ${mode} mode (press r for a fresh offer)`
        : mode === "self-transfer"
          ? `in ${expiresIn} (usable for ${payableFor} more: the burn needs 30 s)`
          : `in ${expiresIn}`;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Offer for {url}</Text>
      <Text>amount   {formatAmount(offer.amount, token)}</Text>
      {offer.fee === undefined ? null : (
        <Text>fee      {formatAmount(offer.fee.amount, token)} ({offer.fee.bps} bps, included)</Text>
      )}
      <Text>token    {token === undefined ? "" : `${token.symbol} `}{offer.asset} on {toNetwork(offer.chainId)}</Text>
      <Text>pay to   {offer.payTo} (one-time burn address)</Text>
      {finished === undefined ? (
        <Text color={payableFor === "expired" ? color("red") : undefined}>expires  {expiry}</Text>
      ) : (
        <Text>offer    used: {finished}</Text>
      )}
      <Text>mode     {mode === "permit" ? "permit (sign only, the facilitator pays gas)" : "self-transfer (this wallet burns and pays gas)"}</Text>
    </Box>
  );
}
