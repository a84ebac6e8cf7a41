import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { FastifyContextConfig, FastifyRequest } from "fastify";
import type { App } from "../app-type";
import { parseFields, project, type FieldSelection } from "./fields";
import { Answer, Deleted, deleted, IdParams, ListAnswer, RetrieveQuery, listResponse } from "./schemas";

type ListFilters<Q extends TObject> = Omit<Static<Q>, "limit" | "offset" | "order" | "fields">;
type Page = { limit: number; offset: number; order?: string };

/** A resource's routes for {@link crudRoutes}: each operation given becomes one route; leave out the ones it has not. */
export interface Crud<V, Q extends TObject, C extends TSchema, U extends TSchema> {
  /** The collection's path, e.g. `/regions`; one resource is `<path>/:<param>`. */
  path: string;
  /** The answer's key for one resource (`region`, also the `object` of a delete answer) and for a page (`regions`). */
  one: string;
  many: string;
  /** The response schema of one resource (its Money marks drive the Medusa dialect's conversion). */
  view: TSchema;
  /** The path parameter, `{id: Id()}` unless given; its one key names it (`{code: CurrencyCode()}`). */
  params?: TObject;
  /**
   * Shapes what the module answers before it is sent (e.g. ids replaced by the records), one page
   * at a time; on reads `selection` is the request's `fields`, for relations loaded only when asked,
   * and `request` what they are read for (a store's sales channel and region).
   */
  present?(items: V[], selection: FieldSelection | undefined, request: FastifyRequest): Promise<unknown[]>;
  list?: { query: Q; run(filters: ListFilters<Q>, page: Page): Promise<{ items: V[]; count: number }> };
  retrieve?(id: string): Promise<V>;
  /** `view` answers the created resource when it differs from the others' (a secret shown once); `request` names the creating actor. */
  create?: { body: C; view?: TSchema; run(body: Static<C>, request: FastifyRequest): Promise<V> };
  /** `view` answers the updated resource when it differs from the reads' (which `present` may extend). */
  update?: { body: U; view?: TSchema; config?: FastifyContextConfig; run(id: string, body: Static<U>): Promise<V> };
  delete?(id: string): Promise<unknown>;
}

/** A module whose reads have the standard names. */
interface StandardReads<V, F> {
  list(filters: F, page: Page): Promise<{ items: V[]; count: number }>;
  retrieve(id: string): Promise<V>;
}

/** A module whose operations have the standard names, as most admin resources' modules do. */
interface StandardModule<V, F, B, P> extends StandardReads<V, F> {
  create(body: B): Promise<V>;
  update(id: string, body: P): Promise<V>;
  delete(id: string): Promise<unknown>;
}

/**
 * The list and retrieve of a module with the standard names, for {@link crudRoutes} (a resource
 * read only, or written otherwise): its list route validates `query`.
 * @example
 * crudRoutes(app, { path: "/regions", one: "region", many: "regions", view: RegionView, ...standardReads(app.modules.region, ListRegions) });
 */
export function standardReads<V, Q extends TObject>(
  module: StandardReads<V, ListFilters<Q>>,
  query: Q,
): {
  list: { query: Q; run(filters: ListFilters<Q>, page: Page): Promise<{ items: V[]; count: number }> };
  retrieve(id: string): Promise<V>;
} {
  return {
    list: { query, run: (filters, page) => module.list(filters, page) },
    retrieve: (id) => module.retrieve(id),
  };
}

/**
 * The five operations of a module with the standard names, for {@link crudRoutes}: its routes
 * validate the list `query` and the `create` and `update` bodies given here.
 * @example
 * crudRoutes(app, { path: "/regions", one: "region", many: "regions", view: RegionView, ...standardCrud(app.modules.region, schemas) });
 */
export function standardCrud<V, Q extends TObject, C extends TSchema, U extends TSchema>(
  module: StandardModule<V, ListFilters<Q>, Static<C>, Static<U>>,
  schemas: { query: Q; create: C; update: U },
): Pick<Crud<V, Q, C, U>, "list" | "retrieve" | "create" | "update" | "delete"> {
  return {
    ...standardReads(module, schemas.query),
    create: { body: schemas.create, run: (body) => module.create(body) },
    update: { body: schemas.update, run: (id, body) => module.update(id, body) },
    delete: (id) => module.delete(id),
  };
}

/**
 * Registers a resource's list, create, retrieve, update and delete routes with the answers every
 * admin resource gives: `{<many>: [...], count, offset, limit}`, `{<one>: ...}` (shaped by `fields`
 * on reads) and `{id, object, deleted: true}`.
 * @example
 * crudRoutes(app, { path: "/regions", one: "region", many: "regions", view: RegionView, retrieve: (id) => regions.retrieve(id) });
 */
export function crudRoutes<V, Q extends TObject, C extends TSchema, U extends TSchema>(
  app: App,
  crud: Crud<V, Q, C, U>,
): void {
  const params = crud.params ?? IdParams;
  const [name] = Object.keys(params.properties);
  const path = `${crud.path}/:${name}`;
  const idOf = (request: { params: unknown }) => (request.params as Record<string, string>)[name!]!;
  const present = async (request: FastifyRequest, items: V[], selection?: FieldSelection) =>
    crud.present ? crud.present(items, selection, request) : items;
  const presentOne = async (request: FastifyRequest, item: V, selection?: FieldSelection) =>
    (await present(request, [item], selection))[0];
  const { list, retrieve, create, update, delete: remove } = crud;

  if (list) {
    app.get(
      crud.path,
      { schema: { querystring: list.query, response: ListAnswer(crud.many, crud.view) } },
      async (request) => {
        const { limit, offset, order, fields, ...filters } = request.query as Static<Q> & Page & { fields?: string };
        const { items, count } = await list.run(filters as ListFilters<Q>, { limit, offset, order });
        const selection = parseFields(fields);
        return listResponse(crud.many, project(await present(request, items, selection), selection), count, {
          limit,
          offset,
        });
      },
    );
  }
  if (create) {
    app.post(
      crud.path,
      { schema: { body: create.body, response: Answer(crud.one, create.view ?? crud.view) } },
      async (request) => {
        return { [crud.one]: await presentOne(request, await create.run(request.body as Static<C>, request)) };
      },
    );
  }
  if (retrieve) {
    app.get(
      path,
      { schema: { params, querystring: RetrieveQuery, response: Answer(crud.one, crud.view) } },
      async (request) => {
        const selection = parseFields(request.query.fields);
        return { [crud.one]: project(await presentOne(request, await retrieve(idOf(request)), selection), selection) };
      },
    );
  }
  if (update) {
    app.post(
      path,
      {
        config: update.config,
        schema: { params, body: update.body, response: Answer(crud.one, update.view ?? crud.view) },
      },
      async (request) => {
        return { [crud.one]: await presentOne(request, await update.run(idOf(request), request.body as Static<U>)) };
      },
    );
  }
  if (remove) {
    app.delete(path, { schema: { params, response: Deleted } }, async (request) => {
      await remove(idOf(request));
      return deleted(idOf(request), crud.one);
    });
  }
}
