import type { Chain, LocalAccount, PublicClient, Transport, WalletClient } from "viem";

/**
 * The viem clients the payer plugin is given instead of doing I/O itself: `publicClient` reads the chain
 * (chain id, token nonce, name, balance, receipts); `walletClient` holds the payer's local EOA account
 * (the spec's payer holds at most its own key), which signs and, in self-transfer mode, sends the burn.
 */
export type PayerClients = {
  publicClient: PublicClient<Transport, Chain | undefined>;
  walletClient: WalletClient<Transport, Chain | undefined, LocalAccount>;
};
