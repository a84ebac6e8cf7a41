/** Subject and body of a message. */
export interface RenderedMessage {
  subject: string;
  text: string;
}

type Template = (data: Record<string, unknown>) => RenderedMessage;

const str = (value: unknown) => (value === undefined || value === null ? "" : String(value));

/** The built-in templates, by name. A template not listed here renders its data as JSON. */
const templates: Record<string, Template> = {
  "auth.password_reset": (data) => ({
    subject: "Reset your password",
    text: [
      "A password reset was requested for this email address.",
      "",
      `Your reset token: ${str(data.token)}`,
      data.url ? `Or open: ${str(data.url)}` : "",
      "",
      `The token works once and expires at ${str(data.expires_at)}. If you did not ask for it, ignore this message.`,
    ]
      .filter((line, i, all) => line !== "" || all[i - 1] !== "")
      .join("\n"),
  }),
  "user.invite": (data) => ({
    subject: "You are invited to administer the store",
    text: [
      `An admin invited ${str(data.email)} to become an admin user of this store.`,
      "",
      `Your invite token: ${str(data.token)}`,
      data.url ? `Or open: ${str(data.url)}` : "",
      "",
      `Register with this email, then accept the invite with the token. It works once and expires at ${str(data.expires_at)}. If you did not expect it, ignore this message.`,
    ]
      .filter((line, i, all) => line !== "" || all[i - 1] !== "")
      .join("\n"),
  }),
  "order.transfer_requested": (data) => {
    // The storefront's page for the link: `/order/{id}/transfer/{token}` (Medusa's storefront adds the country).
    const path = `/order/${str(data.order_id)}/transfer/${str(data.token)}`;
    return {
      subject: "Confirm the transfer of your order",
      text: [
        `A customer account asked to take over order ${str(data.order_id)}, placed with this email address.`,
        "",
        data.storefront_url ? `To accept or decline, open: ${str(data.storefront_url).replace(/\/+$/, "")}${path}` : `To accept or decline, open this page of the store: ${path}`,
        "",
        `The link works once and expires at ${str(data.expires_at)}. If you do not know this account, decline or ignore this message: the order stays yours.`,
      ].join("\n"),
    };
  },
};

/**
 * Renders a notification's subject and text.
 * @example
 * renderTemplate("auth.password_reset", { token: "abc", expires_at: "…" }).subject; // "Reset your password"
 */
export function renderTemplate(template: string, data: Record<string, unknown>): RenderedMessage {
  const render = templates[template];
  if (render) return render(data);
  return { subject: template, text: JSON.stringify(data, null, 2) };
}
