import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The soak's webhook endpoint: which `order.placed` events reached it, by order. */
export interface Receiver {
  url: string;
  /** Event ids delivered per order id (a retried delivery adds no new id). */
  placed: Map<string, Set<string>>;
  deliveries(): number;
  close(): Promise<void>;
}

/** A local HTTP server acknowledging every webhook request with 204 and recording `order.placed`. */
export async function startReceiver(): Promise<Receiver> {
  const placed = new Map<string, Set<string>>();
  let deliveries = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      res.writeHead(204).end();
      const message = JSON.parse(body) as { id: string; type: string; data: { id: string } };
      if (message.type !== "order.placed") return;
      deliveries++;
      placed.set(message.data.id, (placed.get(message.data.id) ?? new Set()).add(message.id));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/soak`,
    placed,
    deliveries: () => deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
