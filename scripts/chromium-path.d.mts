/** The Chromium the end-to-end tests drive: CHROMIUM_PATH, else Debian's headless shell, else its full Chromium. */
export function chromiumPath(): string;
