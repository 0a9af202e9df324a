/**
 * `@svc/scheme`: the svc-zerc20 x402 v2 scheme as a library. Wire schemas and types, the payload
 * discrimination rule, reason codes, the two EIP-712 definitions, header codecs and errors; the core does
 * no I/O. Exports are listed by name so the public surface changes only on purpose (see `index.test.ts`).
 */

export { BaseError, type BaseErrorParameters } from "./errors/base.js";
export { InvalidSignatureError, PermitUnavailableError } from "./eip712/errors.js";
export { InvalidHeaderError } from "./headers/errors.js";
export { CanonicalJsonError, InvalidNetworkError, MalformedPayloadError } from "./wire/errors.js";
export {
  InvalidPoseidonPathError,
  InvalidPoseidonSelectionError,
  NativePoseidonUnavailableError,
  PoseidonInputError,
  PoseidonMismatchError,
  PoseidonParametersError,
  PoseidonPathUnavailableError,
} from "./zerc20/poseidon/errors.js";

export {
  BURN_AFTER_EXPIRY,
  BURN_BALANCE_MISSING,
  BURN_RECEIPT_MISSING,
  BURN_REVERTED,
  BURN_TX_REUSED,
  CHAIN_UNAVAILABLE,
  CHALLENGE_EXPIRED,
  DEADLINE_PASSED,
  INSUFFICIENT_BALANCE,
  INTENT_NOT_RECORDED,
  INVALID_BURN_AUTHORIZATION,
  INVALID_PERMIT_SIGNATURE,
  isReasonCode,
  MALFORMED_PAYLOAD,
  PAYLOAD_CONFLICT,
  PENDING_BURN,
  PERMIT_PATH_UNAVAILABLE,
  PERMIT_VALUE_MISMATCH,
  PROFILE_UNSUPPORTED,
  REASON_CODES,
  type ReasonCode,
  RELAY_FAILED,
  REQUIREMENTS_MISMATCH,
  STALE_PERMIT_NONCE,
  STORAGE_UNAVAILABLE,
  TRANSFER_BELOW_AMOUNT,
  UNKNOWN_CHALLENGE,
  UNSUPPORTED_NETWORK,
  UNSUPPORTED_SCHEME,
} from "./reasons/reasonCodes.js";

