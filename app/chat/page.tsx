import { StartConversation } from "@/components/chat/start-conversation";

export default function ChatHomePage() {
  return <StartConversation />;
}
