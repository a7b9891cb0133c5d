"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { conversationsKey, fetchJson } from "./api";

export function NewConversationButton({ className }: { className?: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function create() {
    setPending(true);
    try {
      const { id } = await fetchJson<{ id: string }>("/api/conversations", { method: "POST", body: "{}" });
      await queryClient.invalidateQueries({ queryKey: conversationsKey });
      router.push(`/chat/${id}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <button type="button" onClick={create} disabled={pending} className={className} data-testid="new-conversation">
      New conversation
    </button>
  );
}
