/**
 * Contract interfaces the parties call, as viem ABIs: the zERC20 deployment as the protocol publishes it
 * (token, verifier; both versions, see `protocol/`) and the product contracts (PermitBurner, FeeSplitter).
 * Names, types and selectors are the published ones; the Solidity sources in `facilitator/contracts` and
 * `anvil-fixtures/contracts` implement them and a test in `anvil-fixtures` checks every item here against the
 * compiled ABI. What differs between the versions is split out by name (`…V1`, `…V2`); only the protocol
 * seam (`protocol/zerc20Protocol.ts`) picks between them.
 */
import { parseAbi } from "viem";

/** ERC-20 reads and transfers with the indexed-transfer log, the hash chain and the teleport mint: every zERC20 token has these. */
const zerc20TokenAbiCommon = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function index() view returns (uint256)",
  "function hashChain() view returns (uint256)",
  "function minter() view returns (address)",
  "function verifier() view returns (address)",
  "function teleport(address to, uint256 value)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event IndexedTransfer(uint256 indexed index, address from, address to, uint256 value)",
  "error ValueTooLarge()",
  "error OnlyVerifier()",
  "error OnlyMinter()",
]);

/** The v1 token (upgradeable ERC-20, 18 decimals): no permit; it emits `Teleport(to, value)` on every teleport mint. */
export const zerc20TokenAbiV1 = [...zerc20TokenAbiCommon, ...parseAbi(["event Teleport(address indexed to, uint256 value)"])] as const;

/** The v2 token (LayerZero OFT in production): the common interface plus EIP-2612 permit and the token-wide teleported sum. */
export const zerc20TokenAbi = [
  ...zerc20TokenAbiCommon,
  ...parseAbi([
    "function nonces(address owner) view returns (uint256)",
    "function DOMAIN_SEPARATOR() view returns (bytes32)",
    "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
    "function totalTeleported() view returns (uint256)",
  ]),
] as const;

/** The general recipient a burn address commits to; its hash is the verifier's recipient hash `R`. */
export const generalRecipientComponents = "(uint64 chainId, bytes32 recipient, bytes32 tweak)";

/**
 * The verifier functions, events and errors both versions publish with the same selectors: proved roots, the
 * per-recipient-hash minted total (`totalTeleported(uint256)`), the proof-gated mints and the root reservation.
 */
export const zerc20VerifierAbi = parseAbi([
  "function latestProvedIndex() view returns (uint64)",
  "function provedTransferRoots(uint64 index) view returns (uint256)",
  "function globalTransferRoots(uint64 index) view returns (uint256)",
  "function totalTeleported(uint256 recipientHash) view returns (uint256)",
  "function singleTeleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof)",
  "function teleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof)",
  "function hubEid() view returns (uint32)",
  "function reserveHashChain() returns (uint64 index, uint256 hashChain)",
  "function latestReservedIndex() view returns (uint64)",
  "function reservedHashChains(uint64 index) view returns (uint256)",
  "function proveTransferRoot(bytes proof)",
  "function paused() view returns (bool)",
  "function activateEmergency()",
  "function deactivateEmergency()",
  "event TransferRootProved(uint64 indexed index, uint256 root)",
  "error NothingToWithdraw(uint256 totalTeleported, uint256 value)",
  "error ExpectedRootZero(uint64 rootHint)",
  "error TransferRootMismatch(uint256 expected, uint256 given)",
  "error RecipientMismatch(uint256 expected, uint256 given)",
  "error InvalidRecipientChainId(uint64 expected, uint64 given)",
  "error InvalidProof()",
]);

/** v1's mint event, emitted by the verifier (and the token) for every teleport mint. */
export const teleportEventAbiV1 = parseAbi(["event Teleport(address indexed to, uint256 value)"]);

/** v2's mint events: the plain teleport, and the one that pays a relayer fee out of the minted value. */
export const teleportEventAbiV2 = parseAbi([
  "event Teleport(address indexed to, uint256 value, bool isGlobal, uint64 rootHint, uint256 transferRoot, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr)",
  "event TeleportWithRelayerFee(address indexed to, address indexed relayer, uint256 recipientValue, uint256 relayerFee, bool isGlobal, uint64 rootHint, uint256 transferRoot, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr)",
]);

/** The v1 verifier: the common interface and v1's mint event; a paused v1 verifier reverts with the string "Pausable: paused". */
export const zerc20VerifierAbiV1 = [...zerc20VerifierAbi, ...teleportEventAbiV1] as const;

/** The v2 verifier: the common interface, relayer-fee mints, the prover allow-list, v2's mint events and `EnforcedPause()`. */
export const zerc20VerifierAbiV2 = [
  ...zerc20VerifierAbi,
  ...teleportEventAbiV2,
  ...parseAbi([
    "function singleTeleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof, (uint256 relayerFee, uint256 maxFee, uint64 deadline, bytes signature) fee)",
    "function teleport(bool isGlobal, uint64 rootHint, (uint64 chainId, bytes32 recipient, bytes32 tweak) gr, bytes proof, (uint256 relayerFee, uint256 maxFee, uint64 deadline, bytes signature) fee)",
    "function isAllowedProver(address prover) view returns (bool)",
    "error UnauthorizedProver(address prover)",
    "error EnforcedPause()",
  ]),
] as const;

/** Groth16 verifier of the single-teleport circuit: three public inputs `[transferRoot, R, value − δ]`. */
export const groth16VerifierAbi = parseAbi(["function verifyProof(uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[3] publicInputs) view returns (bool)"]);

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
