/**
 * A fault of the surroundings or of the configuration that the operator fixes (a database that
 * cannot be reached, a store held by another process, a port in use, a bad variable): its message
 * names the cause and the fix in a line, so a command prints it alone, without a stack.
 */
export class SetupError extends Error {
  override name = "SetupError";
}
