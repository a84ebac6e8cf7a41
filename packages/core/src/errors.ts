/**
 * The one error catalog. Every expected failure is a `KasseError` with a stable `type`
 * (the API's `{type, message}`), an HTTP status, and whether retrying can help: the
 * saga engine retries only retryable errors, as Temporal does with non-retryable failures.
 */
export const errorCatalog = {
  invalid_data: { status: 400, retryable: false, name: "InvalidData" },
  not_found: { status: 404, retryable: false, name: "NotFound" },
  not_allowed: { status: 403, retryable: false, name: "NotAllowed" },
  unauthorized: { status: 401, retryable: false, name: "Unauthorized" },
  conflict: { status: 409, retryable: false, name: "Conflict" },
  /**
   * What a cart charges for changed since it was priced (a promotion, a price, a product's
   * availability): checkout refreshed the cart and placed no order; completing it again pays the new total.
   */
  cart_changed: { status: 409, retryable: false, name: "CartChanged" },
  payment_authorization_error: { status: 400, retryable: false, name: "PaymentAuthorizationError" },
  payment_requires_more_error: { status: 400, retryable: false, name: "PaymentRequiresMoreError" },
  too_many_requests: { status: 429, retryable: true, name: "TooManyRequests" },
  unexpected_state: { status: 500, retryable: true, name: "UnexpectedState" },
  timeout: { status: 504, retryable: true, name: "Timeout" },
  provider_error: { status: 502, retryable: true, name: "ProviderError" },
  unavailable: { status: 503, retryable: true, name: "Unavailable" },
  unknown_error: { status: 500, retryable: true, name: "UnknownError" },
} as const;

export type ErrorType = keyof typeof errorCatalog;

/** A typed domain error: `type` is stable, `message` is safe to show to the caller. */
export class KasseError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly retryable: boolean;
  /** Machine-readable detail (e.g. the missing checkout fields); never secret. */
  readonly details?: Record<string, unknown>;

  constructor(
    type: ErrorType,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown; retryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const entry = errorCatalog[type];
    this.name = entry.name;
    this.type = type;
    this.status = entry.status;
    this.retryable = options.retryable ?? entry.retryable;
    if (options.details) this.details = options.details;
  }

  /** The JSON form journaled by the engine and rebuilt by {@link fromJSON}. */
  toJSON(): SerializedError {
    return {
      type: this.type,
      name: this.name,
      message: this.message,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export interface SerializedError {
  type: string;
  name: string;
  message: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

/** Builds the error factory for one catalog type. */
const make = (type: ErrorType) => (message: string, options?: ConstructorParameters<typeof KasseError>[2]) =>
  new KasseError(type, message, options);

/** Factories for the catalog's types, e.g. `throw errors.notFound("Product prod_1 was not found")`. */
export const errors = {
  invalidData: make("invalid_data"),
  notFound: make("not_found"),
  notAllowed: make("not_allowed"),
  unauthorized: make("unauthorized"),
  conflict: make("conflict"),
  cartChanged: make("cart_changed"),
  paymentAuthorization: make("payment_authorization_error"),
  paymentRequiresMore: make("payment_requires_more_error"),
  unexpectedState: make("unexpected_state"),
  timeout: make("timeout"),
  provider: make("provider_error"),
  /** The process cannot take the request now (it is shutting down); the same request may be retried. */
  unavailable: make("unavailable"),
};

export const isKasseError = (error: unknown): error is KasseError => error instanceof KasseError;

/** Rebuilds a journaled error; an unknown `type` becomes `unknown_error`. */
export function fromJSON(value: SerializedError): KasseError {
  const type = (value.type in errorCatalog ? value.type : "unknown_error") as ErrorType;
  return new KasseError(type, value.message, { details: value.details, retryable: value.retryable });
}

/** Any thrown value as a KasseError; non-domain errors become a retryable `unknown_error` wrapping the cause. */
export function toKasseError(error: unknown): KasseError {
  if (error instanceof KasseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new KasseError("unknown_error", message, { cause: error });
}
