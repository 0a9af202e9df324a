/** The issuer name `history-keys init` uses unless told otherwise. */
export const DEFAULT_ISSUER_ID = "svc-zerc20-facilitator";
