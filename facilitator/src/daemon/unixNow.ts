/** The clock every daemon part reads: Unix seconds. */
export const unixNow = (): number => Math.floor(Date.now() / 1000);
