/**
 * Credential handling for configured URLs. The spec wants `network.rpc_url` credential-free and every
 * printed URL redacted, but hosted RPC providers routinely put the key in the URL, so both a detector (for
 * the `check` warning) and a redactor (for every log and message) exist. Three places count as credentials:
 * - userinfo (`https://user:pass@host`);
 * - a query parameter whose name mentions key, token, secret, pass, auth, sig or credential;
 * - a path segment that looks like an API key: 20 or more letters, digits, `-` or `_`, with at least one
 *   letter and one digit (the `/v3/<key>` style). Over-redacting an odd path costs nothing; leaking a key does.
 */

const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential/i;
const KEY_LIKE_SEGMENT = /^(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}$/;
const MASK = "***";

/** Where a URL carries a credential, described without its value. */
export type UrlCredential = { location: "userinfo" } | { location: "query"; parameter: string } | { location: "path"; segment: number };

/** Lists the credentials embedded in `url` (empty for a credential-free or unparseable URL). */
export function findUrlCredentials(url: string): readonly UrlCredential[] {
  if (!URL.canParse(url)) return [];
  const parsed = new URL(url);
  const found: UrlCredential[] = [];
  if (parsed.username !== "" || parsed.password !== "") found.push({ location: "userinfo" });
  parsed.pathname.split("/").forEach((segment, index) => {
    if (KEY_LIKE_SEGMENT.test(safeDecode(segment))) found.push({ location: "path", segment: index });
  });
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) found.push({ location: "query", parameter: name });
  }
  return found;
}

/** Describes where a credential sits (`userinfo`, `query parameter "apikey"`, `path segment 2`), never its value. */
export function describeUrlCredential(credential: UrlCredential): string {
  switch (credential.location) {
    case "userinfo":
      return "userinfo";
    case "query":
      return `query parameter ${JSON.stringify(credential.parameter)}`;
    case "path":
      return `path segment ${credential.segment}`;
  }
}

/**
 * Renders `url` with credentials masked, for logs and messages.
 *
 * @example
 * redactUrl("https://user:pass@rpc.example/x?apikey=abc&chain=1"); // "https://***@rpc.example/x?apikey=***&chain=1"
 */
export function redactUrl(url: string): string {
  // An unparseable string is shown as nothing at all: we cannot tell which part of it is secret.
  if (!URL.canParse(url)) return "[unparseable URL]";
  const parsed = new URL(url);
  const userinfo = parsed.username !== "" || parsed.password !== "" ? `${MASK}@` : "";
  const path = parsed.pathname
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(safeDecode(segment)) ? MASK : segment))
    .join("/");
  const query = parsed.search === "" ? "" : `?${redactQuery(parsed.search.slice(1))}`;
  const authority = parsed.host === "" ? "" : `//${userinfo}${parsed.host}`;
  return `${parsed.protocol}${authority}${path}${query}${parsed.hash}`;
}

/**
 * The scheme and host of `url` only (no userinfo, path, query or fragment), a host label that looks like an API
 * key masked: how an RPC endpoint is shown in status, readiness and logs, where the path and query add nothing
 * an operator needs and are where providers put keys.
 *
 * @example
 * redactUrlOrigin("https://user:pass@eth.example/v3/0123456789abcdef0123456789abcdef?apikey=x"); // "https://eth.example"
 */
export function redactUrlOrigin(url: string): string {
  if (!URL.canParse(url)) return "[unparseable URL]";
  const parsed = new URL(url);
  const hostname = parsed.hostname
    .split(".")
    .map((label) => (KEY_LIKE_SEGMENT.test(label) ? MASK : label))
    .join(".");
  return `${parsed.protocol}//${hostname}${parsed.port === "" ? "" : `:${parsed.port}`}`;
}

/** Masks secret-named parameter values while keeping the raw spelling of everything else. */
function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = safeDecode(rawName.replaceAll("+", " "));
      return SECRET_PARAM.test(name) && equals !== -1 ? `${rawName}=${MASK}` : pair;
    })
    .join("&");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The literal values inside a configured URL that could be a credential, for redacting wherever they appear
 * on their own (an error that quotes only the path, or a decoded key): userinfo, key-like path segments and
 * every query value, raw and percent-decoded. Every query value counts here, not only secret-named ones,
 * because the operator's own URL is known and over-redacting it costs nothing.
 *
 * @example
 * urlCredentialValues("https://rpc.example/v3/abc123def456ghi789jkl?chain=mainnet-x"); // ["abc123def456ghi789jkl", "mainnet-x"]
 */
export function urlCredentialValues(url: string): readonly string[] {
  if (!URL.canParse(url)) return [url];
  const parsed = new URL(url);
  const raw: string[] = [parsed.username, parsed.password];
  raw.push(...parsed.pathname.split("/").filter((segment) => KEY_LIKE_SEGMENT.test(safeDecode(segment))));
  for (const pair of parsed.search.slice(1).split("&")) {
    const equals = pair.indexOf("=");
    if (equals !== -1) raw.push(pair.slice(equals + 1));
  }
  const values = raw.flatMap((value) => [value, safeDecode(value.replaceAll("+", " "))]).filter((value) => value !== "");
  return [...new Set(values)];
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\]+/gi;

/**
 * Rewrites every URL inside free text (a log line, an error message) that carries a credential with
 * {@link redactUrl}; credential-free URLs are left exactly as written. A backslash ends a URL, so a URL inside
 * JSON text stops before an escape such as `\n`, and punctuation right after a URL belongs to the sentence.
 */
export function redactUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = /[).,;:!?\]]+$/.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    return findUrlCredentials(url).length > 0 || !URL.canParse(url) ? `${redactUrl(url)}${trailing}` : match;
  });
}
