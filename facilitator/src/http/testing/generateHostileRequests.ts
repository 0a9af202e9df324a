/**
 * Test helper: a seeded, deterministic generator of hostile requests for the facilitator's routes. Bodies
 * start from genuine `/verify`, `/settle` and `/challenge` bodies and are mutated one step at a time (a leaf
 * replaced by a hostile JSON fragment such as `1e400` or an array nested 5,000 deep, an unknown key added, a
 * key dropped, hex re-cased or altered, the text cut short), then optionally wrapped in hostile framing
 * (content types, encodings, chunking, oversize). The same seed always yields the same list. Each request says
 * whether it must be refused: a payment whose bound values changed, or whose body was cut or wrapped, must; a
 * payment left as it was (hex re-cased, a key added, a field the facilitator does not match on changed) may be
 * accepted. Test-only code.
 */
import { gzipSync } from "node:zlib";
import type { RawRequest } from "./sendRawRequest.js";

/** The four genuine bodies mutations start from, each already valid for the running daemon. */
export type HostileRequestBases = {
  x402SelfTransfer: object;
  x402Permit: object;
  legacySelfTransfer: object;
  legacyPermit: object;
};

/** Which route family a request targets; the test's oracle differs per family. */
export type HostileRequestRoute = "challenge" | "verify" | "settle" | "admin";

/**
 * One generated request with a label that names how it was made (printed when it fails). `mustRefuse`: any
 * acceptance is a bug (`/challenge` is never sent a valid amount; an admin request has no verdict, so false).
 */
export type HostileRequest = { label: string; route: HostileRequestRoute; request: RawRequest; mustRefuse: boolean };

/** Inputs of {@link generateHostileRequests}. */
export type GenerateHostileRequestsParameters = {
  seed: number;
  count: number;
  bases: HostileRequestBases;
  /** The daemon's admin token: some admin requests carry it, others near-misses of it. */
  adminToken: string;
};

/** An array nested 5,000 levels deep: parses fine, and overflows any recursive serialiser. */
export const DEEP_ARRAY = `${"[".repeat(5000)}${"]".repeat(5000)}`;

const DEEP_OBJECT = `${'{"a":'.repeat(3000)}1${"}".repeat(3000)}`;

/** JSON fragments spliced in as raw text, so values `JSON.stringify` cannot write (`1e400`) survive. */
const HOSTILE_FRAGMENTS: readonly string[] = [
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "0",
  "1.5",
  "18446744073709551616",
  "true",
  "null",
  '""',
  "[]",
  "{}",
  DEEP_ARRAY,
  DEEP_OBJECT,
  JSON.stringify("x".repeat(20_000)),
  '"\\u0000"',
  '"\\ud800"',
  '"0x"',
  JSON.stringify(`0x${"g".repeat(64)}`),
  JSON.stringify(`0x${"0".repeat(64)}`),
  JSON.stringify(`0x${"F".repeat(40)}`),
  JSON.stringify(`1${"0".repeat(100)}`),
  JSON.stringify("-1"),
  JSON.stringify("2"),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  JSON.stringify("ｘ\u202e"),
  "[1e400]",
];

const UNKNOWN_KEYS = ["x", "__proto__", "constructor", "toString", "", "payload", "permit", "payer", "burnTxHash", "extra"];

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=nonsense",
  "",
  "application/json, application/json",
];

/** Generates `count` hostile requests from `seed`: about 35% `/verify`, 35% `/settle`, 15% `/challenge`, 15% admin. */
export function generateHostileRequests(parameters: GenerateHostileRequestsParameters): HostileRequest[] {
  const random = seededRandom(parameters.seed);
  const requests: HostileRequest[] = [];
  while (requests.length < parameters.count) {
    const roll = random.next();
    const made =
      roll < 0.35
        ? paymentRequest(random, "verify", parameters.bases)
        : roll < 0.7
          ? paymentRequest(random, "settle", parameters.bases)
          : roll < 0.85
            ? challengeRequest(random)
            : adminRequest(random, parameters.adminToken);
    requests.push({ ...made, label: `#${requests.length} ${made.label}` });
  }
  return requests;
}

type Random = {
  next(): number;
  int(bound: number): number;
  pick<T>(items: readonly T[]): T;
};

