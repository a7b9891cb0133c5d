// The heading of a page outside the chat (invitations, memories), with the way back to it.
import Link from "next/link";

export function PageHeading({ title }: { title: string }) {
  return (
    <div className="flex items-center justify-between">
      <h1 className="text-xl font-semibold">{title}</h1>
      <Link href="/chat" className="text-sm underline">
        Back to the chat
      </Link>
    </div>
  );
}
