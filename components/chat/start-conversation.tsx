"use client";
// The start screen: pick a persona (the default is preselected) and begin a conversation with it.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { LogoIcon } from "@/components/ui/icons";
import { conversationsKey, createConversation, listPersonas, personasKey } from "./api";
import { ImportConversation } from "./import-conversation";
import { MenuButton } from "./menu-button";

export function StartConversation() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const personas = useQuery({ queryKey: personasKey, queryFn: listPersonas });
  const [chosen, setChosen] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options = personas.data?.personas ?? [];
  const selected = chosen ?? options[0]?.id ?? null;

  async function start() {
    setPending(true);
    setError(null);
    try {
      const { id } = await createConversation(selected ?? undefined);
      await queryClient.invalidateQueries({ queryKey: conversationsKey });
      router.push(`/chat/${id}`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not start a conversation.");
      setPending(false);
    }
  }

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="chat-empty">
      <header className="flex h-12 items-center px-2 md:hidden">
        <MenuButton />
      </header>
      <div className="flex flex-1 flex-col items-center justify-center overflow-y-auto p-6">
        <div className="w-full max-w-lg">
          <LogoIcon size={36} className="mb-4 text-indigo-600 dark:text-indigo-400" />
          <h1 className="text-2xl font-semibold tracking-tight">Start a conversation</h1>
          <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">
            Every reply comes with the exact payload the model was sent: open the inspector on any reply to
            see it item by item. Without a provider key, the offline model answers by describing what it
            received.
          </p>
          <fieldset className="mt-6">
            <legend className="label-text mb-2">Persona</legend>
            {personas.isLoading && (
              <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading personas…</p>
            )}
            {personas.error && <p className="text-sm text-red-600">{personas.error.message}</p>}
            <div className="grid gap-2 sm:grid-cols-2" data-testid="persona-picker">
              {options.map((persona) => {
                const active = persona.id === selected;
                return (
                  <label
                    key={persona.id}
                    className={`flex cursor-pointer items-start gap-3 rounded-xl border p-3 text-sm transition-colors ${
                      active
                        ? "border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500 dark:bg-indigo-950/30"
                        : "border-zinc-200 hover:border-zinc-300 dark:border-zinc-800 dark:hover:border-zinc-700"
                    }`}
                    data-testid="persona-option"
                    data-persona-name={persona.name}
                    data-selected={active}
                  >
                    <input
                      type="radio"
                      name="persona"
                      value={persona.id}
                      checked={active}
                      onChange={() => setChosen(persona.id)}
                      className="sr-only"
                    />
                    <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-sm font-semibold text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                      {persona.name.slice(0, 1).toUpperCase()}
                    </span>
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{persona.name}</span>
                      <span className="block truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
                        {persona.modelId}
                        {persona.modelId.startsWith("offline:") && " · offline"}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          {error && (
            <p role="alert" className="mt-3 text-sm text-red-600" data-testid="start-error">
              {error}
            </p>
          )}
          <button
            type="button"
            onClick={start}
            disabled={pending || personas.isLoading}
            className="button-primary mt-6"
            data-testid="new-conversation"
          >
            {pending ? "Starting…" : "Start conversation"}
          </button>
          <ImportConversation />
        </div>
      </div>
    </main>
  );
}
