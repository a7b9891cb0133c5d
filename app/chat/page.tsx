import { NewConversationButton } from "@/components/chat/new-conversation-button";

export default function ChatHomePage() {
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center" data-testid="chat-empty">
      <h1 className="text-2xl font-semibold">Start a conversation</h1>
      <p className="max-w-md text-sm text-zinc-500">
        Every reply comes with the exact payload the model was sent. Without a provider key, the offline model
        answers by describing what it received.
      </p>
      <NewConversationButton className="button-primary" />
    </main>
  );
}
