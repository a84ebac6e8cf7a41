/**
 * Resolves like `promise`, or rejects with `onTimeout()` after `ms` (no limit when `ms` is undefined).
 * @example
 * await withTimeout(client.query("select 1"), 2000, () => new Error("database did not answer within 2000 ms"));
 */
export function withTimeout<T>(promise: Promise<T>, ms: number | undefined, onTimeout: () => Error): Promise<T> {
  if (ms === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
