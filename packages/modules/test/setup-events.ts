// Every process that runs workflows loads the event module, which gives steps' `ctx.emit` its
// outbox (apps do it through their container); module tests running steps that emit get it here.
// Test setup only: no module's code imports another module.
// eslint-disable-next-line kasse/boundaries
import "@kasse/modules/event";
