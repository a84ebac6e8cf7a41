// The payment module's schema file as the tables entry point (`@kasse/modules/payment/tables`): every table it declares, kept
// in step by construction, for tests, migrations and `kasse check` only (lint forbids it elsewhere).
export * from "./schema";
