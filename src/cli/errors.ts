/**
 * The two ways a `tijori` call fails (contract §2): the operator typed something the CLI does not
 * accept (UsageError, exit 2), or the service or the connection to it failed (CliError, exit 1).
 */
export class CliError extends Error {
  readonly exitCode: number = 1;
}

export class UsageError extends CliError {
  override readonly exitCode = 2;
  /** At most one line printed after the error: where to look next. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}
