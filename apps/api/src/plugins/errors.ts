import type { FastifyError, FastifyInstance } from "fastify";
import { isKasseError, PATTERN_MESSAGES } from "@kasse/core";
import { registerNotFound } from "./not-found";

/** The error body every failing request gets. */
export interface ErrorBody {
  type: string;
  message: string;
}

const typeByStatus: Record<number, string> = {
  400: "invalid_data",
  401: "unauthorized",
  403: "not_allowed",
  404: "not_found",
  405: "not_allowed",
  408: "timeout",
  409: "conflict",
  413: "invalid_data",
  414: "invalid_data",
  415: "invalid_data",
  429: "too_many_requests",
  431: "invalid_data",
};

/**
 * Maps every failure to `{type, message}` (unknown routes and methods: see {@link registerNotFound};
 * what never reaches a route: `http/server-options.ts`): typed domain errors keep their type and status;
 * schema failures and malformed bodies are 400 `invalid_data`; anything unexpected, and every
 * 500 (`unknown_error`, `unexpected_state`), is a 500 whose detail is logged and never sent.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  registerNotFound(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isKasseError(error)) {
      // A shutdown's refusal (503 `unavailable`, retried by the client) is expected, not a fault.
      if (error.status >= 500 && error.type !== "unavailable") request.log.error({ err: error }, "domain error");
      // A 500 is a bug or broken infrastructure (a workflow wraps any plain error, e.g. a failed
      // query with its SQL, as `unknown_error`): its message stays in the log and the journal.
      const message = error.status === 500 ? "An unknown error occurred." : error.message;
      return reply.code(error.status).send({ type: error.type, message });
    }
    if (error.validation) {
      return reply.code(400).send({ type: "invalid_data", message: validationMessage(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429) return reply.code(429).send({ type: "too_many_requests", message: error.message });
      return reply.code(status).send({ type: typeByStatus[status] ?? "invalid_data", message: clientMessage(error) });
    }
    request.log.error({ err: error }, "unexpected error");
    return reply.code(500).send({ type: "unknown_error", message: "An unknown error occurred." });
  });
}

function clientMessage(error: FastifyError): string {
  if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError)
    return "Malformed JSON in request body";
  if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return "Body cannot be empty when content-type is set to 'application/json'";
  return error.message;
}

function validationMessage(error: FastifyError): string {
  const part = error.validationContext ?? "request";
  const parts = (error.validation ?? []).map((issue) => {
    const path = issue.instancePath ? issue.instancePath.slice(1).replaceAll("/", ".") : "";
    const params = issue.params as Record<string, unknown>;
    if (issue.keyword === "additionalProperties")
      return `Unrecognized field '${[path, params.additionalProperty].filter(Boolean).join(".")}' in ${part}`;
    if (issue.keyword === "required")
      return `Field '${[path, params.missingProperty].filter(Boolean).join(".")}' is required in ${part}`;
    // A bad key is not echoed (it may be the long or hostile text); its object is named instead.
    if ("propertyName" in issue) return `A field name${path ? ` in '${path}'` : ""} ${issue.message ?? "is invalid"}`;
    const message = (issue.keyword === "pattern" && PATTERN_MESSAGES[String(params.pattern)]) || issue.message;
    return `${path ? `Field '${path}'` : part} ${message ?? "is invalid"}`;
  });
  return [...new Set(parts)].join("; ") || `Invalid ${part}`;
}
