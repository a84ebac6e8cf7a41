import { describe, expect, it } from "vitest";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { createAuthService } from "./service";
import { authenticatorCode } from "./testing";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const auth = createAuthService({ scrypt: { logN: 4 }, secret: "mfa-test-secret-0123456789" });

/** A new identity with an enabled authenticator app (its first code was one step back): its id and the app's secret. */
async function enrolled(email: string) {
  const identity = await auth.register("emailpass", { body: { email, password: "pw-1-long" } });
  const setup = await auth.mfa.start(identity.id, { provider: "totp" });
  await auth.mfa.verify(identity.id, setup.factor.id, authenticatorCode(setup.secret, -1));
  return { id: identity.id, secret: setup.secret, factorId: setup.factor.id };
}

describe("MFA service", () => {
  it("seals the secret under a key of the server secret: another secret cannot check codes, none cannot set up", async () => {
    const { id, secret, factorId } = await enrolled("sealed@example.com");
    const other = createAuthService({ secret: "another-secret-0123456789" });
    const code = authenticatorCode(secret);
    expect(await failure(other.mfa.disable(id, factorId, { code }))).toMatchObject({
      type: "unexpected_state",
      message: "The MFA secret cannot be opened: was JWT_SECRET changed?",
    });
    expect(await failure(createAuthService().mfa.start(id, { provider: "totp" }))).toMatchObject({
      type: "unexpected_state",
    });
    // The factor is untouched and still answers its own server's codes.
    expect((await auth.mfa.list(id)).map((f) => f.status)).toEqual(["enabled"]);
  });

  it("lets exactly one of two sign-ins racing with the same code through", async () => {
    const { id, secret } = await enrolled("race@example.com");
    const identity = await auth.retrieve(id);
    const [a, b] = await Promise.all([
      auth.signIn(identity, "customer", "emailpass"),
      auth.signIn(identity, "customer", "emailpass"),
    ]);
    if (!("mfa_challenge" in a) || !("mfa_challenge" in b)) throw new Error("expected two challenges");
    const code = authenticatorCode(secret);
    const results = await Promise.allSettled([
      auth.completeMfaChallenge(a.mfa_challenge.id, { method: "totp", code }),
      auth.completeMfaChallenge(b.mfa_challenge.id, { method: "totp", code }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ type: "invalid_data", message: "Invalid MFA code" });
  });

  it("uses each recovery code once even when two sign-ins race with it; new codes replace the old ones", async () => {
    const { id } = await enrolled("recovery@example.com");
    const [first] = await auth.mfa.generateRecoveryCodes(id, 2);
    const identity = await auth.retrieve(id);
    const open = async () => {
      const result = await auth.signIn(identity, "customer", "emailpass");
      if (!("mfa_challenge" in result)) throw new Error("expected a challenge");
      return result.mfa_challenge.id;
    };
    const [a, b] = [await open(), await open()];
    const results = await Promise.allSettled([
      auth.completeMfaChallenge(a, { method: "recovery_code", code: first! }),
      auth.completeMfaChallenge(b, { method: "recovery_code", code: first! }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const [replaced] = await auth.mfa.generateRecoveryCodes(id, 1);
    const [current] = await auth.mfa.generateRecoveryCodes(id, 1);
    expect(
      await failure(auth.completeMfaChallenge(await open(), { method: "recovery_code", code: replaced! })),
    ).toMatchObject({
      type: "invalid_data",
    });
    expect(await auth.completeMfaChallenge(await open(), { method: "recovery_code", code: current! })).toMatchObject({
      auth_identity_id: id,
    });
  });
});
