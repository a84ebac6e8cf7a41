// The app's type, apart from the app: a route imports it from here, which imports no route (no import circle).
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Config, Infrastructure } from "@kasse/runtime";
import type { Modules } from "@kasse/modules";

/** The fastify instance with typebox types, as every route plugin receives it. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    infra: Infrastructure;
    modules: Modules;
  }
}
