// The event module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/event/tables`;
// lint forbids it elsewhere): everything else goes through the services.
export { event, webhook, webhookDelivery } from "./schema";
