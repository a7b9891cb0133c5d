"use client";
// A fenced code block: language label, copy button, highlighting (shiki, loaded with the first block).
import { CopyButton } from "@/components/ui/copy-button";
import { HighlightedCode } from "./highlighted-code";

export function CodeBlock({ code, language }: { code: string; language: string }) {
  return (
    <div
      className="code-surface overflow-hidden"
      data-testid="code-block"
      data-language={language || undefined}
    >
      <div className="flex items-center justify-between border-b border-zinc-200 px-3 py-1 text-[11px] text-zinc-500 dark:border-zinc-800">
        <span className="font-sans">{language || "text"}</span>
        <CopyButton text={code} testId="copy-code" />
      </div>
      <pre className="overflow-x-auto p-3">
        <code>
          <HighlightedCode code={code} language={language} />
        </code>
      </pre>
    </div>
  );
}
