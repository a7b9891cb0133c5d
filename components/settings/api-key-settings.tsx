"use client";
// Settings → API keys: the keys with which OpenAI-compatible clients call the gateway (/v1) as the signed-in user.
// A new key's secret is shown once, to copy; a key may be limited to some personas; a revoked key stops at once.
// Each key shows what its calls used: how many, the tokens in and out, and their cost.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, useSyncExternalStore } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { CheckboxField, PendingButton, TextField } from "@/components/ui/form-controls";
import { ItemList } from "@/components/ui/item-list";
import { PageHeading } from "@/components/ui/page-heading";
import { submitHandler } from "@/components/ui/submit-handler";
import type { ApiOutput } from "@/lib/api/responses";
import { formatUsd } from "@/lib/pricing";

type PersonaOption = ApiOutput<"GET /api/personas">["personas"][number];
type KeyUsage = ApiOutput<"GET /api/keys">["keys"][number]["usage"];

const keysKey = ["api-keys"] as const;

export function ApiKeySettings() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: keysKey,
    queryFn: () => apiFetch<ApiOutput<"GET /api/keys">>("/api/keys"),
  });
  const personas = useQuery({
    queryKey: ["personas"],
    queryFn: () => apiFetch<ApiOutput<"GET /api/personas">>("/api/personas"),
  });
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keysKey });
  const revoke = useMutation({
    mutationFn: (keyId: string) => apiFetch<void>(`/api/keys/${keyId}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const personaName = (id: string) => personas.data?.personas.find((row) => row.id === id)?.name ?? id;
  const error = keys.error ?? revoke.error;
  const baseUrl = useGatewayBaseUrl();

  return (
    <main id="main-content" className="mx-auto max-w-2xl space-y-5 p-6" data-testid="api-key-settings">
      <PageHeading title="API keys" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Point any OpenAI-compatible client at <code data-testid="gateway-base-url">{baseUrl}</code> with one
        of these keys; the model is a persona's id below. Each call becomes a conversation of yours,
        inspectable like any other.
      </p>
      <CreateKeyForm
        personas={personas.data?.personas ?? []}
        onCreated={(key) => {
          setCreated(key);
          refresh();
        }}
      />
      {created && <NewSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />}
      {keys.isPending && <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>}
      <ItemList items={keys.data?.keys} emptyText="No API keys yet." emptyTestId="no-api-keys">
        {(key) => (
          <li
            className="flex items-start justify-between gap-3 rounded-xl border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            data-testid="api-key"
          >
            <div className="space-y-1">
              <p className="font-medium" data-testid="api-key-name">
                {key.name}
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="api-key-scope">
                {key.personaIds ? key.personaIds.map(personaName).join(", ") : "Every persona"}
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                Created {new Date(key.createdAt).toLocaleString()} ·{" "}
                {key.lastUsedAt ? `last used ${new Date(key.lastUsedAt).toLocaleString()}` : "never used"}
              </p>
              <UsageLine usage={key.usage} />
            </div>
            <PendingButton
              className="button-ghost-sm"
              pending={revoke.isPending}
              onClick={() => revoke.mutate(key.id)}
              testId="revoke-api-key"
            >
              Revoke
            </PendingButton>
          </li>
        )}
      </ItemList>
      {personas.data && (
        <section className="space-y-1 text-sm" data-testid="gateway-models">
          <h2 className="font-medium">Model ids</h2>
          <ul className="text-zinc-600 dark:text-zinc-400">
            {personas.data.personas.map((persona) => (
              <li key={persona.id}>
                {persona.name}: <code>{persona.slug}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600" data-testid="api-key-error">
          {error.message}
        </p>
      )}
    </main>
  );
}

const count = (value: number) => value.toLocaleString("en-US");

/** What the key's calls used: calls, tokens in and out, and their cost ("unknown" when no model has prices). */
function UsageLine({ usage }: { usage: KeyUsage }) {
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="api-key-usage">
      <span data-testid="api-key-calls">
        {count(usage.calls)} {usage.calls === 1 ? "call" : "calls"}
      </span>{" "}
      ·{" "}
      <span data-testid="api-key-tokens">
        {count(usage.inputTokens)} tokens in, {count(usage.outputTokens)} out
      </span>{" "}
      ·{" "}
      <span data-testid="api-key-cost">
        {usage.costUsd === null ? "cost unknown" : formatUsd(usage.costUsd)}
      </span>
    </p>
  );
}

function CreateKeyForm({
  personas,
  onCreated,
}: {
  personas: PersonaOption[];
  onCreated: (key: { name: string; secret: string }) => void;
}) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      apiFetch<ApiOutput<"POST /api/keys">>("/api/keys", {
        method: "POST",
        body: { name, ...(scope.length > 0 ? { personaIds: scope } : {}) },
      }),
    onSuccess: ({ key, secret }) => {
      setName("");
      setScope([]);
      onCreated({ name: key.name, secret });
    },
  });
  return (
    <form
      className="space-y-3 rounded-xl border border-zinc-200 p-3 text-sm dark:border-zinc-800"
      onSubmit={submitHandler(() => create.mutate())}
      data-testid="create-api-key"
    >
      <TextField
        label="Name"
        value={name}
        onChange={setName}
        placeholder="My script"
        testId="api-key-name-input"
      />
      <fieldset className="space-y-1">
        <legend className="font-medium">Personas (none checked: every persona)</legend>
        {personas.map((persona) => (
          <CheckboxField
            key={persona.id}
            label={persona.name}
            checked={scope.includes(persona.id)}
            onChange={(checked) =>
              setScope(checked ? [...scope, persona.id] : scope.filter((id) => id !== persona.id))
            }
            testId="api-key-persona"
          />
        ))}
      </fieldset>
      <PendingButton type="submit" pending={create.isPending} testId="create-api-key-submit">
        Create key
      </PendingButton>
      {create.error && (
        <p role="alert" className="text-red-600" data-testid="create-api-key-error">
          {create.error.message}
        </p>
      )}
    </form>
  );
}

/** The secret of the key just made: shown this once. */
function NewSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="space-y-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
      data-testid="new-api-key"
    >
      <p>
        The secret of <strong>{name}</strong>. Copy it now: it is not shown again.
      </p>
      <code className="block break-all" data-testid="new-api-key-secret">
        {secret}
      </code>
      <div className="flex gap-2">
        <button
          type="button"
          className="button-ghost-sm"
          onClick={() => navigator.clipboard.writeText(secret).then(() => setCopied(true))}
          data-testid="copy-api-key"
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="button-ghost-sm" onClick={onDone} data-testid="dismiss-api-key">
          Done
        </button>
      </div>
    </div>
  );
}

const subscribeToNothing = () => () => {};

/**
 * The gateway's address as this page was reached: "/v1" in the server's render and during hydration (the server
 * does not know the address the browser used), the full URL once the page runs in the browser.
 */
function useGatewayBaseUrl(): string {
  return useSyncExternalStore(
    subscribeToNothing,
    () => `${window.location.origin}/v1`,
    () => "/v1",
  );
}
