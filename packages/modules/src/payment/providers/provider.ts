/** What a payment provider is asked to do; every call carries a key the provider can dedupe on. */
export interface ProviderCall {
  amount: number;
  currency_code: string;
  /** The session's (or payment's) provider data. */
  data: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** Stable per saga step run: a retried call must not charge twice. */
  idempotencyKey: string;
}

export type AuthorizeOutcome =
  | { status: "authorized"; data: Record<string, unknown> }
  | { status: "requires_more"; data: Record<string, unknown> }
  | { status: "declined"; data: Record<string, unknown>; message: string };

/**
 * A payment provider. Expected refusals are outcomes (`declined`, `requires_more`); a thrown
 * error means the provider itself failed (timeout, outage) and may be retried.
 */
export interface PaymentProvider {
  id: string;
  /** Starts a session; returns the data the client needs. */
  initiate(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  authorize(call: ProviderCall): Promise<AuthorizeOutcome>;
  capture(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  refund(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  cancel(call: ProviderCall): Promise<{ data: Record<string, unknown> }>;
  getStatus(call: ProviderCall): Promise<"pending" | "authorized" | "captured" | "canceled" | "error">;
}
