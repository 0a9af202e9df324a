import type { z } from "zod";

/**
 * Summarises schema issues as `path: message` pairs. zod's messages name the expectation, not the input, so
 * the summary is safe to return to a client or log even when the input held signatures.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)"}: ${issue.message}`).join("; ");
}
