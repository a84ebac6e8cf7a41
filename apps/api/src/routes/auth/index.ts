import type { App } from "../../app";

/** `/auth/*`: token issuing and credential management. */
export default async function auth(_app: App): Promise<void> {}
