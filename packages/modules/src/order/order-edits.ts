import { errors, generateId } from "@kasse/core";
import { transaction } from "@kasse/db";
import { orderQueries as q, type Order } from "./queries";
import type {
  AddedItemDetails,
  OrderChangeAction,
  OrderChangeActionBody,
  OrderChangeStatus,
  OrderChangeType,
  OrderLineItemRow,
  OrderShippingMethodRow,
  OrderVersionChangeRow,
} from "./schema";
import type { OrderActor, OrderChangeUpdate, OrderEditBegin, OrderEditRequest } from "./shapes";
import { assertOpen, createOrderService } from "./service";
import { changeView as returnChangeView, type ReturnChange } from "./return-changes";

/** An order change as the API shows it: Medusa's `order_change` with its actions. */
export type OrderVersionChange = ReturnType<typeof changeView>;

/** The money of a line or method as an edit leaves it. */
export type PlannedMoney = Record<"subtotal" | "discount_total" | "tax_total" | "total", number>;

/** An existing line an edit changes: its new quantity, price and totals. */
export type PlannedLine = PlannedMoney & { id: string; quantity: number; unit_price: number };

/** A line an edit adds (its `ITEM_ADD` action's id names it until it has its own). */
export type PlannedNewLine = PlannedMoney & Omit<AddedItemDetails, "tax_rate"> & { action_id: string };

/** A shipping method an edit adds. */
export type PlannedNewMethod = PlannedMoney &
  Pick<OrderShippingMethodRow, "shipping_option_id" | "name" | "amount" | "is_tax_inclusive"> & { action_id: string };

/** The order's stored totals (see `storedTotals`). */
export type PlannedTotals = Record<(typeof ORDER_TOTAL_KEYS)[number], number>;

/** What confirming a change writes: computed by the flows' `planChange` from the change's actions. */
export interface ChangeApplication {
  change_id: string;
  /** The change's `updated_at` the plan was computed from: an action added since refuses the confirmation. */
  planned_at: string;
  lines: PlannedLine[];
  added_lines: PlannedNewLine[];
  added_methods: PlannedNewMethod[];
  /** Existing shipping methods taken off (`SHIPPING_REMOVE`: a canceled exchange's or claim's). */
  removed_method_ids: string[];
  /** Existing shipping methods whose money moves (a draft's promotions priced anew). */
  methods?: Array<PlannedMoney & { id: string }>;
  /** The promotions the order has afterwards and what each gives it (a draft's codes); absent: unchanged. */
  promotions?: Array<{ promotion_id: string; amount: number }>;
  totals: PlannedTotals;
}

/** What undoing a confirmation needs (JSON, journaled). */
export interface AppliedChange {
  order_id: string;
  change_id: string;
  status: OrderChangeStatus;
  version: number;
  /** The existing lines the confirmation changed, and the lines and methods it added. */
  changed_line_ids: string[];
  line_ids: string[];
  method_ids: string[];
  /** The methods it took off (put back from the replaced version). */
  removed_method_ids: string[];
  /** The existing methods whose money it changed, and the promotions the order had before (when it set them). */
  changed_method_ids?: string[];
  promotions_before?: Array<{ promotion_id: string; amount: number }>;
}

/** The totals an order stores, as a version keeps them. */
export const ORDER_TOTAL_KEYS = [
  "item_subtotal",
  "item_tax_total",
  "item_discount_total",
  "item_total",
  "shipping_subtotal",
  "shipping_tax_total",
  "shipping_discount_total",
  "shipping_total",
  "subtotal",
  "discount_total",
  "tax_total",
  "total",
] as const;

const isActive = (status: OrderChangeStatus) => status === "pending" || status === "requested";

