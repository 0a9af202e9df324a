import { type Address, parseNetwork, zerc20TokenAbi } from "@svc/scheme";
import { formatUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import type { Ledger } from "../ledger/ledger.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { spentOn } from "../ledger/summarizeSpend.js";
import { amountFormat } from "../payment/amountFormat.js";
import { createReadClient } from "../payment/createReadClient.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import type { Policy } from "../policy/policy.js";
import { type SpendAmount, spendAmountText } from "../policy/spendAmount.js";
import { limitStatusJson, limitsStatus } from "../policy/limitsStatus.js";
import { limitsForToken } from "../policy/tokenLimits.js";

/**
 * One limit as a model reads it: token units (as configured, when the token's decimals are unknown) and exact
 * base units (null when a limit in token units cannot be converted).
 */
type Limit = { amount: string; baseUnits: string | null };

/**
 * Who pays and under which limits, as `payer_info` returns it: the payer's address, the chain, its balance of
 * each token it may pay in (the `SVC_ALLOWED_TOKEN`, the token asked about, the tokens in the ledger) and the
 * configured limits. `limits` is keyed by limit name so a new kind of limit is one more key; a limit that is
 * not configured is `null`. Never the key.
 */
export async function payerInfo(policy: Policy, ledger: Ledger, asked: Address | undefined, mcpSession?: string): Promise<Record<string, unknown>> {
  const payer = policy.payerKey === undefined ? undefined : privateKeyToAccount(policy.payerKey).address;
  const entries = await ledger.entries();
  const assets = [
    ...new Set(
      [asked, policy.allowedToken, ...entries.filter((entry) => entry.network === policy.allowedNetwork).map((entry) => entry.asset)]
        .filter((asset): asset is Address => asset !== undefined)
        .map((asset) => asset.toLowerCase() as Address),
    ),
  ];
  const client = createReadClient(policy);
  const tokens = await Promise.all(
    assets.map(async (asset) => {
      const token = await readTokenInfo(policy, asset);
      const balance =
        payer === undefined
          ? undefined
          : await client.readContract({ address: asset, abi: zerc20TokenAbi, functionName: "balanceOf", args: [payer] }).catch(() => undefined);
      const format = amountFormat(token);
      const spent = spentOn(entries, policy.allowedNetwork, asset);
      const converted = limitsForToken(policy, token?.decimals);
      const limit = (configured: SpendAmount | undefined, base: bigint | undefined): Limit | null =>
        configured === undefined
          ? null
          : base === undefined
            ? { amount: spendAmountText(configured), baseUnits: null }
            : { amount: format(base), baseUnits: base.toString() };
      return {
        asset,
        symbol: token?.symbol ?? null,
        decimals: token?.decimals ?? null,
        balance: balance === undefined ? null : token === undefined ? `${balance} base units` : formatUnits(balance, token.decimals),
        balanceBaseUnits: balance?.toString() ?? null,
        spent: format(spent),
        spentBaseUnits: spent.toString(),
        limits: {
          perPayment: limit(policy.maxPerPayment, converted?.maxPerPayment),
          total: limit(policy.maxTotal, converted?.maxTotal),
          totalRemaining: converted?.maxTotal === undefined ? null : limit(policy.maxTotal, remainingUnder(converted.maxTotal, spent)),
          approvalAbove: limit(policy.approveAbove, converted?.approveAbove),
          perHour: limit(policy.maxPerHour, converted?.maxPerHour),
          perDay: limit(policy.maxPerDay, converted?.maxPerDay),
          perWeek: limit(policy.maxPerWeek, converted?.maxPerWeek),
          perMonth: limit(policy.maxPerMonth, converted?.maxPerMonth),
          perHost: limit(policy.maxPerHost, converted?.maxPerHost),
          perMcpSession: limit(policy.maxPerMcpSession, converted?.maxPerMcpSession),
        },
        // What each configured ledger limit has used and has left, and when a window frees up, as reserving counts it.
        limitsStatus: limitsStatus({ entries, policy, assets: [asset], decimalsFor: () => token?.decimals, now: Date.now(), mcpSession })
          .filter((row) => row.network === policy.allowedNetwork && row.asset.toLowerCase() === asset)
          .map((row) => ({ ...limitStatusJson(row), used: format(row.used), left: row.left === undefined ? null : format(row.left) })),
      };
    }),
  );
  return {
    payer: payer ?? null,
    network: policy.allowedNetwork,
    chainId: parseNetwork(policy.allowedNetwork),
    mode: policy.mode,
    allowedHosts: policy.allowedHosts,
    allowedToken: policy.allowedToken ?? null,
    approvalTimeoutMs: policy.approvalTimeoutMs,
    tokens,
  };
}
