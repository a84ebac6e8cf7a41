// Every process that runs workflows loads the event module, which gives steps' `ctx.emit` its
// outbox (apps do it through their container); tests that import one flow or step file get it here.
import "@kasse/modules/event";
