/**
 * `preValidation` of a POST that may come without a body (Medusa's SDK sends none): the absent body
 * is validated as `{}`, so a body schema of `{}` (or all-optional fields) still refuses unknown fields.
 * @example
 * app.post("/api-keys/:id/revoke", { schema: { body: NoBody }, preValidation: emptyBody }, handler);
 */
export const emptyBody = async (request: { body: unknown }): Promise<void> => {
  request.body ??= {};
};
