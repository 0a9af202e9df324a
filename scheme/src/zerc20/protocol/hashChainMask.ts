/** Mask that keeps the low 248 bits: the hash chain and every transfer value fit a BN254 field element. */
export const HASH_CHAIN_MASK = (1n << 248n) - 1n;
