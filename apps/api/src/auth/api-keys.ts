import type { ApiKeyService } from "@kasse/modules/api-key";
import type { UserService } from "@kasse/modules/user";
import type { ApiKeyVerifier } from "../plugins/auth";

/**
 * The auth plugin's `verifyApiKey`: an active secret key authenticates as an admin while the user
 * who made it (through any key it was made by) is still a user. As in Medusa, the caller's
 * `actor_id` is the key's id (so `created_by` fields name the key) and there is no auth identity;
 * `actor_type` is `user` so the admin guard admits it. Two indexed lookups (the key by hash, its
 * user by id) and no cache, so a revoked key, or one whose user is deleted, is refused at once.
 */
export function secretKeyVerifier(
  apiKeys: Pick<ApiKeyService, "verifySecret">,
  users: Pick<UserService, "exists">,
): ApiKeyVerifier {
  return async (token) => {
    const key = await apiKeys.verifySecret(token);
    if (!key || !(await users.exists(key.created_by))) return null;
    return { actor_id: key.id, actor_type: "user", auth_identity_id: "", app_metadata: {}, via: "api_key" };
  };
}