/** xorshift32: tiny, fast and fully determined by the seed, which is all a reproducible fuzz needs. */
function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  const int = (bound: number) => Math.floor(next() * bound);
  return { next, int, pick: (items) => items[int(items.length)] as (typeof items)[number] };
}

function paymentRequest(random: Random, route: "verify" | "settle", bases: HostileRequestBases): HostileRequest {
  const baseName = random.pick(Object.keys(bases) as (keyof HostileRequestBases)[]);
  const bound = baseName === "legacyPermit" || baseName === "legacySelfTransfer" ? () => true : isBoundX402Path;
  const { text, label, altersPayment } = mutateJson(random, structuredClone(bases[baseName]) as unknown, bound);
  return { ...frame(random, route, `/${route}`, text, `${route} ${baseName} ${label}`), mustRefuse: altersPayment };
}

/** The offer fields a payment is matched on (settlement/requirementsMismatch.ts), and the scheme; the rest of an offer is informational. */
const MATCHED_OFFER_FIELDS = new Set(["scheme", "network", "asset", "payTo", "amount", "extra", "extra.challengeNonce"]);

/**
 * Whether a value at `path` of an x402 body is one the payment binds: both version fields, the whole payment
 * payload, and the matched fields of both copies of the offer. A legacy body is its payload: every value binds.
 */
function isBoundX402Path(path: string): boolean {
  if (["$.x402Version", "$.paymentPayload", "$.paymentPayload.x402Version", "$.paymentPayload.payload"].includes(path)) return true;
  if (path.startsWith("$.paymentPayload.payload.")) return true;
  for (const offer of ["$.paymentRequirements", "$.paymentPayload.accepted"]) {
    if (path === offer || (path.startsWith(`${offer}.`) && MATCHED_OFFER_FIELDS.has(path.slice(offer.length + 1)))) return true;
  }
  return false;
}

function challengeRequest(random: Random): HostileRequest {
  // Never a valid positive amount: a genuine offer would take a burn address and change the state on purpose.
  const amount = random.pick([
    ...HOSTILE_FRAGMENTS.filter((fragment) => !isPositiveAmount(fragment)),
    JSON.stringify((1n << 248n).toString()),
    JSON.stringify("0"),
    "1000",
  ]);
  const extra = random.next() < 0.4 ? `,${JSON.stringify(random.pick(UNKNOWN_KEYS))}:${random.pick(HOSTILE_FRAGMENTS)}` : "";
  const shapes = [`{"amount":${amount}${extra}}`, `[${amount}]`, amount, `{"amount":${amount}`, `{"Amount":"1000"${extra}}`];
  const text = random.pick(shapes);
  return { ...frame(random, "challenge", "/challenge", text, `challenge ${describeFragment(text)}`), mustRefuse: true };
}

function adminRequest(random: Random, adminToken: string): HostileRequest {
  const path = random.pick([
    "/admin/challenges",
    "/admin/settlements",
    "/admin/settlements?state=accepted&state=failed",
    `/admin/settlements?state=${encodeURIComponent(random.pick(HOSTILE_FRAGMENTS).slice(0, 200))}`,
    "/admin/settlements?state[]=accepted",
    "/admin/settlements?state=%ff%fe",
    "/admin/unknown",
    "/admin/../admin/challenges",
    "/admin/%00",
    "/admin",
    "/admin/page",
    "/admin/page?token=%ff&state[]=1",
  ]);
  const authorization = random.pick<string | undefined>([
    undefined,
    `Bearer ${adminToken}`,
    `bearer ${adminToken}`,
    `Bearer ${adminToken}x`,
    `Bearer ${adminToken.slice(0, -1)}`,
    `Bearer  ${adminToken}`,
    `Basic ${Buffer.from(`admin:${adminToken}`).toString("base64")}`,
    `Basic ${Buffer.from(adminToken).toString("base64")}`,
    "Basic %%%%",
    `Basic ${Buffer.from("\u00ff:\u00fe").toString("base64")}`,
    `Bearer ${"a".repeat(8000)}`,
    "Bearer \u00ff\u00fe",
    "Bearer",
  ]);
  const method = random.pick(["GET", "GET", "GET", "POST", "DELETE", "HEAD", "OPTIONS"]);
  const headers: [string, string][] = authorization === undefined ? [] : [["Authorization", authorization]];
  if (random.next() < 0.2) headers.push(["Authorization", `Bearer ${adminToken}`]);
  const body = method === "POST" ? random.pick(HOSTILE_FRAGMENTS) : undefined;
  return {
    route: "admin",
    label: `admin ${method} ${path.slice(0, 60)} auth=${describeFragment(authorization ?? "none")}${headers.length > 1 ? " +repeated" : ""}`,
    request: { method, path, headers, ...(body === undefined ? {} : { body }) },
    mustRefuse: false,
  };
}

