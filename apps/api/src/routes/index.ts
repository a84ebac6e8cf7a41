import type { FastifyInstance } from "fastify";
import health from "./health";
import admin from "./admin";
import store from "./store";
import auth from "./auth";
import cloud from "./cloud";
import hooks from "./hooks";
import inviteAccept from "./admin/invite-accept";
import { featureFlags } from "./admin/dashboard-shell";
import staticFiles from "./static";

/** Every route of the app. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(health);
  await app.register(admin, { prefix: "/admin" });
  // Accepting an invite is the one admin route for a caller who is not an admin yet: outside the admin guard.
  await app.register(inviteAccept, { prefix: "/admin" });
  // The dashboard's login page reads the feature flags before anyone is signed in.
  await app.register(featureFlags, { prefix: "/admin" });
  await app.register(store, { prefix: "/store" });
  await app.register(auth, { prefix: "/auth" });
  await app.register(cloud, { prefix: "/cloud" });
  await app.register(hooks, { prefix: "/hooks" });
  await app.register(staticFiles);
}