/** The money an action moves before tax: an added line's gross, an updated line's new gross, a method's amount. */
function actionAmount(a: OrderChangeAction): number {
  switch (a.action) {
    case "ITEM_ADD":
    case "ITEM_UPDATE":
      return a.details.unit_price * a.details.quantity;
    case "SHIPPING_ADD":
    case "CREDIT_LINE_ADD":
      return a.details.amount;
    case "SHIPPING_REMOVE":
      return -a.details.amount;
    case "WRITE_OFF_ITEM":
    case "PROMOTION_ADD":
    case "PROMOTION_REMOVE":
      return 0;
  }
}

/** An action as the API shows it: with its change, order, version and the money it moves. */
export type OrderChangeActionOf = OrderChangeAction & {
  order_change_id: string;
  order_id: string;
  version: number;
  amount: number;
};

function actionView(row: OrderVersionChangeRow, a: OrderChangeAction): OrderChangeActionOf {
  return { ...a, order_change_id: row.id, order_id: row.order_id, version: row.version, amount: actionAmount(a) };
}

function changeView(row: OrderVersionChangeRow) {
  return { ...row, actions: row.actions.map((a) => actionView(row, a)) };
}

const orders = createOrderService();

/** Lines or methods an `order_version` keeps as JSON, as rows again (their dates back). */
const revive = <T>(rows: Array<Record<string, unknown>>) =>
  rows.map((r) => ({
    ...r,
    created_at: new Date(r.created_at as string),
    updated_at: new Date(r.updated_at as string),
    deleted_at: null,
  })) as T[];

/**
 * Medusa's order changes, the edit kind: a change begun on an open order collects typed actions
 * (`ITEM_ADD`, `ITEM_UPDATE`, `SHIPPING_ADD`) while `pending`, may be `requested`, and is
 * `confirmed` (a new order version: {@link confirm}, a step of the confirm saga) or `canceled`.
 * Nothing on the order moves before the confirmation. An order has at most one active change (a
 * partial unique index), and none while a return change is pending.
 */
