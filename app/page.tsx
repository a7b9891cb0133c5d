import { redirect } from "next/navigation";
import { currentUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  redirect((await currentUser()) ? "/chat" : "/sign-in");
}
