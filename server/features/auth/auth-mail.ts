import type { TMail } from "../../lib/mailer";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function compose(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): TMail {
  return {
    to,
    subject,
    text: `Tradewinds\n\n${intro}\n\n${action}:\n${link}\n\n${outro}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p style="font-weight:600;font-size:18px">Tradewinds</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#12405a;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#475569">Or open this link: ${escapeHtml(link)}</p>
<p style="font-size:13px;color:#475569">${escapeHtml(outro)}</p>
</body></html>`,
  };
}

/** The e-mail that confirms an address belongs to the user. */
export function verificationMail(to: string, link: string): TMail {
  return compose(
    to,
    "Verify your e-mail address for Tradewinds",
    "Please confirm that this e-mail address belongs to your Tradewinds account.",
    "Verify e-mail address",
    link,
    "The link is valid for 24 hours. If you did not create an account, ignore this message.",
  );
}

/** The e-mail with a one-time password reset link. */
export function resetMail(to: string, link: string): TMail {
  return compose(
    to,
    "Reset your Tradewinds password",
    "Someone asked to reset the password of your Tradewinds account.",
    "Choose a new password",
    link,
    "The link is valid for 60 minutes and works once. If you did not ask for it, ignore this message: your password stays as it is.",
  );
}
