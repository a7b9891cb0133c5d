"use client";
// Who is in the conversation, for its owner (rooms): invite an account by email, take a member out.
// An invitation waits for the invited account to accept it (on its Invitations page); the answer to an invite
// never says whether the email has an account. Members can read and write here; the persona answers whoever
// writes, and sees everyone's name.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PendingButton } from "@/components/ui/form-controls";
import { RemoveButton } from "@/components/ui/remove-button";
import { submitHandler } from "@/components/ui/submit-handler";
import {
  conversationKey,
  conversationsKey,
  inviteParticipant,
  listParticipants,
  participantsKey,
  removeParticipant,
} from "./api";

export function ConversationPeople({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const people = useQuery({
    queryKey: participantsKey(conversationId),
    queryFn: () => listParticipants(conversationId),
  });
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: participantsKey(conversationId) }),
      queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) }),
      queryClient.invalidateQueries({ queryKey: conversationsKey }),
    ]);
  const invite = useMutation({
    mutationFn: () => inviteParticipant(conversationId, email.trim()),
    onSuccess: async () => {
      setSentTo(email.trim());
      setEmail("");
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => removeParticipant(conversationId, userId),
    onSuccess: refresh,
  });

  return (
    <section
      className="space-y-2 rounded-xl border border-zinc-200 p-3 dark:border-zinc-800"
      data-testid="people"
    >
      <h3 className="text-xs font-semibold">People</h3>
      <ul className="space-y-1 text-sm" data-testid="people-list">
        {people.data?.participants.map((person) => (
          <li
            key={person.userId}
            className="flex items-center gap-2"
            data-testid="person"
            data-role={person.role}
          >
            <span className="flex-1 truncate">{person.name}</span>
            <span className="text-xs text-zinc-500">{person.role}</span>
            {person.role === "member" && (
              <RemoveButton
                name={person.name}
                onClick={() => remove.mutate(person.userId)}
                testId="remove-person"
              />
            )}
          </li>
        ))}
      </ul>
      <form
        className="flex gap-2"
        onSubmit={submitHandler(() => {
          if (email.trim()) invite.mutate();
        })}
      >
        <input
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="Invite by email"
          className="input flex-1"
          data-testid="invite-email"
          aria-label="Email of the account to invite"
        />
        <PendingButton
          type="submit"
          className="button-secondary"
          pending={invite.isPending}
          testId="invite-submit"
        >
          Invite
        </PendingButton>
      </form>
      {sentTo && !invite.error && (
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="invite-sent">
          Invitation sent to {sentTo}. If it belongs to an account, they can accept it on their Invitations
          page (/invitations) and appear here once they do.
        </p>
      )}
      {(invite.error ?? remove.error) && (
        <p role="alert" className="text-sm text-red-600" data-testid="people-error">
          {(invite.error ?? remove.error)?.message}
        </p>
      )}
      <p className="text-[11px] text-zinc-500">
        Members can read and write here. The persona answers whoever writes and sees everyone's name.
      </p>
    </section>
  );
}
