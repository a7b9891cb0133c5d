/** The Content-Security-Policy header's value; with a nonce, only scripts that carry it run (content-security-policy.mjs). */
export function contentSecurityPolicy(options: { nonce: string | null; development?: boolean }): string;
