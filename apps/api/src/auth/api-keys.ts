import type { ApiKeyService } from "@kasse/modules/api-key";
import type { ApiKeyVerifier } from "../plugins/auth";

/**
 * The auth plugin's `verifyApiKey`: an active secret key authenticates as an admin. As in Medusa,
 * the caller's `actor_id` is the key's id (so `created_by` fields name the key) and there is no
 * auth identity; `actor_type` is `user` so the admin guard admits it. One indexed lookup by hash
 * and no cache, so a revoked key is refused at once.
 */
export function secretKeyVerifier(apiKeys: Pick<ApiKeyService, "verifySecret">): ApiKeyVerifier {
  return async (token) => {
    const key = await apiKeys.verifySecret(token);
    if (!key) return null;
    return { actor_id: key.id, actor_type: "user", auth_identity_id: "", app_metadata: {}, via: "api_key" };
  };
}
