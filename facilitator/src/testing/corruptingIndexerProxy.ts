/**
 * Test harness: an HTTP proxy in front of the fixture indexer that forwards every request and answers
 * `POST /proofs` with a wrong Merkle path for the leaves it was told to corrupt, the way a faulty indexer
 * would: the right root, so the facilitator's root check passes, and a path only the circuit can refuse.
 * `swap-siblings` swaps the first two siblings; `neighbour-path` answers the leaf with the path of the leaf
 * before it (a leaf index off by one). Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How a leaf's path is corrupted. */
export type PathCorruption = "swap-siblings" | "neighbour-path";

/** A running proxy. */
export type CorruptingIndexerProxy = {
  /** `http://127.0.0.1:<port>`, the indexer URL to configure. */
  url: string;
  /** Corrupts every later answer's path of `leafIndex` (above 0 for `neighbour-path`). */
  corrupt: (leafIndex: bigint, how: PathCorruption) => void;
  /** Paths of `leafIndex` answered corrupted so far. */
  corrupted: (leafIndex: bigint) => number;
  close: () => Promise<void>;
};

type ProofAnswer = { leaf_index: number; siblings: string[] } & Record<string, unknown>;

/** Starts the proxy on a free loopback port, forwarding to `target` (the indexer's base URL). */
export async function startCorruptingIndexerProxy(target: string): Promise<CorruptingIndexerProxy> {
  const base = target.replace(/\/+$/, "");
  const corruptions = new Map<number, PathCorruption>();
  const counts = new Map<number, number>();

  const proofs = async (body: string): Promise<{ status: number; text: string }> => {
    const request = JSON.parse(body) as { leaf_indices: number[] } & Record<string, unknown>;
    const asked = request.leaf_indices;
    // A neighbour path needs the leaf before: asked for too, and dropped again unless it was asked for.
    const borrowed = asked.filter((leaf) => corruptions.get(leaf) === "neighbour-path").map((leaf) => leaf - 1);
    const leaves = [...new Set([...asked, ...borrowed])].sort((a, b) => a - b);
    const upstream = await fetch(`${base}/proofs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...request, leaf_indices: leaves }),
    });
    const text = await upstream.text();
    if (upstream.status !== 200) return { status: upstream.status, text };
    const answers = JSON.parse(text) as ProofAnswer[];
    const byLeaf = new Map(answers.map((answer) => [answer.leaf_index, answer]));
    const served = asked.flatMap((leaf) => {
      const answer = byLeaf.get(leaf);
      if (answer === undefined) return [];
      const how = corruptions.get(leaf);
      if (how === undefined) return [answer];
      counts.set(leaf, (counts.get(leaf) ?? 0) + 1);
      if (how === "neighbour-path") return [{ ...answer, siblings: byLeaf.get(leaf - 1)?.siblings ?? answer.siblings }];
      const [first = "0x0", second = "0x0", ...rest] = answer.siblings;
      return [{ ...answer, siblings: [second, first, ...rest] }];
    });
    return { status: 200, text: JSON.stringify(served) };
  };

  const server: Server = createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      if (request.method === "POST" && path.split("?")[0] === "/proofs") {
        const answer = await proofs(body);
        response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.text);
        return;
      }
      const upstream = await fetch(`${base}${path}`, {
        method: request.method ?? "GET",
        headers: { "content-type": request.headers["content-type"] ?? "application/json" },
        ...(request.method === "GET" || request.method === "HEAD" ? {} : { body }),
      });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(await upstream.text());
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    corrupt: (leafIndex, how) => void corruptions.set(Number(leafIndex), how),
    corrupted: (leafIndex) => counts.get(Number(leafIndex)) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
