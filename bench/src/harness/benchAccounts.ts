/**
 * The extra payer accounts of the concurrency and finalize measurements: deterministic keys (so a run is
 * reproducible), funded with zERC20 and the EIP-3009 token by the deployer, which is the minter of both
 * fixture tokens. Permit and EIP-3009 payments are gasless for the payer, so no ether is needed.
 */
import type { Address } from "@svc/scheme";
import type { StackDeployment } from "@svc/anvil-fixtures";
import { createPublicClient, encodeFunctionData, http, keccak256, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** One bench payer. */
export type BenchAccount = { address: Address; privateKey: Hex };

/** `mint(address,uint256)` of the fixture tokens (zERC20 and EIP-3009): fixture funding, not part of either token's published interface. */
const fixtureMintAbi = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

/** `count` deterministic accounts: key `i` is `keccak256("svc-zerc20/bench-payer/<i>")`. */
export function benchAccounts(count: number): BenchAccount[] {
  return Array.from({ length: count }, (_, index) => {
    const privateKey = keccak256(toHex(`svc-zerc20/bench-payer/${index}`));
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });
}

/**
 * Mints `zerc20` and `usdc` base units to every account from the deployer: all transactions signed with
 * consecutive nonces and sent at once, then the last receipt awaited.
 */
export async function fundBenchAccounts(parameters: {
  deployment: StackDeployment;
  accounts: readonly BenchAccount[];
  zerc20: bigint;
  usdc: bigint;
}): Promise<void> {
  const { deployment } = parameters;
  const client = createPublicClient({ transport: http(deployment.rpcUrl), pollingInterval: 50 });
  const deployer = privateKeyToAccount(deployment.accounts.deployer.privateKey);
  const [startNonce, block] = await Promise.all([client.getTransactionCount({ address: deployer.address, blockTag: "pending" }), client.getBlock()]);
  const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 3n + 1_000_000_000n;
  const calls: { to: Address; data: Hex }[] = parameters.accounts.flatMap((account) => [
    { to: deployment.token, data: encodeFunctionData({ abi: fixtureMintAbi, functionName: "mint", args: [account.address, parameters.zerc20] }) },
    { to: deployment.usdc3009, data: encodeFunctionData({ abi: fixtureMintAbi, functionName: "mint", args: [account.address, parameters.usdc] }) },
  ]);
  const signed = await Promise.all(
    calls.map((call, offset) =>
      deployer.signTransaction({
        type: "eip1559",
        chainId: deployment.chainId,
        nonce: startNonce + offset,
        gas: 200_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 1_000_000_000n,
        ...call,
      }),
    ),
  );
  let last: Hex | undefined;
  for (const serializedTransaction of signed) last = await client.sendRawTransaction({ serializedTransaction });
  if (last !== undefined) await client.waitForTransactionReceipt({ hash: last });
}
