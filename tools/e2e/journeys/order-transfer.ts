import type { BrowserContext } from "playwright-core";
import type { Mailbox } from "../mailbox";
import type { JourneyApi, Runner, StepContext } from "../runner";
import { kasseOrder, placeOrderViaApi, productByHandle, region, variantWith, type KasseOrder } from "../shop";
import { signIn } from "./customer";

const CLAIMER = {
  email: "claire@example.com",
  password: "claire-password-1",
  first_name: "Claire",
  last_name: "Claimer",
};

/** Asks, from the account's orders page, for a guest order to be transferred to the signed-in customer. */
async function requestTransfer(s: StepContext, order: KasseOrder): Promise<void> {
  await s.visit("/us/account/orders", s.page.getByTestId("orders-page-wrapper"));
  await s.page.locator('input[name="order_id"]').fill(order.id);
  await s.action(() => s.press(s.page.getByRole("button", { name: "Request transfer" })));
  const request = s.recorder.exchanges.find(
    (e) => e.method === "POST" && e.url.includes(`/store/orders/${order.id}/transfer/request`),
  );
  if (!request) throw new Error(`the storefront sent no transfer request for ${order.id} to Kasse`);
  if (request.status >= 400)
    throw new Error(`Kasse refused the transfer request: ${request.status} ${request.responseBody ?? ""}`);
}

/**
 * The transfer link mailed to the order's email: a full URL on the storefront
 * (`{STOREFRONT_URL}/order/{id}/transfer/{token}`, the storefront adds the country code).
 */
async function mailedLink(s: StepContext, mailbox: Mailbox, order: KasseOrder): Promise<string> {
  const escaped = s.shop.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const link = await mailbox.waitFor(
    order.email,
    new RegExp(`${escaped}/order/${order.id}/transfer/[A-Za-z0-9._~-]+`),
    s.config.actionTimeoutMs,
  );
  const { notifications } = await s.kasse.admin<{
    notifications: Array<{ to: string; status: string; template: string }>;
  }>("GET", `/admin/notifications?to[]=${encodeURIComponent(order.email)}`);
  if (!notifications.some((n) => n.status === "success"))
    s.soft(
      `Kasse's notification store has no delivered notification to ${order.email}: ${JSON.stringify(notifications)}`,
    );
  return link[0];
}

/** The transfer page the mailed link opens, in the guest's own browser, and the button they press there. */
async function answerTransfer(
  s: StepContext,
  guest: BrowserContext,
  order: KasseOrder,
  link: string,
  answer: "Accept" | "Decline",
): Promise<void> {
  const page = await guest.newPage();
  try {
    await page.goto(link);
    if (!page.url().startsWith(`${s.shop}/us/order/${order.id}/transfer/`))
      throw new Error(`the mailed link ${link} led to ${page.url()}, not to the order's transfer page`);
    await s.settle(page.getByRole("button", { name: `${answer} transfer` }));
    const before = s.recorder.exchanges.length;
    const answered = page.waitForResponse((r) => !!r.request().headers()["next-action"]);
    await s.press(page.getByRole("button", { name: `${answer} transfer` }));
    const response = await answered;
    // The streamed answer is complete when the request finished or failed; bounded, so a dropped stream cannot hang the run.
    await Promise.race([
      response.finished().catch(() => undefined),
      page.waitForEvent("requestfailed", (r) => r === response.request()).catch(() => undefined),
      page.waitForTimeout(s.config.actionTimeoutMs),
    ]);
    await s.recorder.idle(s.config.actionTimeoutMs);
    const call = s.recorder.exchanges
      .slice(before)
      .find((e) => e.method === "POST" && e.url.includes(`/transfer/${answer.toLowerCase()}`));
    if (!call) throw new Error(`the transfer page sent no ${answer.toLowerCase()} to Kasse`);
    if (call.status >= 400)
      throw new Error(
        `Kasse refused to ${answer.toLowerCase()} the transfer: ${call.status} ${call.responseBody ?? ""}`,
      );
  } finally {
    await s.capture(page, `guest ${answer.toLowerCase()}s`);
    await page.close();
  }
}

/** Order transfer: a customer claims a guest order (request, mailed link, accept) and a guest declines another. */
export async function orderTransfer(runner: Runner, mailbox: Mailbox): Promise<void> {
  await runner.journey("order transfer", async (j: JourneyApi) => {
    const orders: { accepted?: KasseOrder; declined?: KasseOrder } = {};
    let customerId = "";
    let guest: BrowserContext | undefined;

    await j.step("sign in (guest orders and customer prepared through Kasse's API)", async (s) => {
      const regionId = (await region(s.kasse)).id;
      const variant = variantWith(await productByHandle(s.kasse, regionId, "chinos"), "M");
      orders.accepted = await placeOrderViaApi(s.kasse, "guest-accepts@example.com", regionId, variant.id);
      orders.declined = await placeOrderViaApi(s.kasse, "guest-declines@example.com", regionId, variant.id);
      const { token } = await s.kasse.store<{ token: string }>("POST", "/auth/customer/emailpass/register", {
        email: CLAIMER.email,
        password: CLAIMER.password,
      });
      const { customer } = await s.kasse.store<{ customer: { id: string } }>(
        "POST",
        "/store/customers",
        { email: CLAIMER.email, first_name: CLAIMER.first_name, last_name: CLAIMER.last_name },
        token,
      );
      customerId = customer.id;
      await signIn(s, CLAIMER.email, CLAIMER.password);
      guest = await j.newContext();
    });

    let link = "";
    await j.step("request the transfer of a guest order", async (s) => {
      await requestTransfer(s, orders.accepted!);
    });
    await j.step("the emailed link", async (s) => {
      link = await mailedLink(s, mailbox, orders.accepted!);
    });
    await j.step("the guest accepts", async (s) => {
      await answerTransfer(s, guest!, orders.accepted!, link, "Accept");
      const order = await kasseOrder(s.kasse, orders.accepted!.id);
      if (order.customer_id !== customerId)
        s.soft(
          `Kasse's order ${order.id} belongs to ${order.customer_id} after the accepted transfer, not to ${customerId}`,
        );
    });
    await j.step("the claimed order in the history", async (s) => {
      // The storefront caches the customer's order list in Next's data cache (keyed by the request,
      // bearer token included; tagged with the session's `_medusa_cache_id`) and refreshes it only
      // when that browser places an order; the accept happened in the guest's browser. The customer
      // sees the claimed order in their next session: signed out, then in again.
      await s.context.clearCookies();
      await signIn(s, CLAIMER.email, CLAIMER.password);
      await s.visit("/us/account/orders", s.page.getByTestId("orders-page-wrapper"));
      const card = s.page.getByTestId("order-card").filter({ hasText: `#${orders.accepted!.display_id}` });
      await card.first().waitFor();
      await s.expectAmount(
        "claimed order's total",
        card.first().getByTestId("order-amount"),
        orders.accepted!.total,
        orders.accepted!.currency_code,
      );
    });
    await j.step("request another transfer, the guest declines", async (s) => {
      await requestTransfer(s, orders.declined!);
      const declineLink = await mailedLink(s, mailbox, orders.declined!);
      await answerTransfer(s, guest!, orders.declined!, declineLink, "Decline");
      const order = await kasseOrder(s.kasse, orders.declined!.id);
      if (order.customer_id === customerId)
        s.soft(`Kasse's order ${order.id} went to the customer although the transfer was declined`);
    });
  });
}
