import { Type } from "@sinclair/typebox";
import { errors, isKasseError } from "@kasse/core";
import { ActorType, EMAILPASS, githubProvider, googleProvider, type AuthProvider } from "@kasse/modules/auth";
import type { App } from "../../app-type";
import type { Config } from "@kasse/runtime";
import { signInAnswer, SignInView } from "./emailpass";

const Provider = Type.String({ maxLength: 64, pattern: "^[a-z0-9][a-z0-9_-]{0,63}$" });
const ActorParams = Type.Object({ actor_type: ActorType, provider: Provider }, { additionalProperties: false });
const ProviderParams = Type.Object({ provider: Provider }, { additionalProperties: false });
// Providers add their own parameters to the redirect (Google: scope, authuser, prompt), so others are ignored.
const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 4096 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);
const Answer = { 200: Type.Union([SignInView, Type.Object({ location: Type.String() })]) };
// The browser form: a redirect to the provider's consent screen (or `{token}` for a provider that needs none).
const Redirect = {
  200: SignInView,
  302: Type.Unsafe<undefined>({ type: "null", description: "Redirect to the provider; `location` names it" }),
};

/**
 * The OAuth providers configured in the environment, and where each one's callback sends the
 * browser on success (unset: the callback answers `{token}`). A half-configured provider is a
 * start-up error, not a silent omission.
 */
export function oauthProvidersFromConfig(config: Config): {
  providers: AuthProvider[];
  successRedirects: Map<string, string>;
} {
  const env = config.env;
  const providers: AuthProvider[] = [];
  const successRedirects = new Map<string, string>();
  const complete = (name: string, values: Array<string | undefined>) => {
    const set = values.filter(Boolean).length;
    if (set > 0 && set < values.length)
      throw new Error(`${name}_CLIENT_ID, ${name}_CLIENT_SECRET and ${name}_CALLBACK_URL must be set together`);
    return set === values.length;
  };
  if (complete("GOOGLE", [env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, env.GOOGLE_CALLBACK_URL])) {
    providers.push(
      googleProvider({
        clientId: env.GOOGLE_CLIENT_ID!,
        clientSecret: env.GOOGLE_CLIENT_SECRET!,
        callbackUrl: env.GOOGLE_CALLBACK_URL!,
        stateSecret: config.jwt.secret,
        authorizeUrl: env.GOOGLE_AUTHORIZE_URL,
        tokenUrl: env.GOOGLE_TOKEN_URL,
        userinfoUrl: env.GOOGLE_USERINFO_URL,
      }),
    );
    if (env.GOOGLE_SUCCESS_REDIRECT_URL) successRedirects.set("google", env.GOOGLE_SUCCESS_REDIRECT_URL);
  }
  if (complete("GITHUB", [env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET, env.GITHUB_CALLBACK_URL])) {
    providers.push(
      githubProvider({
        clientId: env.GITHUB_CLIENT_ID!,
        clientSecret: env.GITHUB_CLIENT_SECRET!,
        callbackUrl: env.GITHUB_CALLBACK_URL!,
        stateSecret: config.jwt.secret,
        authorizeUrl: env.GITHUB_AUTHORIZE_URL,
        tokenUrl: env.GITHUB_TOKEN_URL,
        userinfoUrl: env.GITHUB_USERINFO_URL,
        emailsUrl: env.GITHUB_EMAILS_URL,
      }),
    );
    if (env.GITHUB_SUCCESS_REDIRECT_URL) successRedirects.set("github", env.GITHUB_SUCCESS_REDIRECT_URL);
  }
  return { providers, successRedirects };
}

/**
 * OAuth sign-in: `GET /auth/{actor_type}/{provider}` redirects (302) to the provider's consent
 * screen (`POST` answers `{location}`, as Medusa's SDK expects); the callback validates `state`
 * and `code` and answers `{token}` (a registration token when no actor is linked yet), or
 * `{location}` when a success redirect is configured. The contract's `/auth/{provider}` forms act
 * for the customer.
 */
export default async function oauth(app: App): Promise<void> {
  const auth = app.modules.auth;
  const { providers, successRedirects } = oauthProvidersFromConfig(app.config);
  for (const provider of providers) auth.providers.register(provider);

  async function begin(actorType: string, provider: string) {
    if (provider === EMAILPASS) throw errors.invalidData("emailpass signs in with POST /auth/{actor_type}/emailpass");
    const result = await auth.login(actorType, provider, { body: {}, query: { actor_type: actorType } });
    if ("location" in result) return { location: result.location };
    return signInAnswer(app, result);
  }

  async function callback(actorType: string, provider: string, query: Record<string, unknown>) {
    if (provider === EMAILPASS) throw errors.invalidData("The emailpass provider has no callback");
    if (typeof query.error === "string") throw errors.unauthorized(`${provider} did not grant access: ${query.error}`);
    const identity = await auth.validateCallback(provider, { body: {}, query: { ...query, actor_type: actorType } });
    let signIn;
    try {
      signIn = await auth.signIn(identity, actorType, provider);
    } catch (error) {
      // An admin must already exist to sign in through OAuth; say so as the 401 it is.
      if (isKasseError(error) && error.type === "invalid_data")
        throw errors.unauthorized(`No ${actorType} is linked to this ${provider} account`);
      throw error;
    }
    // With MFA the callback answers the challenge (`sdk.auth.callback` completes it), never a redirect.
    if ("mfa_challenge" in signIn) return signInAnswer(app, signIn);
    const token = await app.tokens.sign(signIn.claims);
    const success = successRedirects.get(provider);
    if (!success) return { token };
    const location = new URL(success);
    location.searchParams.set("auth_token", token);
    return { location: location.toString() };
  }

  const redirect = async (actorType: string, provider: string, reply: import("fastify").FastifyReply) => {
    const result = await begin(actorType, provider);
    if ("location" in result) return reply.redirect(result.location, 302);
    return result;
  };

  app.get("/:actor_type/:provider", { schema: { params: ActorParams, response: Redirect } }, (request, reply) =>
    redirect(request.params.actor_type, request.params.provider, reply),
  );
  app.post("/:actor_type/:provider", { schema: { params: ActorParams, response: Answer } }, (request) =>
    begin(request.params.actor_type, request.params.provider),
  );
  app.get(
    "/:actor_type/:provider/callback",
    { schema: { params: ActorParams, querystring: CallbackQuery, response: Answer } },
    (request) => callback(request.params.actor_type, request.params.provider, request.query),
  );
  app.get("/:provider", { schema: { params: ProviderParams, response: Redirect } }, (request, reply) =>
    redirect("customer", request.params.provider, reply),
  );
  app.get(
    "/:provider/callback",
    { schema: { params: ProviderParams, querystring: CallbackQuery, response: Answer } },
    (request) => callback("customer", request.params.provider, request.query),
  );
}
