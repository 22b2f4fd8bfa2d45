/** Server-rendered pages of the local sign-in provider: plain HTML with inline styles, no external assets. */

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f4f8;color:#1a1f2b}
main{width:100%;max-width:380px;margin:24px;padding:32px;background:#fff;border-radius:8px;
  box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 8px}
p{margin:0 0 16px;line-height:1.45}
label{display:block;font-weight:600;margin:16px 0 6px}
input{width:100%;padding:10px 12px;font-size:1rem;border:1px solid #8a94a6;border-radius:6px}
input:focus,button:focus,a:focus{outline:3px solid #7aa7ff;outline-offset:1px}
button{width:100%;margin-top:24px;padding:11px;font-size:1rem;font-weight:600;color:#fff;
  background:#1d5bd8;border:0;border-radius:6px;cursor:pointer}
button:hover{background:#174bb3}
.secondary{background:#e7ebf2;color:#1a1f2b}
.secondary:hover{background:#d6dce6}
.error{margin:16px 0 0;padding:10px 12px;border-radius:6px;background:#fdecec;color:#8a1c1c;
  border:1px solid #f2b8b8}
.brand{font-weight:700;color:#1d5bd8;letter-spacing:.02em;margin-bottom:16px}
`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand" aria-hidden="true">Voltfolio</div>
${body}
</main>
</body>
</html>`;
}

function errorBlock(error: string | undefined, id: string): string {
  return error ? `<p class="error" id="${id}" role="alert">${escapeHtml(error)}</p>` : '';
}

export function signInPage(opts: { action: string; email?: string; error?: string }): string {
  const described = opts.error ? ' aria-describedby="sign-in-error" aria-invalid="true"' : '';
  return layout(
    'Sign in to Voltfolio',
    `<h1>Sign in to Voltfolio</h1>
${errorBlock(opts.error, 'sign-in-error')}
<form method="post" action="${escapeHtml(opts.action)}" novalidate>
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required
  value="${escapeHtml(opts.email ?? '')}"${opts.email ? '' : ' autofocus'}${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? ' autofocus' : ''}${described}>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function totpPage(opts: { action: string; error?: string }): string {
  const described = opts.error
    ? ' aria-describedby="code-help totp-error" aria-invalid="true"'
    : ' aria-describedby="code-help"';
  return layout(
    'Enter your authenticator code',
    `<h1>Enter your authenticator code</h1>
<p id="code-help">Open your authenticator app and enter the 6-digit code for Voltfolio.</p>
${errorBlock(opts.error, 'totp-error')}
<form method="post" action="${escapeHtml(opts.action)}" novalidate>
<label for="code">6-digit code</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6"
  autocomplete="one-time-code" required autofocus${described}>
<button type="submit">Verify</button>
</form>`,
  );
}

/** Signs out straight away when scripts run, like Cognito's logout endpoint; otherwise asks. */
export function signOutPage(form: string): string {
  return layout(
    'Sign out of Voltfolio',
    `<h1>Sign out of Voltfolio?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
<script>
(function(){var f=document.getElementById('op.logoutForm');if(!f)return;
var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();
</script>`,
  );
}

export function messagePage(opts: { title: string; message: string; link?: { href: string; text: string } }) {
  const link = opts.link
    ? `<p><a href="${escapeHtml(opts.link.href)}">${escapeHtml(opts.link.text)}</a></p>`
    : '';
  return layout(
    opts.title,
    `<h1>${escapeHtml(opts.title)}</h1>\n<p>${escapeHtml(opts.message)}</p>\n${link}`,
  );
}