/**
 * Applies one mutation to a parsed JSON body and returns its text, spliced with raw fragments where needed, and
 * whether it changed a value the payment binds (`bound` says which paths are), cut the body or wrapped it.
 */
function mutateJson(random: Random, body: unknown, bound: (path: string) => boolean): { text: string; label: string; altersPayment: boolean } {
  const fragments: string[] = [];
  const placeholder = (fragment: string) => {
    fragments.push(fragment);
    return `@@raw${fragments.length - 1}@@`;
  };
  const nodes = collectNodes(body);
  const operation = random.int(7);
  let label: string;
  let altersPayment: boolean;
  switch (operation) {
    case 0: {
      const node = random.pick(nodes.filter((candidate) => candidate.parent !== undefined));
      const fragment = random.pick(HOSTILE_FRAGMENTS);
      setChild(node, placeholder(fragment));
      label = `replace ${node.path} with ${describeFragment(fragment)}`;
      altersPayment = bound(node.path) && !sameJson(fragment, node.value);
      break;
    }
    case 1: {
      const objects = nodes.filter((candidate) => isPlainObject(candidate.value));
      const node = random.pick(objects);
      const key = random.pick(UNKNOWN_KEYS);
      const fragment = random.pick(HOSTILE_FRAGMENTS);
      // A key the object already has (`payer`, `extra`, …) is a replacement of that value, not an addition.
      const existing = isPlainObject(node.value) && Object.hasOwn(node.value, key) ? { value: node.value[key] } : undefined;
      altersPayment = existing !== undefined && bound(`${node.path}.${key}`) && !sameJson(fragment, existing.value);
      if (isPlainObject(node.value))
        Object.defineProperty(node.value, key, { value: placeholder(fragment), enumerable: true, configurable: true, writable: true });
      label = `add ${node.path}.${key || "(empty)"} = ${describeFragment(fragment)}`;
      break;
    }
    case 2: {
      const node = random.pick(nodes.filter((candidate) => candidate.parent !== undefined));
      deleteChild(node);
      label = `drop ${node.path}`;
      altersPayment = bound(node.path);
      break;
    }
    case 3:
    case 4: {
      const hexNodes = nodes.filter((candidate) => typeof candidate.value === "string" && /^0x[0-9a-fA-F]+$/.test(candidate.value));
      if (hexNodes.length === 0) return { text: JSON.stringify(body), label: "unchanged (no hex value)", altersPayment: false };
      const node = random.pick(hexNodes);
      const value = node.value as string;
      const changed = operation === 3 ? `0x${random.next() < 0.5 ? value.slice(2).toUpperCase() : value.slice(2).toLowerCase()}` : alterHexDigit(random, value);
      setChild(node, changed);
      label = `${operation === 3 ? "re-case" : "alter a digit of"} ${node.path}`;
      // Re-cased hex is the same value; an altered digit is another one.
      altersPayment = operation === 4 && bound(node.path);
      break;
    }
    case 5: {
      const text = JSON.stringify(body);
      const cut = random.int(text.length);
      return { text: text.slice(0, cut), label: `cut at ${cut} of ${text.length}`, altersPayment: true };
    }
    default: {
      const wrapper = random.pick(["[%]", '"%"', '{"paymentPayload":%}', '{"x402Version":2,"paymentPayload":{"x402Version":2,"payload":%}}']);
      return { text: wrapper.replace("%", JSON.stringify(body)), label: `wrap in ${wrapper}`, altersPayment: true };
    }
  }
  const text = JSON.stringify(body).replace(/"@@raw(\d+)@@"/g, (_match, index: string) => fragments[Number(index)] ?? "null");
  return { text, label, altersPayment };
}

