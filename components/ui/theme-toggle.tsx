"use client";
// Light/dark switch. The root layout applies the stored choice before paint; this flips it and remembers it.
import { useEffect, useState } from "react";
import { MoonIcon, SunIcon } from "./icons";
import { Tooltip } from "./tooltip";

type Theme = "light" | "dark";

function currentTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function ThemeToggle({ className = "icon-button" }: { className?: string }) {
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => setTheme(currentTheme()), []);

  function toggle() {
    const next: Theme = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.classList.toggle("dark", next === "dark");
    try {
      localStorage.setItem("theme", next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    setTheme(next);
  }

  const label = theme === "dark" ? "Switch to light theme" : "Switch to dark theme";
  return (
    <Tooltip content={label}>
      <button
        type="button"
        onClick={toggle}
        className={className}
        aria-label={label}
        data-testid="theme-toggle"
        data-theme={theme ?? undefined}
      >
        {theme === "dark" ? <SunIcon /> : <MoonIcon />}
      </button>
    </Tooltip>
  );
}