export function createOrderEditService(changeType: OrderChangeType = "edit") {
  // The same machinery holds an exchange's or a claim's outbound lines and shipping methods.
  const noun = changeType === "edit" ? "Order edit" : `Order ${changeType}`;

  /** The change `id`, locked, refused unless it is an active change of this service's type. */
  async function lockActive(id: string): Promise<OrderVersionChangeRow> {
    const row = await q.lockVersionChange(id);
    if (row.change_type !== changeType) throw errors.notFound(`${noun} with id: ${id} was not found`);
    if (!isActive(row.status)) throw errors.invalidData(`${noun} ${id} is ${row.status}`);
    return row;
  }

  /** Saves `values` on change `id` (now its `updated_at`) and answers its view. */
  async function save(id: string, values: Parameters<typeof q.saveVersionChange>[1]): Promise<OrderVersionChange> {
    return changeView(await q.saveVersionChange(id, { ...values, updated_at: new Date() }));
  }

  /** Runs `edit` on the locked active change and saves the actions it answers. */
  function withActions(id: string, edit: (row: OrderVersionChangeRow, order: Order) => OrderChangeAction[]) {
    return transaction(async () => {
      const row = await lockActive(id);
      if (row.status !== "pending") throw errors.invalidData(`${noun} ${id} is ${row.status}: its actions are fixed`);
      const order = await orders.retrieve(row.order_id);
      return save(id, { actions: edit(row, order) });
    });
  }

  const service = {
    /** Runs `edit` on the pending change `id` (locked, with its order) and saves the actions it answers. */
    writeActions: withActions,
    stamp,

    /**
     * Begins a change of order `input.order_id` (open, with no other active change nor pending
     * return change); with `draft`, an edit of a draft order instead (and only of a draft).
     */
    async begin(
      input: OrderEditBegin,
      actor: OrderActor,
      options: { draft?: boolean } = {},
    ): Promise<OrderVersionChange> {
      return transaction(async () => changeView(await openChange(input, changeType, actor, options.draft === true)));
    },

    /** The edit `id`; 404 when there is none. */
    async retrieve(id: string): Promise<OrderVersionChange> {
      const row = await q.versionChange(id);
      if (row.change_type !== changeType) throw errors.notFound(`${noun} with id: ${id} was not found`);
      return changeView(row);
    },

    /** The order's active change, if any. */
    async activeFor(orderId: string): Promise<OrderVersionChange | null> {
      const row = await q.activeVersionChange({ order_id: orderId });
      return row ? changeView(row) : null;
    },

    /**
     * The id of order `orderId`'s active edit: Medusa's order-edit routes name the order, not the
     * change. 404 for an unknown order, 400 when it has no active edit.
     */
    async activeEditId(orderId: string): Promise<string> {
      const row = await q.activeVersionChange({ order_id: orderId });
      if (row?.change_type === "edit") return row.id;
      await orders.retrieve(orderId);
      throw errors.invalidData(`Order ${orderId} has no active order edit`);
    },

    /** What the order was at an earlier `version` (its lines, methods and totals), if an edit replaced it. */
    async version(
      orderId: string,
      version: number,
    ): Promise<(Pick<Order, "items" | "shipping_methods" | "version"> & PlannedTotals) | undefined> {
      const kept = await q.versionOf({ order_id: orderId, version: version });
      if (!kept) return undefined;
      return {
        ...(kept.totals as unknown as PlannedTotals),
        version,
        items: revive<OrderLineItemRow>(kept.items),
        shipping_methods: revive<OrderShippingMethodRow>(kept.shipping_methods),
      };
    },

    /**
     * A page of the order's changes of the types and statuses asked for, oldest first (newest first
     * with `page.newest_first`): its edits and its return changes (Medusa lists both kinds as order
     * changes). Each table gives its first `offset + limit` rows, merged in order.
     */
    async list(
      orderId: string,
      filters: { id?: string[]; change_type?: OrderChangeType[]; status?: OrderChangeStatus[] },
      page: { limit: number; offset: number; newest_first?: boolean },
    ): Promise<{ items: Array<OrderVersionChange | ReturnChange>; count: number }> {
      const first = { limit: page.offset + page.limit, offset: 0 };
      const newest = page.newest_first === true;
      const returnTypes = filters.change_type?.filter((t) => t === "return_request" || t === "return_receive");
      const [edits, returns] = await Promise.all([
        q.versionChanges(orderId, filters, first, newest),
        q.returnChangesOfOrder(orderId, { ...filters, change_type: returnTypes }, first, newest),
      ]);
      const direction = newest ? -1 : 1;
      const items = [...edits.items.map(changeView), ...returns.items.map(returnChangeView)]
        .sort((a, b) => direction * (a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id)))
        .slice(page.offset, page.offset + page.limit);
      return { items, count: edits.count + returns.count };
    },

    /**
     * A page of the changes the order's customer is shown, newest first: the confirmed ones, those
     * that changed the order. A pending or requested change has changed nothing yet (and its actions
     * may still change); a change canceled before confirmation never changed the order; the cancel
     * of a confirmed exchange or claim is a confirmed change of its own.
     */
    shopperHistory: (
      orderId: string,
      filters: { change_type?: OrderChangeType[] },
      page: { limit: number; offset: number },
    ): Promise<{ items: Array<OrderVersionChange | ReturnChange>; count: number }> =>
      service.list(
        orderId,
        { change_type: filters.change_type, status: ["confirmed"] },
        { ...page, newest_first: true },
      ),

    /** Adds lines (their variants' snapshots and prices, taken by the flow) as `ITEM_ADD` actions. */
    addItems: (
      id: string,
      items: Array<{
        details: Extract<OrderChangeActionBody, { action: "ITEM_ADD" }>["details"];
        internal_note?: string | null;
      }>,
    ) =>
      withActions(id, (row) => [
        ...row.actions,
        ...items.map((i) => stamp({ action: "ITEM_ADD", details: i.details }, "order_item", i.internal_note)),
      ]),

    /**
     * Sets an existing line's new quantity and price (one `ITEM_UPDATE` per line, replaced by a later
     * one). The line must be on the order and keep at least its fulfilled units.
     */
    updateItem: (
      id: string,
      itemId: string,
      details: { quantity: number; unit_price?: number; tax_rate: number },
      note?: string | null,
    ) =>
      withActions(id, (row, order) => {
        const line = order.items.find((i) => i.id === itemId);
        if (!line) throw errors.invalidData(`Item ${itemId} is not on order ${order.id}`);
        assertKeepsFulfilled(line, details.quantity);
        const priced = { ...details, unit_price: details.unit_price ?? line.unit_price };
        const update = stamp({ action: "ITEM_UPDATE", details: priced }, "order_item", note, itemId);
        return [...row.actions.filter((a) => !(a.action === "ITEM_UPDATE" && a.reference_id === itemId)), update];
      }),

    /** Changes the quantity and price of a line the edit added (action `actionId`). */
    updateAddedItem: (
      id: string,
      actionId: string,
      input: { quantity: number; unit_price?: number; internal_note?: string },
    ) =>
      withActions(id, (row) => {
        requireAction(row, actionId, "ITEM_ADD", noun);
        if (input.quantity < 1) throw errors.invalidData("An added item's quantity must be at least 1");
        return row.actions.map((a) => {
          if (a.id !== actionId || a.action !== "ITEM_ADD") return a;
          return {
            ...a,
            details: { ...a.details, quantity: input.quantity, unit_price: input.unit_price ?? a.details.unit_price },
            internal_note: input.internal_note ?? a.internal_note,
          };
        });
      }),

    /** Adds a shipping method (priced by the flow) as a `SHIPPING_ADD` action. */
    addShipping: (
      id: string,
      details: Extract<OrderChangeActionBody, { action: "SHIPPING_ADD" }>["details"],
      note?: string | null,
    ) =>
      withActions(id, (row) => [...row.actions, stamp({ action: "SHIPPING_ADD", details }, "shipping_method", note)]),

    /**
     * Takes off a shipping method the order already has (`SHIPPING_REMOVE`, with the amount it
     * charged): a draft's (Medusa's `DELETE /admin/draft-orders/{id}/edit/shipping-methods/method/{method_id}`).
     * 400 for a method not on the order or already taken off by this change.
     */
    removeShipping: (id: string, methodId: string) =>
      withActions(id, (row, order) => {
        const method = order.shipping_methods.find((m) => m.id === methodId);
        if (!method) throw errors.invalidData(`Shipping method ${methodId} is not on order ${order.id}`);
        if (row.actions.some((a) => a.action === "SHIPPING_REMOVE" && a.reference_id === methodId))
          throw errors.invalidData(`Shipping method ${methodId} is already taken off by ${noun.toLowerCase()} ${id}`);
        const removal = { action: "SHIPPING_REMOVE" as const, details: { amount: method.amount } };
        return [...row.actions, stamp(removal, "shipping_method", null, methodId)];
      }),

    /** Changes the price of a shipping method the edit added. */
    updateAddedShipping: (id: string, actionId: string, input: { amount?: number; internal_note?: string }) =>
      withActions(id, (row) => {
        requireAction(row, actionId, "SHIPPING_ADD", noun);
        return row.actions.map((a) =>
          a.id !== actionId || a.action !== "SHIPPING_ADD"
            ? a
            : {
                ...a,
                details: { ...a.details, amount: input.amount ?? a.details.amount },
                internal_note: input.internal_note ?? a.internal_note,
              },
        );
      }),

    /** Takes back an added line or shipping method (its action); 404 when the edit has no such action. */
    removeAction: (
      id: string,
      actionId: string,
      kind: "ITEM_ADD" | "SHIPPING_ADD" | "WRITE_OFF_ITEM",
    ): Promise<OrderVersionChange> =>
      withActions(id, (row) => {
        requireAction(row, actionId, kind, noun);
        return row.actions.filter((a) => a.id !== actionId);
      }),

    /**
     * Asks for the edit to be confirmed (Medusa's request step): its actions are fixed from then on.
     * `no_notification`: the customer is not mailed when it is confirmed.
     */
    async request(id: string, actor: OrderActor, input: OrderEditRequest = {}): Promise<OrderVersionChange> {
      return transaction(async () => {
        const row = await lockActive(id);
        if (row.status !== "pending") throw errors.invalidData(`${noun} ${id} is already requested`);
        if (row.actions.length === 0) throw errors.invalidData(`${noun} ${id} has no changes to request`);
        return save(id, {
          status: "requested",
          requested_at: new Date(),
          requested_by: actor.actor_id,
          no_notification: input.no_notification ?? false,
        });
      });
    },

    /**
     * Medusa's `POST /admin/order-changes/{id}` on an active change: its internal note. Promotions
     * are always carried over (a line's discount scales with it): `carry_over_promotions: false` is refused.
     */
    async update(id: string, input: OrderChangeUpdate): Promise<OrderVersionChange> {
      if (input.carry_over_promotions === false)
        throw errors.invalidData(
          "Kasse carries an order's promotions over to its changes (a line's discount scales with it): carry_over_promotions cannot be false",
        );
      return transaction(async () => {
        const row = await q.lockVersionChange(id);
        if (!isActive(row.status)) throw errors.invalidData(`Order change ${id} is ${row.status}`);
        if (input.internal_note === undefined) return changeView(row);
        return save(id, { internal_note: input.internal_note });
      });
    },

    /** Cancels an active edit: nothing it held applies. */
    async cancel(id: string, actor: OrderActor): Promise<OrderVersionChange> {
      return transaction(async () => {
        await lockActive(id);
        return save(id, { status: "canceled", canceled_at: new Date(), canceled_by: actor.actor_id });
      });
    },

    /**
     * Confirms the active edit `plan.change_id` as the order's next version: the lines and methods
     * `plan` computed from its actions, the order's totals and `version` + 1, and the version it
     * replaces kept in `order_version`. Refused (400) when the change is no longer active (confirmed
     * meanwhile: two confirmations, one wins) or its actions changed since the plan. `logged` names
     * the entry of the order's log.
     */
    async confirm(
      plan: ChangeApplication,
      actor: OrderActor,
      logged = `order_${changeType}_confirmed`,
    ): Promise<{ order: Order; applied: AppliedChange }> {
      return transaction(async () => {
        const found = await q.versionChange(plan.change_id);
        const order = await orders.lock(found.order_id);
        const row = await lockActive(plan.change_id);
        assertEditable(order, order.status === "draft");
        if (row.updated_at.toISOString() !== plan.planned_at)
          throw errors.conflict(`${noun} ${row.id} changed while it was being confirmed`);
        // Units fulfilled since the edit was put together stay on the order.
        for (const line of plan.lines) {
          const current = order.items.find((i) => i.id === line.id);
          if (current) assertKeepsFulfilled(current, line.quantity);
        }
        if (row.version !== order.version + 1)
          throw errors.conflict(`Order ${order.id} is at version ${order.version}, not ${row.version - 1}`);
        await keepVersion(order, row.id);
        for (const line of plan.lines) {
          const { id, ...values } = line;
          await q.setLine(id, { ...values, updated_at: new Date() });
        }
        const added = plan.added_lines.length
          ? await q.insertLines(addedRows(plan.added_lines, "ordli", order.id, order.items.length))
          : [];
        const methods = plan.added_methods.length
          ? await q.insertMethods(
              addedRows(plan.added_methods, "ordsm", order.id, order.shipping_methods.length).map((m) => ({
                ...m,
                data: {},
              })),
            )
          : [];
        if (plan.removed_method_ids.length) await q.deleteMethods({ ids: plan.removed_method_ids });
        for (const method of plan.methods ?? []) {
          const { id, ...money } = method;
          await q.setMethod(id, { ...money, updated_at: new Date() });
        }
        const promotionsBefore = plan.promotions ? await q.promotionsOf([order.id]) : undefined;
        if (plan.promotions) await q.replacePromotions(order.id, plan.promotions);
        await q.setOrder(order.id, { ...plan.totals, version: row.version, updated_at: new Date() });
        await save(row.id, { status: "confirmed", confirmed_at: new Date(), confirmed_by: actor.actor_id });
        await orders.recordChange(
          order.id,
          logged,
          actor,
          { version: order.version, total: order.total },
          { version: row.version, total: plan.totals.total },
        );
        return {
          order: await orders.retrieve(order.id),
          applied: {
            order_id: order.id,
            change_id: row.id,
            status: row.status,
            version: order.version,
            changed_line_ids: plan.lines.map((l) => l.id),
            line_ids: added.map((l) => l.id),
            method_ids: methods.map((m) => m.id),
            removed_method_ids: plan.removed_method_ids,
            changed_method_ids: (plan.methods ?? []).map((m) => m.id),
            ...(promotionsBefore
              ? { promotions_before: promotionsBefore.map((p) => ({ promotion_id: p.promotion_id, amount: p.amount })) }
              : {}),
          },
        };
      });
    },

    /** Undoes {@link confirm}: the replaced version's lines and totals back, the change active again. */
    async undoConfirm(applied: AppliedChange, actor: OrderActor): Promise<void> {
      await transaction(async () => {
        const order = await orders.lock(applied.order_id);
        const kept = await q.versionOf({ order_id: applied.order_id, version: applied.version });
        if (!kept) return;
        const changed = new Set(applied.changed_line_ids);
        for (const item of revive<OrderLineItemRow>(kept.items)) {
          if (!changed.has(item.id)) continue;
          const { quantity, unit_price, subtotal, discount_total, tax_total, total } = item;
          await q.setLine(item.id, { quantity, unit_price, subtotal, discount_total, tax_total, total });
        }
        if (applied.line_ids.length) await q.deleteLines({ ids: applied.line_ids });
        if (applied.method_ids.length) await q.deleteMethods({ ids: applied.method_ids });
        // Confirmations journaled before methods could be removed carry no list.
        const removed = new Set(applied.removed_method_ids ?? []);
        const repriced = new Set(applied.changed_method_ids ?? []);
        const keptMethods = revive<OrderShippingMethodRow>(kept.shipping_methods);
        for (const m of keptMethods.filter((m) => removed.has(m.id))) await q.restoreMethod(m);
        for (const { id, subtotal, discount_total, tax_total, total } of keptMethods.filter((m) => repriced.has(m.id)))
          await q.setMethod(id, { subtotal, discount_total, tax_total, total });
        if (applied.promotions_before) await q.replacePromotions(applied.order_id, applied.promotions_before);
        await q.setOrder(applied.order_id, {
          ...(kept.totals as unknown as PlannedTotals),
          version: applied.version,
        });
        await q.deleteVersion({ order_id: applied.order_id, version: applied.version });
        await q.saveVersionChange(applied.change_id, {
          status: applied.status,
          confirmed_at: null,
          confirmed_by: null,
        });
        await orders.recordChange(
          order.id,
          `order_${changeType}_confirm_reverted`,
          actor,
          { version: order.version },
          { version: applied.version },
        );
      });
    },
  };
  return service;
}

