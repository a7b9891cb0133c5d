// The postgres.js client as drizzle is given it, with every statement of a few parameters sent as a named prepared
// statement (docs/features.md, "Prepared statements"). drizzle asks for an unnamed one unless a query was
// `.prepare()`d, and for an unnamed statement with parameters postgres.js first sends Parse and Describe and waits
// for the parameter types before it can send the values: two round trips, and none pipelined behind it. A named
// statement is described once per connection and then sent in one message with its values.
//
// A statement's text is its key, so only texts that repeat belong in the cache: a statement with more than
// MAX_PREPARED_PARAMETERS parameters is a multi-row insert or a long list, whose text changes with its length, and
// stays unnamed, unless it was `.prepare()`d (its text is fixed). postgres.js keeps each connection's statements
// until the connection is replaced (its lifetime is bounded), so the cache cannot grow without end.

import "server-only";
import type { Sql } from "postgres";

/** Above this many parameters a statement's text is taken to vary with its data, and it is not prepared. */
export const MAX_PREPARED_PARAMETERS = 32;

type Unsafe = Sql["unsafe"];

/** `client`, with its statements and those of its transactions and savepoints prepared as described above. */
export function preparingClient<Client extends Sql>(client: Client): Client {
  const unsafe: Unsafe = (query, parameters, options) =>
    client.unsafe(query, parameters, {
      ...options,
      // A statement drizzle was asked to prepare (`.prepare()`) stays prepared, however long.
      prepare: options?.prepare === true || (parameters?.length ?? 0) <= MAX_PREPARED_PARAMETERS,
    });
  // A transaction or savepoint runs its statements on a client of its own, handed to its callback (a savepoint is
  // opened only on a transaction's client).
  const replaced: Record<string, unknown> = { unsafe };
  for (const name of ["begin", "savepoint"]) {
    const open = Reflect.get(client, name) as ((...args: unknown[]) => unknown) | undefined;
    if (open)
      replaced[name] = (...args: unknown[]) =>
        open.apply(
          client,
          args.map((argument) =>
            typeof argument === "function"
              ? (transaction: Sql) => argument(preparingClient(transaction))
              : argument,
          ),
        );
  }
  return new Proxy(client, {
    get(target, property) {
      if (typeof property === "string" && Object.hasOwn(replaced, property)) return replaced[property];
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
