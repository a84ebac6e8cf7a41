import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KasseError } from "@kasse/core";
import { createS3FileProvider } from "./s3-provider";

// An endpoint that takes connections and never answers: the provider gives up within its timeouts.
let silent: Server;
let port: number;
const sockets: Socket[] = [];
beforeAll(async () => {
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  port = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((socket) => socket.destroy());
  await new Promise((resolve) => silent.close(resolve));
});

describe("the S3 provider", () => {
  it("fails within its timeouts with a clear provider_error when the storage never answers, never hangs", async () => {
    const provider = createS3FileProvider({
      bucket: "shop",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: true,
      prefix: "",
      requestTimeoutMs: 500,
    });
    const started = Date.now();
    const error = await provider.put("k.png", Buffer.from("x"), "image/png").catch((e: unknown) => e);
    // Two attempts of half a second each, and the SDK's pause between them.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(KasseError);
    expect((error as KasseError).type).toBe("provider_error");
    expect((error as KasseError).message).toMatch(
      new RegExp(`^File storage at http://127\\.0\\.0\\.1:${port} \\(bucket shop\\) failed to store a file: \\w+`),
    );
    expect(sockets.length).toBeGreaterThanOrEqual(1);
  });
});