/** Keeps the order's current version (its lines, methods and totals) in `order_version`, ended by change `changeId`. */
export async function keepVersion(order: Order, changeId: string): Promise<void> {
  await q.insertVersion({
    order_id: order.id,
    version: order.version,
    change_id: changeId,
    items: order.items as unknown as Array<Record<string, unknown>>,
    shipping_methods: order.shipping_methods as unknown as Array<Record<string, unknown>>,
    totals: Object.fromEntries(ORDER_TOTAL_KEYS.map((k) => [k, order[k]])),
  });
}

/** Refuses an order an edit cannot change: a draft's edit needs a draft, an order's edit an open order. */
function assertEditable(order: Pick<Order, "id" | "status">, draft: boolean): void {
  if (!draft) return assertOpen(order, "edited");
  if (order.status !== "draft") throw errors.invalidData(`Order ${order.id} is ${order.status}, not a draft order`);
}

/**
 * Opens a pending change of `changeType` on order `input.order_id` (locked; open, or a draft for a
 * draft's edit; with no active change nor pending return change), for its next version.
 */
export async function openChange(
  input: OrderEditBegin,
  changeType: OrderChangeType,
  actor: OrderActor,
  draft = false,
): Promise<OrderVersionChangeRow> {
  const order = await orders.lock(input.order_id);
  if (changeType === "edit") assertEditable(order, draft);
  else assertOpen(order, `given an ${changeType}`);
  await assertNoActiveChange(order.id);
  return q.insertVersionChange(
    {
      id: generateId("ordch"),
      order_id: order.id,
      change_type: changeType,
      status: "pending",
      version: order.version + 1,
      description: input.description ?? null,
      internal_note: input.internal_note ?? null,
      created_by: actor.actor_id,
      metadata: input.metadata ?? null,
    },
    `Order ${order.id} already has an active change`,
  );
}

