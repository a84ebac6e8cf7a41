import { FetchError } from "@medusajs/js-sdk";

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
