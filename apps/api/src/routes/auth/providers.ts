import { Type } from "@sinclair/typebox";
import { ActorType, EMAILPASS } from "@kasse/modules/auth";
import type { App } from "../../app-type";
import { NoFields } from "../../http/schemas";

const ActorParams = Type.Object({ actor_type: ActorType }, { additionalProperties: false });
const ProviderView = Type.Object({
  id: Type.String({ description: "The provider's id, as in `/auth/{actor_type}/{id}`" }),
  identifier: Type.String(),
  display_name: Type.String(),
  flow: Type.Union([Type.Literal("credentials"), Type.Literal("redirect")], {
    description: "`credentials`: a form posts email and password; `redirect`: the browser goes to the provider",
  }),
});
const ProvidersAnswer = {
  200: Type.Object(
    { providers: Type.Array(ProviderView) },
    { description: "The sign-in methods offered to this actor type" },
  ),
};

const DISPLAY_NAMES: Record<string, string> = { [EMAILPASS]: "Email and password", google: "Google", github: "GitHub" };

/**
 * `GET /auth/{actor_type}/providers` (`sdk.auth.listProviders("user")`): the sign-in methods this
 * server runs, which a login page offers: email and password, and each configured OAuth provider.
 */
export default async function providers(app: App): Promise<void> {
  app.get(
    "/:actor_type/providers",
    { schema: { params: ActorParams, querystring: NoFields, response: ProvidersAnswer } },
    async () => ({
      providers: app.modules.auth.providers
        .ids()
        .sort((a, b) => (a === EMAILPASS ? -1 : b === EMAILPASS ? 1 : a.localeCompare(b)))
        .map((id) => ({
          id,
          identifier: id,
          display_name: DISPLAY_NAMES[id] ?? id,
          flow: id === EMAILPASS ? ("credentials" as const) : ("redirect" as const),
        })),
    }),
  );
}
