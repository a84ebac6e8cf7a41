import type { App } from "../../app";

/**
 * `/store/*`: public unless a route adds `onRequest: app.guards.customer`.
 * Add a resource with one `await app.register(import("./<resource>"))` line.
 */
export default async function store(_app: App): Promise<void> {}
