"use client";
// "Import a conversation": a file exported from Glassbox becomes a new conversation of the reader. The server
// checks the whole file first; its message says what is wrong. When something could not be kept as it was (a
// persona this app lacks), the notice is shown with a link instead of opening the conversation at once.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { conversationsKey, importConversation } from "./api";

type ImportState =
  | { kind: "idle" }
  | { kind: "pending" }
  | { kind: "error"; message: string }
  | { kind: "notices"; id: string; notices: string[] };

export function ImportConversation() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ImportState>({ kind: "idle" });

  async function importFile(file: File) {
    setState({ kind: "pending" });
    try {
      let archive: unknown;
      try {
        archive = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not a JSON file: choose a conversation exported from Glassbox.`);
      }
      const { id, notices } = await importConversation(archive);
      await queryClient.invalidateQueries({ queryKey: conversationsKey });
      if (notices.length === 0) router.push(`/chat/${id}`);
      else setState({ kind: "notices", id, notices });
    } catch (failure) {
      setState({ kind: "error", message: failure instanceof Error ? failure.message : "The import failed." });
    }
  }

  return (
    <div className="mt-8 border-t border-zinc-200 pt-4 text-sm dark:border-zinc-800">
      <label className="block">
        <span className="label-text">Or import a conversation exported from Glassbox</span>
        <input
          type="file"
          accept="application/json,.json"
          disabled={state.kind === "pending"}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
            event.target.value = "";
          }}
          className="mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-zinc-100 file:px-3 file:py-1.5 file:text-sm dark:file:bg-zinc-800 dark:file:text-zinc-100"
          data-testid="import-file"
        />
      </label>
      {state.kind === "pending" && (
        <p role="status" className="mt-2 text-zinc-600 dark:text-zinc-300">
          Importing…
        </p>
      )}
      {state.kind === "error" && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400" data-testid="import-error">
          {state.message}
        </p>
      )}
      {state.kind === "notices" && (
        <div role="status" className="mt-2" data-testid="import-notices">
          {state.notices.map((notice) => (
            <p key={notice}>{notice}</p>
          ))}
          <Link
            href={`/chat/${state.id}`}
            className="mt-1 inline-block text-indigo-700 underline dark:text-indigo-300"
          >
            Open the imported conversation
          </Link>
        </div>
      )}
    </div>
  );
}
