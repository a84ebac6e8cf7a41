import type { Modules } from "@kasse/modules";
import { definitions, type WorkflowContext } from "@kasse/workflows";

/** The flows' `step` and `workflow`: their steps read the process's modules as `ctx.modules`. */
export const { step, workflow } = definitions<Modules>();

/** What a flow's workflow function receives (for helpers that run its steps). */
export type FlowContext = WorkflowContext<Modules>;
