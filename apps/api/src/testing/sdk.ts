import Medusa, { FetchError } from "@medusajs/js-sdk";
import { createUserAccount } from "@kasse/flows";
import type { TestApp } from "./app";

/**
 * The status and message of a call `@medusajs/js-sdk` rejected (it throws `FetchError` on a status
 * of 300 or more); fails the test when the call succeeds.
 * @example
 * expect(await sdkFailure(sdk.admin.order.cancel(id))).toEqual({ status: 400, message: "…" });
 */
export async function sdkFailure(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof FetchError) return { status: error.status ?? 0, message: error.message };
    throw error;
  }
  throw new Error("the call succeeded");
}

/**
 * Medusa's SDK signed in as an admin, as the dashboard signs in at `baseUrl` (the app's `/medusa`
 * dialect or its root): the user `ops@kasse.test` is created first, as `kasse user create` makes one.
 * @example
 * admin = await sdkAdmin(t, `${await listenOnLoopback(t)}/medusa`);
 */
export async function sdkAdmin(t: TestApp, baseUrl: string): Promise<Medusa> {
  const credentials = { email: "ops@kasse.test", password: "ops-pass-1" };
  await createUserAccount(t.app.infra.engine, credentials, { scryptLogN: 4 });
  const admin = new Medusa({ baseUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } });
  await admin.auth.login("user", "emailpass", credentials);
  return admin;
}
