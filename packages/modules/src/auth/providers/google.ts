import { errors } from "@kasse/core";
import { knownProviderOptions, oauth2Provider, profileText as text, type KnownProviderOptions } from "./oauth2";
import type { AuthProvider } from "./types";

/** Google's endpoints; each can be overridden (a proxy, a test identity provider). */
export const GOOGLE_DEFAULTS = {
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenUrl: "https://oauth2.googleapis.com/token",
  userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
};

export type GoogleOptions = KnownProviderOptions<typeof GOOGLE_DEFAULTS>;

/**
 * Google (OpenID Connect). The identity is keyed by the OpenID `sub`; an account whose email
 * Google has not verified is refused (401), so nobody signs in as an address they do not own.
 * @example
 * auth.providers.register(googleProvider({ clientId, clientSecret, callbackUrl, stateSecret }));
 */
export function googleProvider(options: GoogleOptions): AuthProvider {
  return oauth2Provider({
    id: "google",
    ...knownProviderOptions(options, GOOGLE_DEFAULTS),
    scope: "openid email profile",
    async profile(userinfo) {
      const sub = text(userinfo.sub);
      if (!sub) throw errors.unauthorized("Google sent a profile without a subject");
      if (userinfo.email_verified !== true) throw errors.unauthorized("The Google account's email is not verified");
      const email = text(userinfo.email)?.toLowerCase() ?? null;
      return {
        entity_id: sub,
        verified_email: email,
        user_metadata: {
          email,
          name: text(userinfo.name) ?? null,
          picture: text(userinfo.picture) ?? null,
          given_name: text(userinfo.given_name) ?? null,
          family_name: text(userinfo.family_name) ?? null,
        },
      };
    },
  });
}
