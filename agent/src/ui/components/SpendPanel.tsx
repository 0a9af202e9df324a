import { Box, Text } from "ink";

import { remainingUnder } from "../../ledger/remainingUnder.js";
import type { SpendSummary } from "../../ledger/summarizeSpend.js";
import type { AmountFormat } from "../../payment/amountFormat.js";
import type { TokenInfo } from "../../payment/tokenInfo.js";
import { describeSpendAmount, type SpendAmount } from "../../policy/spendAmount.js";
import type { SpendLimitName } from "../../ledger/spendLimits.js";
import type { LimitStatus } from "../../policy/limitsStatus.js";
import { type AmountLimitsPolicy, limitsForToken } from "../../policy/tokenLimits.js";
import { useColor } from "../hooks/use-colors.js";

/** Props of `SpendPanel`. */
export type SpendPanelProps = {
  summaries: readonly SpendSummary[];
  policy: AmountLimitsPolicy;
  /** The network and token of the offer on screen, shown first; others follow. */
  focus?: { network: string; asset: string } | undefined;
  format: (asset: string) => AmountFormat;
  /** A token's symbol and decimals once read: limits in token units convert with them. */
  tokenFor: (asset: string) => TokenInfo | undefined;
  /** One line instead of a box, for small terminals with other panels open. */
  compact?: boolean | undefined;
  error?: string | undefined;
  /** Every configured ledger limit's status (`limitsStatus`); the panel shows the windows and budgets of the token in view. */
  limits?: readonly LimitStatus[] | undefined;
};

/** Each limit's label in the panel, as wide as the panel's other labels. */
const LIMIT_LABELS: Record<SpendLimitName, string> = {
  maxTotal: "total cap",
  maxPerHour: "per hour",
  maxPerDay: "per day",
  maxPerWeek: "per week",
  maxPerMonth: "per 30 days",
  maxPerHost: "per host",
  maxPerMcpSession: "per session",
};

/** The caps and the spend so far per network and token, in token units, with what remains under the total cap. */
export function SpendPanel({ summaries, policy, focus, format, tokenFor, compact, error, limits = [] }: SpendPanelProps) {
  const color = useColor();
  const focused = focus === undefined ? undefined : summaries.find((summary) => summary.network === focus.network && summary.asset.toLowerCase() === focus.asset.toLowerCase());
  const rows = focus === undefined ? summaries : focused === undefined ? [] : [focused];
  // Caps apply per network and token, so they read in the units of the token in view.
  const capAsset = focus?.asset ?? rows[0]?.asset ?? "";
  const capFormat = format(capAsset);
  const capText = (amount: SpendAmount) => describeSpendAmount(amount, tokenFor(capAsset));
  const totalCap = (asset: string) => (policy.maxTotal === undefined ? undefined : limitsForToken(policy, tokenFor(asset)?.decimals)?.maxTotal);
  const spentOf = (total: string, asset: string) => {
    const cap = totalCap(asset);
    return `${format(asset)(total)}${policy.maxTotal === undefined ? "" : ` of ${cap === undefined ? capText(policy.maxTotal) : format(asset)(cap)}`}`;
  };
  const remainingOf = (total: string, asset: string) => {
    const cap = totalCap(asset);
    if (policy.maxTotal === undefined) return "no total cap";
    return cap === undefined ? "remaining unknown (token decimals not read yet)" : `${format(asset)(remainingUnder(cap, total))} remaining`;
  };
  if (compact === true) {
    const row = rows[0];
    // Whole phrases move to the next line when an 80-column terminal is too narrow; none is split mid-amount.
    return (
      <Box flexWrap="wrap" columnGap={1}>
        <Text>spent {row === undefined ? capFormat("0") : spentOf(row.total, row.asset)}</Text>
        <Text>· {remainingOf(row?.total ?? "0", row?.asset ?? focus?.asset ?? "")}</Text>
        {policy.maxPerPayment === undefined ? null : <Text>· per payment ≤ {capText(policy.maxPerPayment)}</Text>}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Caps and spend</Text>
      <Text>
        per payment  {policy.maxPerPayment === undefined ? "no cap" : capText(policy.maxPerPayment)} · approval {policy.approveAbove === undefined ? "off" : `above ${capText(policy.approveAbove)}`}
      </Text>
      <Text>total cap    {policy.maxTotal === undefined ? "no cap" : `${capText(policy.maxTotal)} per network and token`}</Text>
      {rows.length === 0 ? (
        <Text>
          spent        {capFormat("0")} · {policy.maxTotal === undefined ? "no total cap" : `${capText(policy.maxTotal)} remaining`}
        </Text>
      ) : null}
      {rows.map((summary) => (
        <Box key={`${summary.network}/${summary.asset}`} flexDirection="column">
          <Text>
            spent        {spentOf(summary.total, summary.asset)} · {remainingOf(summary.total, summary.asset)}
            {focus === undefined ? ` on ${summary.network} ${summary.asset}` : ""}
          </Text>
          <Text color={color("gray")}>
            {"             "}settled {format(summary.asset)(summary.settled)} · pending {format(summary.asset)(summary.pending)} · failed after burn {format(summary.asset)(summary.failed)}
          </Text>
        </Box>
      ))}
      {limits
        .filter((row) => row.limit !== "maxTotal" && row.network === (focus?.network ?? rows[0]?.network ?? row.network) && row.asset.toLowerCase() === capAsset.toLowerCase())
        .map((row) => {
          const rowFormat = format(row.asset);
          const label = LIMIT_LABELS[row.limit];
          const cap = row.cap === undefined ? capText(row.configured) : rowFormat(row.cap);
          return (
            // Whole phrases move to the next line at 80 columns; none is split mid-amount.
            <Box key={`${row.limit}/${row.scope ?? ""}`} flexWrap="wrap" columnGap={1}>
              <Text>
                {label.padEnd(12)} {row.left === undefined ? "left unknown" : `${rowFormat(row.left)} left`} of {cap}
              </Text>
              {row.scope === null ? null : <Text color={color("gray")}>· {row.scope}</Text>}
              {row.freesAt === undefined ? null : <Text color={color("gray")}>· frees {new Date(row.freesAt).toISOString().slice(0, 16).replace("T", " ")} UTC</Text>}
            </Box>
          );
        })}
      {error === undefined ? null : <Text color={color("red")}>ledger unreadable: {error}</Text>}
    </Box>
  );
}
