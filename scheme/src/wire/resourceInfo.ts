import { z } from "zod";

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const label = z.string().min(1).max(32).regex(PRINTABLE_ASCII);

/** The x402 v2 description of the protected resource, with the same limits @x402/core enforces. */
export const ResourceInfoSchema = z.looseObject({
  url: z.string().min(1),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  serviceName: label.optional(),
  tags: z.array(label).max(5).optional(),
  iconUrl: z.string().max(2048).optional(),
});

/** The x402 v2 description of the protected resource. */
export type ResourceInfo = z.infer<typeof ResourceInfoSchema>;
