import { describe, expect, it } from "vitest";
import { createTokenIssuer } from "./tokens";

const claims = {
  actor_id: "user_1",
  actor_type: "user",
  auth_identity_id: "authid_1",
  app_metadata: {},
  credentials_version: 1,
};
const secret = new TextEncoder().encode("tokens-test-secret-0123456789");

describe("token issuer", () => {
  it("accepts a token again without changing its claims, and refuses it once it expired", async () => {
    // 2 s, not 1: a token's times are whole seconds, so one signed late in a second may have
    // little more than a second to live, and a loaded machine took that before the first check.
    const tokens = createTokenIssuer(secret, "2s");
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const again = await tokens.verify(token);
    expect(again).toEqual(claims);
    again.actor_id = "changed by a caller";
    expect((await tokens.verify(token)).actor_id).toBe("user_1");
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expect(tokens.verify(token)).rejects.toMatchObject({ message: "Token expired" });
  });

  it("refuses a token signed with another secret, even one it verified under its own", async () => {
    const other = createTokenIssuer(new TextEncoder().encode("another-secret-0123456789abcdef"), "1h");
    const token = await createTokenIssuer(secret, "1h").sign(claims);
    await expect(other.verify(token)).rejects.toMatchObject({ message: "Invalid token" });
  });
});

describe("MFA-pending tokens", () => {
  it("are refused as session tokens, even signed with the server's secret", async () => {
    const tokens = createTokenIssuer(secret, "1h");
    const pending = await tokens.signMfaPending({
      id: "authmfachal_1",
      actor_type: "user",
      expires_at: new Date(Date.now() + 60_000),
    });
    await expect(tokens.verify(pending)).rejects.toMatchObject({ type: "unauthorized", message: "Invalid token" });
  });
});
