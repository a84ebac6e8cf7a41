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
 * GitHub OAuth. The identity is keyed by the numeric user id (logins can be renamed). The email
 * is the profile's public one, else the primary verified one; which addresses GitHub verified is
 * read from the emails endpoint, and only a verified one is the identity's `verified_email`.
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
      const listed = await http.getJson(emailsUrl, accessToken);
      const verified = (Array.isArray(listed) ? (listed as Array<Record<string, unknown>>) : [])
        .filter((e) => e.verified === true && text(e.email))
        .map((e) => ({ email: text(e.email)!.toLowerCase(), primary: e.primary === true }));
      const shown = text(user.email)?.toLowerCase();
      const primary = verified.find((e) => e.primary)?.email;
      const email = shown ?? primary;
      const name = text(user.name);
      const [given, ...rest] = name ? name.split(/\s+/) : [];
      return {
        entity_id: id,
        verified_email: shown && verified.some((e) => e.email === shown) ? shown : (primary ?? null),
        user_metadata: {
          email: email ?? null,
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
