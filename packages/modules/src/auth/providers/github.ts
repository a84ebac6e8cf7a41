import { errors } from "@kasse/core";
import { knownProviderOptions, oauth2Provider, profileText as text, type KnownProviderOptions } from "./oauth2";
import type { AuthProvider } from "./types";

/** GitHub's endpoints; each can be overridden (GitHub Enterprise, a test identity provider). */
export const GITHUB_DEFAULTS = {
  authorizeUrl: "https://github.com/login/oauth/authorize",
  tokenUrl: "https://github.com/login/oauth/access_token",
  userinfoUrl: "https://api.github.com/user",
  emailsUrl: "https://api.github.com/user/emails",
};

export type GithubOptions = KnownProviderOptions<typeof GITHUB_DEFAULTS>;

/**
 * GitHub OAuth. The identity is keyed by the numeric user id (logins can be renamed). When the
 * profile has no public email, the primary verified one is read from the emails endpoint.
 * @example
 * auth.providers.register(githubProvider({ clientId, clientSecret, callbackUrl, stateSecret }));
 */
export function githubProvider(options: GithubOptions): AuthProvider {
  const emailsUrl = options.emailsUrl ?? GITHUB_DEFAULTS.emailsUrl;
  return oauth2Provider({
    id: "github",
    ...knownProviderOptions(options, GITHUB_DEFAULTS),
    scope: "read:user user:email",
    async profile(user, accessToken, http) {
      const id = typeof user.id === "number" || typeof user.id === "string" ? String(user.id) : undefined;
      if (!id) throw errors.unauthorized("GitHub sent a profile without an id");
      let email = text(user.email);
      if (!email) {
        const emails = await http.getJson(emailsUrl, accessToken);
        const primary = Array.isArray(emails)
          ? (emails as Array<Record<string, unknown>>).find((e) => e.primary === true && e.verified === true)
          : undefined;
        email = text(primary?.email);
      }
      const name = text(user.name);
      const [given, ...rest] = name ? name.split(/\s+/) : [];
      return {
        entity_id: id,
        user_metadata: {
          email: email?.toLowerCase() ?? null,
          name: name ?? text(user.login) ?? null,
          picture: text(user.avatar_url) ?? null,
          given_name: given ?? null,
          family_name: rest.length ? rest.join(" ") : null,
          login: text(user.login) ?? null,
        },
      };
    },
  });
}
