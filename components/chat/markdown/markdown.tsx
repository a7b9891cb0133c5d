"use client";
// Markdown for chat messages with react-markdown + GFM. Safe by construction: raw HTML in the text is never
// rendered (react-markdown skips it), link targets pass through `safeHref`, and images in replies become links
// instead of being fetched. Fenced code gets the copy button and light highlighting of CodeBlock.
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./code-block";

/** Only http(s), mailto and same-site links survive; anything else (javascript:, data:, vbscript:) is dropped. */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (trimmed.startsWith("/") && !trimmed.startsWith("//")) return trimmed;
  if (trimmed.startsWith("#")) return trimmed;
  try {
    const url = new URL(trimmed);
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? trimmed : null;
  } catch {
    return null;
  }
}

const components: Components = {
  a({ href, children }) {
    const safe = safeHref(href);
    if (!safe) return <span>{children}</span>;
    const external = !safe.startsWith("/") && !safe.startsWith("#");
    return (
      <a href={safe} {...(external ? { target: "_blank", rel: "noopener noreferrer nofollow" } : {})}>
        {children}
      </a>
    );
  },
  img({ src, alt }) {
    const safe = typeof src === "string" ? safeHref(src) : null;
    const label = alt || "image";
    return safe ? (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
        [{label}]
      </a>
    ) : (
      <span>[{label}]</span>
    );
  },
  pre({ children }) {
    return <>{children}</>;
  },
  code({ className, children }) {
    const language = /language-([\w+-]+)/.exec(className ?? "")?.[1];
    const text = String(children ?? "");
    // Fenced blocks carry a language class or end with a newline; inline code does neither.
    if (language !== undefined || text.includes("\n")) {
      return <CodeBlock code={text.replace(/\n$/, "")} language={language ?? ""} />;
    }
    return <code>{children}</code>;
  },
};

export const Markdown = memo(function Markdown({
  text,
  className = "",
}: {
  text: string;
  className?: string;
}) {
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} urlTransform={(url) => url}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
