/** The x402 scheme identifier of this payment scheme; frozen for x402 version 2. */
export const SCHEME = "svc-zerc20";

/** The only x402 protocol version this scheme speaks: there is no v1 fallback. */
export const X402_VERSION = 2;