/** Refuses (400) a new change on order `orderId` while it has an active change or a pending return change. */
export async function assertNoActiveChange(orderId: string): Promise<void> {
  const [active, pendingReturn] = await Promise.all([
    q.activeVersionChange({ order_id: orderId }),
    q.pendingChangeOfOrder({ order_id: orderId }),
  ]);
  if (active)
    throw errors.invalidData(`Order ${orderId} already has an active ${active.change_type} change (${active.id})`);
  if (pendingReturn) throw errors.invalidData(`Order ${orderId} has a pending return change`);
}

/** Refuses (400) a new `quantity` of `line` below its fulfilled units. */
function assertKeepsFulfilled(line: Pick<OrderLineItemRow, "id" | "fulfilled_quantity">, quantity: number): void {
  if (quantity < line.fulfilled_quantity)
    throw errors.invalidData(
      `Item ${line.id} has ${line.fulfilled_quantity} fulfilled units: its quantity cannot go below that`,
    );
}

/** Refuses (404) an action id the change has no `kind` action for. */
function requireAction(
  row: OrderVersionChangeRow,
  actionId: string,
  kind: OrderChangeAction["action"],
  noun: string,
): void {
  if (!row.actions.some((a) => a.id === actionId && a.action === kind))
    throw errors.notFound(`Action with id: ${actionId} was not found on ${noun.toLowerCase()} ${row.id}`);
}

export type OrderEditService = ReturnType<typeof createOrderEditService>;

/** A new action: an existing line's or method's (`referenceId`), or an added one's, named by its own id. */
export function stamp(
  body: OrderChangeActionBody,
  reference: OrderChangeAction["reference"],
  note?: string | null,
  referenceId?: string,
): OrderChangeAction {
  const id = generateId("ordchact");
  return {
    ...body,
    id,
    reference,
    reference_id: referenceId ?? id,
    internal_note: note ?? null,
    created_at: new Date().toISOString(),
  } as OrderChangeAction;
}

/**
 * What a confirmed edit adds to the order (its new lines, its new shipping methods) as rows: each with
 * a new id of `prefix`, on the order, ranked after its `existing` ones, without the plan's action id.
 */
function addedRows<R extends { action_id: string }>(rows: R[], prefix: string, orderId: string, existing: number) {
  return rows.map(({ action_id: _a, ...row }, i) => ({
    ...row,
    id: generateId(prefix),
    order_id: orderId,
    rank: existing + i,
    metadata: null,
  }));
}
