/**
 * The published zERC20 v2 deployments, by name (`[network] preset = "base-sepolia/zusdc"`): chain id, token,
 * verifier and the LayerZero endpoint id of the token's hub chain. Each token has the same addresses on every
 * chain it is deployed on. Facts from the protocol's published deployment configuration; `check` verifies a
 * preset against the chain before use (code at both addresses, chain id, `hubEid()`, the v2 interface), since
 * a preset names a deployment, not a promise that the token is live on every chain listed.
 */
import type { Address } from "viem";

/** One published deployment. */
export type NetworkPreset = {
  chainId: number;
  token: Address;
  verifier: Address;
  /** LayerZero endpoint id of the hub chain, what the verifier's `hubEid()` answers. */
  hubEid: number;
  /** Always v2: no v1 deployment was published. */
  protocol: "zerc20-v2";
  /**
   * How deep a burn must be before the payment is `accepted` (`network.confirmations`): 2 on the layer-1
   * chains (Ethereum, BNB and their testnets), whose proposers reorganise the tip now and then; 1 on the
   * rollups, whose sequencer orders blocks alone and does not reorganise its own tip in normal operation.
   */
  confirmations: number;
};

type Token = { token: Address; verifier: Address };

const MAINNET_TOKENS = {
  zusdc: { token: "0xEB81ab55Bc7aa89d1e0E3F60597D86e37702Af53", verifier: "0xfb786B5E6520284Aa6a8dFA3B4F7A09ed423e25f" },
  zeth: { token: "0x410056c6F0A9ABD8c42b9eEF3BB451966Fb0d924", verifier: "0xdCC76DEbb526Eef0210Bd38729b803591951Ab34" },
  zbnb: { token: "0x4388D5618B9e13Bd580209CDf37a202778C75c54", verifier: "0xb05977Af4aA54117910ed72141F674531894774A" },
} as const satisfies Record<string, Token>;

const TESTNET_TOKENS = {
  zusdc: { token: "0x132CeD517327C2aC5073ACEb9eCF1e7783feCbcF", verifier: "0xb199A85463Bc5c0009c058E80b8A0d3D5e0025D6" },
  zeth: { token: "0xADAb5CaB352fb1eBF24CD951de224f9e952C82Ed", verifier: "0xD19b79cE0C2821158aDBDEf9cC8c8D858c9ef0Cc" },
} as const satisfies Record<string, Token>;

// Hub chains: Base (zUSDC, zETH) and BNB (zBNB) on mainnet; Base Sepolia on testnet.
const MAINNET_HUB_EID = { zusdc: 30184, zeth: 30184, zbnb: 30102 } as const;
const TESTNET_HUB_EID = 40245;

const MAINNET_CHAINS = { ethereum: 1, arbitrum: 42161, base: 8453, bnb: 56 } as const;
/** The layer-1 chains among the presets: two confirmations by default (see {@link NetworkPreset.confirmations}). */
const LAYER_1_CHAIN_IDS: ReadonlySet<number> = new Set([1, 56, 11155111, 97]);
const TESTNET_CHAINS = { sepolia: 11155111, "arbitrum-sepolia": 421614, "op-sepolia": 11155420, "base-sepolia": 84532, "bnb-testnet": 97 } as const;

function presets(): Record<string, NetworkPreset> {
  const table: Record<string, NetworkPreset> = {};
  for (const [chain, chainId] of Object.entries(MAINNET_CHAINS)) {
    for (const [name, token] of Object.entries(MAINNET_TOKENS)) {
      table[`${chain}/${name}`] = {
        chainId,
        ...token,
        hubEid: MAINNET_HUB_EID[name as keyof typeof MAINNET_HUB_EID],
        protocol: "zerc20-v2",
        confirmations: defaultConfirmations(chainId),
      };
    }
  }
  for (const [chain, chainId] of Object.entries(TESTNET_CHAINS)) {
    for (const [name, token] of Object.entries(TESTNET_TOKENS)) {
      table[`${chain}/${name}`] = { chainId, ...token, hubEid: TESTNET_HUB_EID, protocol: "zerc20-v2", confirmations: defaultConfirmations(chainId) };
    }
  }
  return table;
}

function defaultConfirmations(chainId: number): number {
  return LAYER_1_CHAIN_IDS.has(chainId) ? 2 : 1;
}

/** Every preset by name, `<chain>/<token>`. */
export const NETWORK_PRESETS: Readonly<Record<string, NetworkPreset>> = presets();

/** The preset names, sorted, for help and error messages. */
export const NETWORK_PRESET_NAMES: readonly string[] = Object.keys(NETWORK_PRESETS).sort();
