import { z } from "zod";

/** An ERC-20 `decimals()` value as offers carry it: an integer from 0 to 255 (`uint8`). */
export const TokenDecimalsSchema = z.number().int().min(0).max(255);