export { type Address, AddressSchema, ChecksumAddressSchema } from "./wire/address.js";
export { type Bytes32, Bytes32Schema } from "./wire/bytes32.js";
export { buildSelfTransferPayload } from "./wire/buildSelfTransferPayload.js";
export { type ChallengeOffer, ChallengeOfferSchema } from "./wire/challengeOffer.js";
export { type ChallengeRequest, ChallengeRequestSchema, MAX_CHALLENGE_AMOUNT } from "./wire/challengeRequest.js";
export {
  type AcceptedPayload,
  type ClassifiedFacilitatorBody,
  classifyFacilitatorBody,
} from "./wire/classifyFacilitatorBody.js";
export { type ClassifiedPayload, classifyPayload } from "./wire/classifyPayload.js";
export { type DecimalString, DecimalStringSchema } from "./wire/decimalString.js";
export { describeIssues } from "./wire/describeIssues.js";
export { type FacilitatorRequest, FacilitatorRequestSchema } from "./wire/facilitatorRequest.js";
export { type Fee, FeeSchema } from "./wire/fee.js";
export { type Network, NetworkSchema, parseNetwork, toNetwork } from "./wire/network.js";
export {
  decodeOfferFee,
  type EncodedOffer,
  encodeOfferFee,
  fromChallengeOffer,
  fromOfferRequirements,
  type Offer,
  offerExtra,
  type OfferFee,
  offerRequirements,
  toChallengeOffer,
} from "./wire/offer.js";
export { type OtherPaymentRequirements, OtherPaymentRequirementsSchema } from "./wire/otherPaymentRequirements.js";
export { parseJsonText } from "./wire/parseJsonText.js";
export { parseSchemePayload, type SchemePayload } from "./wire/parseSchemePayload.js";
export { payloadDigest } from "./wire/payloadDigest.js";
export { PAYER_ADDRESS_HEADER, providerAuthorization } from "./wire/providerHeaders.js";
export { type PaymentIdentity, paymentIdentity } from "./wire/paymentIdentity.js";
export { type PaymentPayload, PaymentPayloadSchema } from "./wire/paymentPayload.js";
export { type PaymentRequired, PaymentRequiredSchema } from "./wire/paymentRequired.js";
export { type PaymentRequirements, PaymentRequirementsSchema } from "./wire/paymentRequirements.js";
export { type Permit, type PermitPayload, PermitPayloadSchema, PermitSchema } from "./wire/permitPayload.js";
export { type ResourceInfo, ResourceInfoSchema } from "./wire/resourceInfo.js";
export { SCHEME, X402_VERSION } from "./wire/scheme.js";
export { selectSchemeRequirements } from "./wire/selectSchemeRequirements.js";
export { type SelfTransferPayload, SelfTransferPayloadSchema } from "./wire/selfTransferPayload.js";
export {
  type SettleExtra,
  SettleExtraSchema,
  type SettleResponse,
  SettleResponseSchema,
} from "./wire/settleResponse.js";
export { type SignatureHex, SignatureHexSchema } from "./wire/signatureHex.js";
export { type SubethaExtra, SubethaExtraSchema } from "./wire/subethaExtra.js";
export {
  type SupportedKind,
  SupportedKindSchema,
  type SupportedResponse,
  SupportedResponseSchema,
} from "./wire/supportedResponse.js";
export { type VerifyResponse, VerifyResponseSchema } from "./wire/verifyResponse.js";

export { type BuildPermitPayloadParameters, buildPermitPayload } from "./eip712/buildPermitPayload.js";
export {
  BURN_AUTHORIZATION_TYPE,
  BURN_AUTHORIZATION_TYPEHASH,
  type BuildBurnAuthorizationTypedDataParameters,
  type BuildBurnAuthorizationTypedDataReturnType,
  buildBurnAuthorizationTypedData,
  burnAuthorizationTypes,
  PERMIT_BURNER_DOMAIN_NAME,
  PERMIT_BURNER_DOMAIN_VERSION,
} from "./eip712/burnAuthorizationTypedData.js";
export { getPermitFields, type PermitFields } from "./eip712/getPermitFields.js";
export { joinSignature } from "./eip712/joinSignature.js";
export {
  type BuildPermitTypedDataParameters,
  type BuildPermitTypedDataReturnType,
  buildPermitTypedData,
  permitTypes,
} from "./eip712/permitTypedData.js";
export { type SignatureParts, splitSignature } from "./eip712/splitSignature.js";

export { PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADER, PAYMENT_SIGNATURE_HEADER } from "./headers/headerNames.js";
export { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "./headers/paymentRequiredHeader.js";
export { decodePaymentResponseHeader, encodePaymentResponseHeader } from "./headers/paymentResponseHeader.js";
export { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "./headers/paymentSignatureHeader.js";

export {
  feeSplitterAbi,
  generalRecipientComponents,
  groth16VerifierAbi,
  permitBurnerAbi,
  teleportEventAbiV1,
  teleportEventAbiV2,
  zerc20TokenAbi,
  zerc20TokenAbiV1,
  zerc20VerifierAbi,
  zerc20VerifierAbiV1,
  zerc20VerifierAbiV2,
} from "./zerc20/abis.js";
export { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion, ProtocolVersionSchema } from "./zerc20/protocol/protocolVersion.js";
export type { IndexedTransferFields } from "./zerc20/protocol/transfer.js";
export { zerc20Protocol, type Zerc20Protocol } from "./zerc20/protocol/zerc20Protocol.js";
export { type DeployedProtocol, detectProtocolVersion } from "./zerc20/protocol/detectProtocolVersion.js";
export { type DeployedTeleportEvent, detectTeleportEvent, EIP1967_IMPLEMENTATION_SLOT } from "./zerc20/protocol/detectTeleportEvent.js";
export { zerc20V1 } from "./zerc20/protocol/zerc20V1.js";
export { BURN_ADDRESS_DOMAIN_V2, zerc20V2 } from "./zerc20/protocol/zerc20V2.js";
export { HASH_CHAIN_MASK } from "./zerc20/protocol/hashChainMask.js";
export {
  DECIDER_ROOT_WORDS,
  DECIDER_WITHDRAW_SNARK_OFFSET,
  DECIDER_WITHDRAW_WORDS,
  type DeciderWithdrawProof,
  decodeDeciderWithdrawProof,
  encodeDeciderWithdrawProof,
} from "./zerc20/proofs/deciderProof.js";
export { ProofEncodingError } from "./zerc20/proofs/errors.js";
export { decodeGroth16Proof, encodeGroth16Proof, GROTH16_PROOF_BYTES, type Groth16Proof } from "./zerc20/proofs/groth16Proof.js";
export { groth16ProofFromSnarkjs, SnarkjsGroth16ProofSchema, SnarkjsSingleTeleportPublicSchema } from "./zerc20/proofs/snarkjsGroth16Proof.js";
export {
  singleTeleportCircuitInput,
  type SingleTeleportCircuitInput,
  type SingleTeleportStatement,
  type SingleTeleportTransfer,
} from "./zerc20/proofs/singleTeleportCircuitInput.js";
export { decodeRootProof, encodeRootProof, ROOT_PROOF_SNARK_OFFSET, type RootProof, type TransferTreeState } from "./zerc20/proofs/rootProof.js";
export {
  decodeFixtureIvcProof,
  type FixtureCircuit,
  type FixtureWithdrawalParameters,
  FIXTURE_PROVER_PRIVATE_KEY,
  fixtureCircuitTag,
  fixtureProofDigest,
  recoverFixtureSigner,
  type SignatureWords,
  signFixtureDeciderWithdrawProof,
  signFixtureGroth16Proof,
  signFixtureIvcProof,
  signFixtureRootProof,
  signFixtureWords,
} from "./zerc20/proofs/fixtureProof.js";
export {
  encodeIndexerEvent,
  encodeIndexerProof,
  INDEXER_MAX_PROOF_LEAVES,
  type IndexerEvent,
  IndexerEventSchema,
  IndexerEventsSchema,
  indexerHex,
  type IndexerProof,
  IndexerProofSchema,
  IndexerProofsSchema,
  indexerProofsRequest,
  IndexerStatusSchema,
  IndexerTreeIndexSchema,
} from "./zerc20/indexer/indexerWire.js";

export {
  BN254_FIELD_MODULUS,
  burnAddressFromHash,
  deriveBurnAddress,
  meetsBurnAddressPow,
  openBurnAddress,
  type BurnAddressDerivation,
} from "./zerc20/burnAddress.js";
export { type NativePoseidonPath, NativePoseidonPathSchema, type NativePoseidonPathRequest } from "./zerc20/poseidon/nativePoseidon.js";
export {
  parsePoseidonPath,
  parsePoseidonSelection,
  POSEIDON_PATH_VARIABLE,
  POSEIDON_SELECTION_VARIABLE,
  poseidonChoice,
  type PoseidonChoice,
  type PoseidonImplementation,
  type PoseidonImplementationName,
  type PoseidonSelection,
  PoseidonSelectionSchema,
  selectPoseidon,
  type SelectPoseidonOptions,
} from "./zerc20/poseidon/poseidonImplementation.js";
export {
  emptyTreeRoot,
  merkleNode,
  merkleRootFromPath,
  TRANSFER_TREE_HEIGHT,
  verifyMerklePath,
  zeroHashes,
} from "./zerc20/merkle.js";
export {
  createIncrementalTree,
  emptyIncrementalTreeState,
  type IncrementalTree,
  type IncrementalTreeState,
  type TrackedPath,
} from "./zerc20/incrementalTree.js";
export {
  addressToRecipient,
  generalRecipientField,
  generalRecipientHash,
  type GeneralRecipient,
} from "./zerc20/recipientHash.js";

// HTTP (`http/`): the pooled `fetch` every JSON exchange on a paid request's path goes through.
export { coalesceJsonRpc } from "./http/coalesceJsonRpc.js";
export { createPooledFetch, type PooledFetch, pooledFetch } from "./http/createPooledFetch.js";
export { MissingBatchAnswerError } from "./http/errors.js";

// Payer plugin (`client/`): the SchemeNetworkClient for @x402/core's x402Client, and its errors.
export {
  BurnBroadcastError,
  BurnRevertedError,
  BurnUnconfirmedError,
  ChainMismatchError,
  InsufficientTokenBalanceError,
  InvalidOfferError,
  OfferExpiringError,
  SpendCapExceededError,
} from "./client/errors.js";
export { assertOfferLife } from "./client/assertOfferLife.js";
export { type CreatePermitPaymentParameters, createPermitPayment } from "./client/createPermitPayment.js";
export {
  type CreateSelfTransferPaymentParameters,
  createSelfTransferPayment,
  DEFAULT_RECEIPT_TIMEOUT_MS,
} from "./client/createSelfTransferPayment.js";
export type { PayerClients } from "./client/payerClients.js";
export type { OnPaymentPhase, PaymentPhaseEvent } from "./client/paymentPhase.js";
export {
  type RegisterSvcZerc20ClientParameters,
  registerSvcZerc20Client,
  type SvcZerc20AllowedAsset,
} from "./client/registerSvcZerc20Client.js";
export { SELF_TRANSFER_MIN_SECONDS_LEFT } from "./client/selfTransferMargin.js";
export {
  type PaymentMode,
  SvcZerc20SchemeClient,
  type SvcZerc20SchemeClientOptions,
} from "./client/svcZerc20SchemeClient.js";

// Resource-server plugin: offers minted by the facilitator's POST /challenge, cached for the paid retry.
export {
  type ChallengeClient,
  type ChallengeRequestOptions,
  createChallengeClient,
  type CreateChallengeClientParameters,
  DEFAULT_CHALLENGE_TIMEOUT_MS,
} from "./server/createChallengeClient.js";
export { type FacilitatorAuthHeaders, facilitatorAuthHeaders } from "./server/facilitatorAuthHeaders.js";
export {
  type ChallengeFailure,
  ChallengeRequestError,
  InvalidListPriceError,
  InvalidServerOptionError,
  OfferNotIssuedError,
  UnsupportedPriceError,
} from "./server/errors.js";
export { DEFAULT_MAX_CACHED_OFFERS } from "./server/offerCache.js";
export { registerSvcZerc20Server } from "./server/registerSvcZerc20Server.js";
export { CONCURRENT_PAYMENT_FAILED } from "./server/serverReasonCodes.js";
export {
  type ListPrice,
  SvcZerc20ServerScheme,
  type SvcZerc20RouteOptions,
  type SvcZerc20ServerOptions,
} from "./server/svcZerc20ServerScheme.js";

// Payment history (`history/`): artifact schemas, signing, the offline proof verifier, wallet-login message and
// the `/history/*` wire shapes and client. Pure except for Node's crypto; the verifier takes no network client.
export { artifactDigest } from "./history/artifactDigest.js";
export {
  HistorySubjectSchema,
  type HistorySubject,
  KeyIdSchema,
  PaymentIdSchema,
  type PaymentId,
  ProofIdSchema,
  VisibleIdSchema,
} from "./history/artifactFields.js";
export {
  type ArtifactSignature,
  ArtifactSignatureSchema,
  type ArtifactSigner,
  type SignedArtifact,
  signArtifact,
  verifyArtifactSignature,
} from "./history/artifactSignature.js";
export { ArtifactTimeSchema, formatArtifactTime, parseArtifactTime } from "./history/artifactTime.js";
export { canonicalJson } from "./wire/canonicalJson.js";
export {
  type CreateHistoryClientParameters,
  createHistoryClient,
  DEFAULT_HISTORY_TIMEOUT_MS,
  type HistoryClient,
  type HistoryLoginParameters,
} from "./history/createHistoryClient.js";
export { ed25519PublicKeyOf, importEd25519PublicKey } from "./history/ed25519Key.js";
export { HistoryRequestError, type HistoryRequestFailure, InvalidArtifactKeyError } from "./history/errors.js";
export {
  buildHistoryLoginMessage,
  HISTORY_LOGIN_PURPOSE,
  HISTORY_LOGIN_TITLE,
  type HistoryLoginMessageFields,
  parseHistoryLoginMessage,
} from "./history/historyLoginMessage.js";
export {
  type HistoryChallengeRequest,
  HistoryChallengeRequestSchema,
  type HistoryChallengeResponse,
  HistoryChallengeResponseSchema,
  type HistoryTokenResponse,
  HistoryTokenResponseSchema,
  type HistoryVerifyRequest,
  HistoryVerifyRequestSchema,
  MAX_HISTORY_LOGIN_MESSAGE_LENGTH,
} from "./history/historyLoginWire.js";
export {
  type HistoryPaymentsResponse,
  HistoryPaymentsResponseSchema,
  type HistoryPaymentView,
  HistoryPaymentViewSchema,
  type ProviderSettlementEvidence,
  ProviderSettlementEvidenceSchema,
} from "./history/historyPaymentView.js";
export {
  type ProofIssueRequest,
  ProofIssueRequestSchema,
  type ProofIssueResponse,
  ProofIssueResponseSchema,
  type ProofRevokeRequest,
  ProofRevokeRequestSchema,
  type ProofRevokeResponse,
  ProofRevokeResponseSchema,
  type ProofVerifyRequest,
  ProofVerifyRequestSchema,
  type ProofVerifyResponse,
  ProofVerifyResponseSchema,
} from "./history/historyProofWire.js";
export { issuerKeyValidAt } from "./history/issuerKeyValidity.js";
export {
  ISSUER_MANIFEST_TYPE,
  type IssuerKey,
  IssuerKeySchema,
  type IssuerManifest,
  type IssuerManifestPayload,
  IssuerManifestSchema,
} from "./history/issuerManifest.js";
export {
  PAYMENT_PROOF_TYPE,
  type PaymentProof,
  type PaymentProofPayload,
  PaymentProofSchema,
  RECORD_COMMITMENT_ALG,
} from "./history/paymentProof.js";
export { PROOF_RESULTS, type ProofResult } from "./history/proofResult.js";
export { PROOF_STATUS_TYPE, type ProofStatus, type ProofStatusPayload, ProofStatusSchema } from "./history/proofStatus.js";
export { readStatusChainText } from "./history/readStatusChainText.js";
export {
  computeRecordCommitment,
  type ComputeRecordCommitmentParameters,
  RECORD_COMMITMENT_TYPE,
} from "./history/recordCommitment.js";
export { TRUST_ANCHOR_TYPE, type TrustAnchor, TrustAnchorSchema } from "./history/trustAnchor.js";
export {
  type VerifyIssuerManifestParameters,
  type VerifyIssuerManifestReturnType,
  verifyIssuerManifest,
} from "./history/verifyIssuerManifest.js";
export {
  type PaymentProofVerification,
  type VerifyPaymentProofParameters,
  verifyPaymentProof,
} from "./history/verifyPaymentProof.js";
export {
  type VerifyStatusChainParameters,
  type VerifyStatusChainReturnType,
  verifyStatusChain,
} from "./history/verifyStatusChain.js";
