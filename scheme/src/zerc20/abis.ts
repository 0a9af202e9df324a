/**
 * Contract interfaces the parties call, as viem ABIs. They are the single source of truth for the
 * zERC20 deployment (token, verifier, hub) and the product contracts (PermitBurner, FeeSplitter);
 * the Solidity sources in `facilitator/contracts` and `anvil-fixtures/contracts` implement them and a
 * test in `anvil-fixtures` checks every item here against the compiled ABI.
 */
import { parseAbi } from "viem";

/** The zERC20 token: ERC-20 + EIP-2612 permit, the indexed-transfer hash chain, and the teleport mint. */
export const zerc20TokenAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function index() view returns (uint256)",
  "function hashChain() view returns (uint256)",
  "function minter() view returns (address)",
  "function verifier() view returns (address)",
  "function setMinter(address minter)",
  "function setVerifier(address verifier)",
  "function mint(address to, uint256 value)",
  "function teleport(address to, uint256 value)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event IndexedTransfer(uint256 indexed index, address from, address to, uint256 value)",
  "event Teleport(address indexed to, uint256 value)",
  "error ValueTooLarge(uint256 value)",
  "error NotMinter(address caller)",
  "error NotVerifier(address caller)",
]);

/** The general recipient a burn address commits to; its hash is the verifier's `recipientHash`. */
export const generalRecipientComponents = "(uint64 chainId, bytes32 recipient, bytes32 tweak)";

/** The zERC20 verifier: proved transfer roots and the proof-gated, difference-only teleport mint. */
export const zerc20VerifierAbi = parseAbi([
  "function token() view returns (address)",
  "function hub() view returns (address)",
  "function reserveHashChain()",
  "function reservedIndex() view returns (uint64)",
  "function reservedHashChain() view returns (uint256)",
  "function proveTransferRoot(bytes proof)",
  "function latestProvedIndex() view returns (uint64)",
  "function provedTransferRoots(uint64 index) view returns (uint256)",
  "function singleTeleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof)",
  "function teleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof)",
  "function totalTeleported(bytes32 recipientHash) view returns (uint256)",
  "function recipientHashOf((uint64 chainId, bytes32 recipient, bytes32 tweak) gr) pure returns (bytes32)",
  "function paused() view returns (bool)",
  "function pause()",
  "function unpause()",
  "event HashChainReserved(uint64 indexed index, uint256 hashChain)",
  "event TransferRootProved(uint64 indexed index, uint256 root)",
  "event Teleported(bytes32 indexed recipientHash, address indexed to, uint256 value)",
  "error NothingReserved()",
  "error StaleRootProof(uint64 expectedOldIndex, uint64 givenOldIndex)",
  "error RootProofMismatch()",
  "error UnknownRoot(uint64 rootHint)",
  "error RecipientHashMismatch(bytes32 expected, bytes32 given)",
  "error WrongChain(uint64 expected, uint64 given)",
  "error NothingToTeleport(uint256 alreadyTeleported, uint256 value)",
  "error InvalidProof()",
  "error MalformedProof()",
  "error GlobalRootsUnavailable()",
]);

/** The hub: aggregated global roots relayed to verifiers (local stack: storage only). */
export const zerc20HubAbi = parseAbi([
  "function globalRoots(uint64 index) view returns (uint256)",
  "function latestGlobalIndex() view returns (uint64)",
  "function publishGlobalRoot(uint64 index, uint256 root)",
  "event GlobalRootPublished(uint64 indexed index, uint256 root)",
]);

/** Fixture proof verifier: accepts a proof only when it is signed by the fixture key over the public inputs. */
export const fixtureProofVerifierAbi = parseAbi([
  "function signer() view returns (address)",
  "function circuit() view returns (bytes32)",
  "function verifyProof(uint256[] publicInputs, bytes signature) view returns (bool)",
]);

/**
 * PermitBurner (EIP-712 domain `SvcPermitBurner`, version `1`): one transaction that checks the payer's
 * BurnAuthorization, consumes it in the replay ledger, applies the EIP-2612 permit and moves `value` from
 * the payer to the burn address.
 */
export const permitBurnerAbi = parseAbi([
  "struct BurnAuthorization { address token; address payer; address burnAddress; uint256 value; bytes32 challengeNonce; uint256 deadline; }",
  "struct PermitSignature { uint256 deadline; uint8 v; bytes32 r; bytes32 s; }",
  "function permitAndBurn(BurnAuthorization auth, PermitSignature permit, bytes burnAuthSig)",
  "function authorizationId(BurnAuthorization auth) view returns (bytes32)",
  "function executed(bytes32 authorizationId) view returns (bool)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "event BurnExecuted(bytes32 indexed challengeNonce, bytes32 indexed authorizationId, address indexed token, address payer, address burnAddress, uint256 value)",
  "error AuthorizationExpired(uint256 deadline, uint256 nowTimestamp)",
  "error InvalidBurnAuthorization()",
  "error AuthorizationAlreadyUsed(bytes32 authorizationId)",
  "error PermitFailed(uint256 allowance, uint256 value)",
  "error ZeroValue()",
]);

/** Fee splitter for split fee mode: the treasury itself; anyone may distribute its balance. */
export const feeSplitterAbi = parseAbi([
  "function payee() view returns (address)",
  "function feeRecipient() view returns (address)",
  "function bps() view returns (uint16)",
  "function distribute(address token)",
  "event Distributed(address indexed token, uint256 payeeAmount, uint256 feeAmount)",
  "error InvalidBps(uint256 bps)",
  "error ZeroAddress()",
  "error NothingToDistribute()",
]);
