/**
 * A minimal Chrome DevTools Protocol client for a child Node process started with `--inspect=127.0.0.1:0`:
 * just enough WebSocket (RFC 6455 text frames, client masking, fragmented and long frames) to send commands
 * and read their results, so the bench can force a GC and read the heap, and take CPU profiles of exactly the
 * window it measures. Node 20 has no WebSocket client built in, and the bench adds no dependency for this.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import type { Socket } from "node:net";
import { BenchError } from "./benchError.js";

/** A connected DevTools session. */
export type InspectorSession = {
  /** Sends one command and resolves with its `result`. */
  send: (method: string, params?: Record<string, unknown>) => Promise<unknown>;
  close: () => void;
};

/** The `ws://` URL a process started with `--inspect` printed on stderr, if any. */
export function inspectorUrlFrom(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function encodeFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const mask = randomBytes(4);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x81, 0x80 | length])
      : length < 65_536
        ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigEndian64(length)]);
  const masked = Buffer.alloc(length);
  for (let index = 0; index < length; index++) masked[index] = (payload[index] ?? 0) ^ (mask[index % 4] ?? 0);
  return Buffer.concat([header, mask, masked]);
}

function bigEndian64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}

/** Connects to `url` (`ws://host:port/<id>`). */
export function connectInspector(url: string): Promise<InspectorSession> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const upgrade = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
      },
    });
    upgrade.once("error", reject);
    upgrade.once("response", (response) => reject(new BenchError(`inspector refused the upgrade: HTTP ${response.statusCode}`)));
    upgrade.once("upgrade", (_response, socket: Socket, head: Buffer) => {
      let nextId = 1;
      const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
      let buffered = head;
      let fragments: Buffer[] = [];

      const onMessage = (text: string) => {
        const message: unknown = JSON.parse(text);
        if (typeof message !== "object" || message === null || !("id" in message) || typeof message.id !== "number") return;
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if ("error" in message) waiter?.reject(new BenchError(`inspector: ${JSON.stringify(message.error)}`));
        else waiter?.resolve("result" in message ? message.result : undefined);
      };

      const drain = () => {
        for (;;) {
          if (buffered.length < 2) return;
          const first = buffered[0] ?? 0;
          const second = buffered[1] ?? 0;
          let length = second & 0x7f;
          let offset = 2;
          if (length === 126) {
            if (buffered.length < 4) return;
            length = buffered.readUInt16BE(2);
            offset = 4;
          } else if (length === 127) {
            if (buffered.length < 10) return;
            length = Number(buffered.readBigUInt64BE(2));
            offset = 10;
          }
          if (buffered.length < offset + length) return;
          const payload = buffered.subarray(offset, offset + length);
          buffered = buffered.subarray(offset + length);
          const opcode = first & 0x0f;
          const final = (first & 0x80) !== 0;
          if (opcode === 0x8) {
            socket.end();
            return;
          }
          if (opcode === 0x1 || opcode === 0x0) {
            fragments.push(Buffer.from(payload));
            if (final) {
              const text = Buffer.concat(fragments).toString("utf8");
              fragments = [];
              onMessage(text);
            }
          }
        }
      };

      socket.on("data", (chunk: Buffer) => {
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        drain();
      });
      socket.on("close", () => {
        for (const waiter of pending.values()) waiter.reject(new BenchError("inspector connection closed"));
        pending.clear();
      });
      drain();
      resolve({
        send: (method, params = {}) =>
          new Promise((resolveSend, rejectSend) => {
            const id = nextId++;
            pending.set(id, { resolve: resolveSend, reject: rejectSend });
            socket.write(encodeFrame(JSON.stringify({ id, method, params })));
          }),
        close: () => socket.end(),
      });
    });
    upgrade.end();
  });
}

/** `NODE_OPTIONS` that open the inspector on a free loopback port (no session attached until the bench connects). */
export const INSPECT_NODE_OPTIONS = "--inspect=127.0.0.1:0";

/** Connects to the inspector a started child announced in `lines` (stderr), or fails naming the process. */
export async function attachInspector(name: string, lines: readonly string[]): Promise<InspectorSession> {
  const url = inspectorUrlFrom(lines);
  if (url === undefined) throw new BenchError(`${name} printed no inspector URL (was it started with ${INSPECT_NODE_OPTIONS}?)`);
  return connectInspector(url);
}

/** Heap and RSS of the inspected process right after a full garbage collection, bytes. */
export async function memoryAfterGc(session: InspectorSession): Promise<{ heapUsed: number; rss: number }> {
  await session.send("HeapProfiler.collectGarbage");
  const result = await session.send("Runtime.evaluate", { expression: "JSON.stringify(process.memoryUsage())", returnByValue: true });
  const value = typeof result === "object" && result !== null && "result" in result ? result.result : undefined;
  const json = typeof value === "object" && value !== null && "value" in value && typeof value.value === "string" ? value.value : "{}";
  const usage: unknown = JSON.parse(json);
  const record: Record<string, unknown> = typeof usage === "object" && usage !== null ? { ...usage } : {};
  return { heapUsed: Number(record.heapUsed), rss: Number(record.rss) };
}
