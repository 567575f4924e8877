import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html.js';

/**
 * The shell every hosted page shares: one inline stylesheet (allowed by its hash in a strict CSP, so no
 * other style, script, image host or frame can run), no external assets, no JavaScript.
 */

const STYLES = `
:root{color-scheme:light;--ink:#16181d;--muted:#5b616e;--line:#e3e5ea;--bg:#f3f4f7;--card:#fff;--brand:#2b50d6;--brand-ink:#fff;--ok:#1d7a46;--ok-bg:#e5f5ec;--warn:#8a5a00;--warn-bg:#fff4dc;--bad:#a1262c;--bad-bg:#fdecec;--radius:14px}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;display:flex;flex-direction:column;align-items:center;padding:clamp(12px,5vw,48px) 12px}
main{width:100%;max-width:30rem}
main.wide{max-width:46rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);box-shadow:0 1px 2px rgba(16,24,40,.04),0 8px 24px rgba(16,24,40,.06);padding:clamp(20px,5vw,36px)}
.org{display:flex;align-items:center;gap:10px;margin:0 0 20px;color:var(--muted);font-size:.9rem}
.mark{flex:none;width:40px;height:40px;border-radius:10px;display:grid;place-items:center;font-weight:700;font-size:1.1rem;background:#e8edfc;color:var(--brand)}
.pair{display:flex;align-items:center;gap:10px;margin-bottom:18px}
.pair .arrow{color:var(--muted)}
h1{font-size:clamp(1.3rem,4vw,1.6rem);line-height:1.25;margin:0 0 8px}
h2{font-size:1rem;margin:24px 0 8px}
p{margin:0 0 12px}
.spaced{margin-top:16px}
.muted{color:var(--muted)}
.small{font-size:.875rem}
ul.scopes{list-style:none;margin:0 0 20px;padding:0;border:1px solid var(--line);border-radius:10px}
ul.scopes li{padding:10px 14px 10px 40px;position:relative;border-top:1px solid var(--line);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;word-break:break-all}
ul.scopes li:first-child{border-top:0}
ul.scopes li::before{content:"\\2713";position:absolute;left:15px;color:var(--ok);font-family:system-ui,sans-serif;font-weight:700}
form{margin:0}
.actions{display:flex;flex-direction:column;gap:10px;margin-top:8px}
button,.button{appearance:none;display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:10px 18px;border-radius:10px;border:1px solid transparent;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.primary{background:var(--brand);color:var(--brand-ink);width:100%}
.primary:hover{background:#2142b8}
.secondary{background:#fff;color:var(--ink);border-color:var(--line)}
.danger{background:#fff;color:var(--bad);border-color:#f0c4c6;min-height:36px;padding:6px 14px;font-size:.9rem}
.danger:hover{background:var(--bad-bg)}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid #9db2f5;outline-offset:2px}
a{color:var(--brand)}
.notice{border-radius:10px;padding:12px 14px;margin:0 0 16px;font-size:.95rem}
.notice.ok{background:var(--ok-bg);color:var(--ok)}
.notice.warn{background:var(--warn-bg);color:var(--warn)}
.notice.bad{background:var(--bad-bg);color:var(--bad)}
.icon{width:48px;height:48px;border-radius:50%;display:grid;place-items:center;font-size:1.5rem;font-weight:700;margin-bottom:14px}
.icon.ok{background:var(--ok-bg);color:var(--ok)}
.icon.bad{background:var(--bad-bg);color:var(--bad)}
.icon.warn{background:var(--warn-bg);color:var(--warn)}
ul.connections{list-style:none;margin:0;padding:0}
ul.connections li{border:1px solid var(--line);border-radius:12px;padding:14px 16px;margin-bottom:12px;display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between}
.conn{min-width:0;flex:1 1 16rem}
.conn strong{display:block}
.conn dl{margin:6px 0 0;display:grid;grid-template-columns:auto 1fr;gap:2px 12px;font-size:.875rem;color:var(--muted)}
.conn dt{font-weight:600}
.conn dd{margin:0;word-break:break-word}
.badge{display:inline-block;border-radius:999px;padding:1px 10px;font-size:.8rem;font-weight:600;margin-left:6px;vertical-align:middle}
.badge.active{background:var(--ok-bg);color:var(--ok)}
.badge.needs_reauth{background:var(--warn-bg);color:var(--warn)}
.badge.revoked{background:#eef0f3;color:var(--muted)}
.empty{border:1px dashed var(--line);border-radius:12px;padding:24px;text-align:center;color:var(--muted)}
dl.facts{margin:16px 0;display:grid;grid-template-columns:auto 1fr;gap:6px 14px;font-size:.95rem}
dl.facts dt{color:var(--muted);font-weight:600}
dl.facts dd{margin:0;word-break:break-word}
pre.input{margin:0 0 20px;padding:12px 14px;border:1px solid var(--line);border-radius:10px;background:#f8f9fb;font:.85rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word;max-height:24rem;overflow:auto}
footer{margin-top:18px;text-align:center;color:var(--muted);font-size:.8rem}
@media (min-width:640px){.actions{flex-direction:row-reverse}.actions .primary{width:auto;flex:1}}
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLES).digest('base64')}'`;

export interface HostedPage {
  status: number;
  html: string;
  /** The Content-Security-Policy header value for this page. */
  csp: string;
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  status?: number;
  wide?: boolean;
  /** Origins a form on this page may lead to (a form post answered by a redirect to the provider). */
  formTargets?: string[];
  footer?: string;
}

export function contentSecurityPolicy(formTargets: string[] = []): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    "img-src 'self' data:",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function renderPage(options: PageOptions): HostedPage {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex, nofollow">
<title>${options.title}</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
<main class="${options.wide ? 'wide' : ''}">
<div class="card">
${options.body}
</div>
<footer>${options.footer ?? 'Secure connection handled by the task gateway. You never share your password with it.'}</footer>
</main>
</body>
</html>
`;
  return { status: options.status ?? 200, html: page.value, csp: contentSecurityPolicy(options.formTargets) };
}

/** A provider's or organization's initial, in a rounded tile: a logo without any external asset. */
export function mark(name: string): SafeHtml {
  return html`<span class="mark" aria-hidden="true">${(name.trim()[0] ?? '?').toUpperCase()}</span>`;
}
