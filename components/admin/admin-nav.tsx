"use client";
// The admin area's small navigation.
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/admin/personas", label: "Personas" },
  { href: "/admin/settings", label: "Context policy" },
  { href: "/admin/models", label: "Models" },
  { href: "/admin/blocks", label: "Blocks" },
  { href: "/admin/memories", label: "Memories" },
  { href: "/admin/users", label: "Users" },
];

export function AdminNav() {
  const pathname = usePathname();
  return (
    <nav
      className="flex flex-wrap items-center gap-1 border-b border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
      data-testid="admin-nav"
    >
      <Link href="/chat" className="mr-3 font-semibold" data-testid="admin-back-to-chat">
        Glassbox
      </Link>
      <span className="mr-2 rounded bg-indigo-100 px-1 text-xs text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200">
        admin
      </span>
      {LINKS.map((link) => {
        const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link
            key={link.href}
            href={link.href}
            className={`rounded-lg px-2 py-1 ${active ? "bg-zinc-200 dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-800/60"}`}
            aria-current={active ? "page" : undefined}
            data-testid={`admin-nav-${link.href.split("/").pop()}`}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
