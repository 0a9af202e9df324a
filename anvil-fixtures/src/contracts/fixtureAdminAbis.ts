/**
 * The fixture contracts' administration, which the published zERC20 interface does not have: the owner wires
 * the token's minter and verifier and funds accounts, stores global roots (directly or through the fixture
 * hub), allow-lists v2 root provers, and the fixture-only error names of checks the protocol's facts leave
 * unnamed. Tests and the deployment use these; product code never does (the protocol's ABIs live in
 * `@svc/scheme`).
 */
import { parseAbi } from "viem";

/** Owner and minter functions of both fixture tokens. */
export const fixtureTokenAdminAbi = parseAbi([
  "function owner() view returns (address)",
  "function MAX_VALUE() view returns (uint256)",
  "function setMinter(address minter)",
  "function setVerifier(address verifier)",
  "function mint(address to, uint256 value)",
  "event MinterSet(address indexed minter)",
  "event VerifierSet(address indexed verifier)",
  "error OwnableUnauthorizedAccount(address account)",
]);

/** Wiring reads, global-root administration and fixture errors of both fixture verifiers. */
export const fixtureVerifierAdminAbi = parseAbi([
  "function owner() view returns (address)",
  "function token() view returns (address)",
  "function hub() view returns (address)",
  "function singleVerifier() view returns (address)",
  "function localDeciderVerifier() view returns (address)",
  "function globalDeciderVerifier() view returns (address)",
  "function rootDeciderVerifier() view returns (address)",
  "function recipientHashOf((uint64 chainId, bytes32 recipient, bytes32 tweak) gr) pure returns (uint256)",
  "function setGlobalTransferRoot(uint64 index, uint256 root)",
  "event GlobalTransferRootSet(uint64 indexed index, uint256 root)",
  "event Paused(address account)",
  "event Unpaused(address account)",
  "error ReservedHashChainMismatch(uint64 index, uint256 expected, uint256 given)",
  "error OwnableUnauthorizedAccount(address account)",
]);

/** The v2 fixture verifier's prover allow-list administration and the relayer-fee checks' fixture errors. */
export const fixtureVerifierV2AdminAbi = parseAbi([
  "function setAllowedProver(address prover, bool allowed)",
  "function RELAYER_FEE_AUTHORIZATION_TYPEHASH() view returns (bytes32)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "event AllowedProverSet(address indexed prover, bool allowed)",
  "error RelayerFeeExpired(uint64 deadline, uint256 nowTimestamp)",
  "error RelayerFeeTooHigh(uint256 relayerFee, uint256 limit)",
  "error InvalidRelayerFeeSignature()",
]);

/** The fixture hub: its owner publishes global roots into the verifier (the real hub aggregates chains). */
export const fixtureHubAbi = parseAbi([
  "function owner() view returns (address)",
  "function verifier() view returns (address)",
  "function latestGlobalIndex() view returns (uint64)",
  "function publishGlobalRoot(uint64 index, uint256 root)",
  "event GlobalRootPublished(uint64 indexed index, uint256 root)",
  "error OwnableUnauthorizedAccount(address account)",
]);
