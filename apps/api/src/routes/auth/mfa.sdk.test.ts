import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@kasse/flows";
import { MFA_CODE_REQUIRED } from "@kasse/modules/auth";
import { authenticatorCode } from "@kasse/modules/auth/testing";
import { useTestApp } from "../../testing";
import { sdkFailure } from "../../testing/sdk";
import { listenOnLoopback } from "../../testing/storefront";

// Medusa's dashboard drives MFA through `@medusajs/js-sdk` (`sdk.auth.mfa.*`, `sdk.auth.login`):
// the calls, bodies and answers here are the ones its profile page and login page make and read.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's types come from @medusajs/types, not installed: untyped JSON
type Row = any;

const t = useTestApp();
let baseUrl: string;
const credentials = { email: "mfa-sdk@kasse.test", password: "mfa-sdk-pass-1" };
const client = () => new Medusa({ baseUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } });

beforeAll(async () => {
  await createUserAccount(t.app.infra.engine, credentials, { scryptLogN: t.config.scryptLogN });
  baseUrl = `${await listenOnLoopback(t)}/medusa`;
});

describe("MFA through @medusajs/js-sdk (the dashboard's profile and login pages)", () => {
  it("sets up an authenticator app, then the login is mfa_required until verifyChallenge, and disabling asks for a code", async () => {
    const admin = client();
    expect(typeof (await admin.auth.login("user", "emailpass", credentials))).toBe("string");
    expect(await admin.auth.mfa.list()).toEqual({ mfa_factors: [] });

    const setup: Row = await admin.auth.mfa.start({ provider: "totp", label: "Authenticator app" });
    expect(setup.mfa_factor).toMatchObject({ provider: "totp", status: "pending" });
    expect(setup.otpauth_url).toContain(`secret=${setup.secret}`);
    const { mfa_factor }: Row = await admin.auth.mfa.verify(setup.mfa_factor.id, {
      code: authenticatorCode(setup.secret, -1),
    });
    expect(mfa_factor.status).toBe("enabled");
    const { recovery_codes } = await admin.auth.mfa.generateRecoveryCodes();
    expect(recovery_codes).toHaveLength(10);

    // A new browser: the password answers the challenge (and a token the SDK stores but no route honours).
    const browser = client();
    const login: Row = await browser.auth.login("user", "emailpass", credentials);
    expect(login).toMatchObject({ mfa_required: true, mfa_challenge: { methods: ["totp", "recovery_code"] } });
    expect(typeof login.token).toBe("string");
    expect(await sdkFailure(browser.admin.user.me())).toMatchObject({ status: 401 });
    expect(
      await sdkFailure(browser.auth.mfa.verifyChallenge(login.mfa_challenge.id, { method: "totp", code: "000000" })),
    ).toEqual({
      status: 400,
      message: "Invalid MFA code",
    });
    const token = await browser.auth.mfa.verifyChallenge(login.mfa_challenge.id, {
      method: "totp",
      code: authenticatorCode(setup.secret),
    });
    expect(typeof token).toBe("string");
    expect(((await browser.admin.user.me()) as Row).user.email).toBe(credentials.email);

    // The dashboard first disables without a body, reads this message, then asks for the code.
    expect(await sdkFailure(browser.auth.mfa.disable(mfa_factor.id))).toEqual({
      status: 400,
      message: MFA_CODE_REQUIRED,
    });
    const disabled: Row = await browser.auth.mfa.disable(mfa_factor.id, {
      method: "totp",
      code: authenticatorCode(setup.secret, 1),
    });
    expect(disabled.mfa_factor).toMatchObject({ id: mfa_factor.id, status: "disabled" });
    expect(typeof (await client().auth.login("user", "emailpass", credentials))).toBe("string");
  });
});
