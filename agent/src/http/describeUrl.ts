/**
 * A URL as the agent prints it: origin and path only, because user info and query strings may carry
 * credentials and end up in logs and `--json` output.
 */
export function describeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
