/** A message as a provider receives it: rendered from its template. */
export interface OutgoingMessage {
  id: string;
  to: string;
  channel: string;
  template: string;
  data: Record<string, unknown>;
  /** Keys of `data` that are secret: a provider writing messages anywhere but to the recipient (a log) leaves them out. */
  secret_keys: readonly string[];
  subject: string;
  text: string;
}

/**
 * A delivery channel implementation (`log`, `smtp`, or a custom one). `send` throws to fail
 * the attempt; the service retries it with backoff.
 */
export interface NotificationProvider {
  id: string;
  channels: readonly string[];
  send(message: OutgoingMessage): Promise<{ external_id?: string | null }>;
  close?(): Promise<void>;
}

/** The logger the `log` provider writes to (pino-compatible). */
export interface NotificationLogger {
  info(obj: object, msg?: string): void;
}
