import type { PolicyResponse } from "../http/fetchWithPolicy.js";

/** What the provider served, as the CLI prints it and `--json` carries it. */
export type ResourceResponse = {
  status: number;
  contentType: string | undefined;
  /** The body as UTF-8 text. */
  body: string;
};

/** Reduces a fetched response to the resource the user asked for. */
export function toResourceResponse(response: PolicyResponse): ResourceResponse {
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? undefined,
    body: response.body.toString("utf8"),
  };
}