/** Wraps a body text in hostile framing about one time in four; otherwise plain JSON. */
function frame(random: Random, route: HostileRequestRoute, path: string, text: string, label: string): Omit<HostileRequest, "mustRefuse"> {
  const roll = random.next();
  const body = Buffer.from(text, "utf8");
  const json: [string, string] = ["Content-Type", "application/json"];
  const make = (headers: [string, string][], payload: Buffer, how: string): Omit<HostileRequest, "mustRefuse"> => ({
    route,
    label: `${label} [${how}]`,
    request: { method: "POST", path, headers, body: payload },
  });
  if (roll < 0.75) return make([json], body, "json");
  switch (random.int(10)) {
    case 0:
      return make([["Content-Type", random.pick(CONTENT_TYPES)]], body, "content-type");
    case 1:
      return make([json, ["Content-Encoding", "gzip"]], gzipSync(body), "gzip");
    case 2:
      return make([json, ["Content-Encoding", random.pick(["gzip", "deflate", "br"])]], body, "bad encoding");
    case 3:
      return make([json, ["Content-Encoding", random.pick(["x-unknown", "gzip, gzip", "identity"])]], body, "odd encoding");
    case 4: {
      const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
      return make([json, ["Transfer-Encoding", "chunked"]], chunked, "chunked");
    }
    case 5:
      return make([json, ["Content-Length", String(body.length)], ["Content-Length", String(body.length + 1)]], body, "two lengths");
    case 6:
      return make([json, ["Content-Length", "99999999999"]], body, "claimed length far above the limit");
    case 7:
      return make([json, ["Expect", "100-continue"]], body, "expect continue");
    case 8:
      return make([json], Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), "byte order mark");
    default: {
      const padded = Buffer.from(`{"pad":"${"p".repeat(70_000)}","body":${text}}`, "utf8");
      return make([json], padded, "oversize");
    }
  }
}

type JsonNode = { path: string; value: unknown; parent: object | undefined; key: string | number | undefined };

function collectNodes(root: unknown): JsonNode[] {
  const nodes: JsonNode[] = [];
  const pending: JsonNode[] = [{ path: "$", value: root, parent: undefined, key: undefined }];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    nodes.push(node);
    const { value } = node;
    if (Array.isArray(value))
      for (const [index, child] of value.entries()) pending.push({ path: `${node.path}[${index}]`, value: child, parent: value, key: index });
    else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) pending.push({ path: `${node.path}.${key}`, value: child, parent: value, key });
    }
  }
  // Deterministic order whatever the walk: by path.
  return nodes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function setChild(node: JsonNode, value: unknown): void {
  if (node.parent !== undefined && node.key !== undefined) Reflect.set(node.parent, node.key, value);
}

function deleteChild(node: JsonNode): void {
  if (Array.isArray(node.parent) && typeof node.key === "number") node.parent.splice(node.key, 1);
  else if (node.parent !== undefined && node.key !== undefined) Reflect.deleteProperty(node.parent, node.key);
}

function alterHexDigit(random: Random, value: string): string {
  if (value.length <= 2) return `${value}0`;
  const index = 2 + random.int(value.length - 2);
  const digit = value[index] === "0" ? "1" : "0";
  return `${value.slice(0, index)}${digit}${value.slice(index + 1)}`;
}

/** True for a fragment that is a decimal string `/challenge` would quote (so the generator leaves it out there). */
function isPositiveAmount(fragment: string): boolean {
  const value: unknown = JSON.parse(fragment);
  return typeof value === "string" && /^[1-9][0-9]{0,74}$/.test(value);
}

/** True when the JSON fragment parses to the value it replaces (the replacement changes nothing). */
function sameJson(fragment: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(fragment)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, printable name for a fragment: long or deep ones by their shape, never the whole text. */
function describeFragment(fragment: string): string {
  if (fragment === DEEP_ARRAY) return "array nested 5000 deep";
  if (fragment === DEEP_OBJECT) return "object nested 3000 deep";
  return fragment.length > 40 ? `${fragment.slice(0, 20)}…(${fragment.length} chars)` : fragment;
}
