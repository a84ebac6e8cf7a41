/** What a payment provider is asked to do; every call carries a key the provider can dedupe on. */
export interface ProviderCall {
  amount: number;
  currency_code: string;
  /** The session's (or payment's) provider data. */
  data: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** Stable per saga step run: a retried call must not charge twice. */
  idempotencyKey: string;
  /** The Kasse payment session the call is about: a provider tags its own record with it, and its webhooks name it. */
  sessionId?: string;
}

export type AuthorizeOutcome =
  | {
      status: "authorized";
      data: Record<string, unknown>;
      /** The provider took the money with the authorization (automatic capture): nothing is left to capture. */
      captured?: boolean;
    }
  | { status: "requires_more"; data: Record<string, unknown> }
  | { status: "declined"; data: Record<string, unknown>; message: string }
  /**
   * Not decided yet (a payment still processing at the provider): NOT authorized, so no order; a
   * webhook or a later authorization decides. A caller must never treat it as authorized.
   */
  | { status: "pending"; data: Record<string, unknown> };

/** What a provider's webhook means for Kasse (see {@link PaymentProvider.parseWebhook}). */
export type WebhookOutcome =
  | {
      /**
       * `authorized`: the payment holds `amount`; `captured`: `amount` was taken (at once, with
       * automatic capture); `failed`: an attempt failed (nothing to place); `canceled`: the payment
       * was voided at the provider; `refunded`: `amount` is the total refunded so far.
       */
      action: "authorized" | "captured" | "failed" | "canceled" | "refunded";
      /** The provider's id of the event: a delivery repeated has the same. */
      event_id: string;
      session_id: string;
      /** The provider's id of the payment (Stripe's PaymentIntent), to check against the session's data. */
      reference: string;
      /** Minor units of the session's currency. */
      amount: number;
    }
  | { action: "ignored"; event_id: string; reason: string };

/**
 * A payment provider. Expected refusals are outcomes (`declined`, `requires_more`, and `pending`
 * for a payment not decided yet); a thrown error means the provider itself failed (timeout,
 * outage) and may be retried when it says so (`retryable`).
 */
export interface PaymentProvider {
  id: string;
  /**
   * True when `authorize` only reads what the shopper did at the provider (Stripe: the
   * PaymentIntent the browser confirmed): an answer that comes too late made no authorization of
   * its own, so nothing is voided (voiding it would cancel the shopper's payment).
   */
  authorizeReads?: boolean;
  /** Starts a session; returns the data the client needs. */
  initiate(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  authorize(call: ProviderCall): Promise<AuthorizeOutcome>;
  capture(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  refund(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  cancel(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  getStatus(call: ProviderCall): Promise<"pending" | "authorized" | "captured" | "canceled" | "error">;
  /** Sets a session's amount at the provider before anything authorizes it. Absent: the amount lives in Kasse alone. */
  update?(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  /**
   * Verifies a webhook request (its raw body, exactly as received, and its headers) and says what
   * it means; a bad or missing signature is `invalid_data`. Absent: the provider sends no webhooks.
   */
  parseWebhook?(
    rawBody: string | Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookOutcome>;
}
